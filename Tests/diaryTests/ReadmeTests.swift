import Foundation
import XCTest

/// The README stays a front page (issue 22): at most 150 lines, the two set-up commands in its
/// first code block; and no link of the README, the guide or CONTRIBUTING.md leads nowhere, so
/// text moved between them keeps its readers.
final class ReadmeTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    func testTheReadmeIsAFrontPageThatOpensWithTheTwoSetUpCommands() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertLessThanOrEqual(lines.count, 151, "at most 150 lines (and the final newline)")
        let blocks = readme.components(separatedBy: "```")
        XCTAssertGreaterThan(blocks.count, 2, "the README has a code block")
        let commands = blocks[1].split(separator: "\n").dropFirst()  // the language name
            .map { $0.split(separator: "#", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(commands, ["Scripts/bootstrap && Scripts/install && Scripts/demo", "Scripts/test"])
        for needed in ["cannot be recovered", "## Coming from jrnl", "## What diary does not do"] {
            XCTAssertTrue(readme.contains(needed), needed)
        }
    }

    /// Every relative link names a file that exists, and every `#anchor` a heading of its target.
    func testEveryRelativeLinkOfTheDocsResolves() throws {
        for page in ["README.md", "docs/GUIDE.md", "CONTRIBUTING.md"] {
            let text = try Self.text(page)
            let base = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
            for link in Self.links(in: text) where !link.contains("://") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page : (base == "." ? parts[0] : base + "/" + parts[0])
                let target = Self.repository.appendingPathComponent(file).standardizedFileURL
                XCTAssertTrue(FileManager.default.fileExists(atPath: target.path), "\(page) links to \(link)")
                guard parts.count == 2, file.hasSuffix(".md") else { continue }
                let headings = Self.anchors(of: (try? String(contentsOf: target, encoding: .utf8)) ?? "")
                XCTAssertTrue(headings.contains(parts[1]), "\(page) links to \(link): no such heading")
            }
        }
    }

    /// The targets of `[text](target)` links.
    static func links(in text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The anchors GitHub makes of a page's headings: lowercase, punctuation dropped, spaces as `-`.
    static func anchors(of text: String) -> Set<String> {
        var anchors = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
            }
            anchors.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }
}
