import Foundation
import XCTest

/// The layering rules of docs/STYLE's package table, checked on the source text.
///
/// Why on the text: SwiftPM on Linux lets a module import any module built before it, declared
/// dependency or not, so the manifest alone does not keep the CLI off the store layer. Each
/// failure names the file and line that breaks a rule.
final class ArchitectureTests: XCTestCase {
    /// The package root: this file is `Tests/DiaryAppTests/Architecture/ArchitectureTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The CLI reaches the vault through DiaryApp and DiaryVault: never the store, never C.
    func testTheCommandLineImportsNeitherTheStoreNorLibsodium() throws {
        assertNoViolations(try SourceRule.imports(of: ["DiaryStore", "CSodium"]).violations(under: "Sources/diary"))
    }

    /// DiaryApp returns values; only the CLI parses arguments and talks to people.
    func testTheApplicationLayerNeverImportsArgumentParserNorTouchesAStandardStream() throws {
        assertNoViolations(try SourceRule.imports(of: ["ArgumentParser"]).violations(under: "Sources/DiaryApp"))
        assertNoViolations(try SourceRule.standardStream.violations(under: "Sources/DiaryApp"))
    }

    /// DiarySync reports typed findings; which command to suggest is the CLI's choice, so no
    /// `diary …` command appears there, comments included.
    func testSyncNamesNoDiaryCommand() throws {
        assertNoViolations(try SourceRule.diaryCommand.violations(under: "Sources/DiarySync"))
    }

    /// Each rule flags what it is for and leaves alone what merely looks like it, so that a
    /// clean run above means something.
    func testTheRulesFlagWhatTheyAreForAndNothingElse() {
        let store = SourceRule.imports(of: ["DiaryStore", "CSodium"])
        for line in [
            "import DiaryStore", "@testable import DiaryStore", "internal import CSodium",
            "@_exported import enum DiaryStore.StoreKind", "  import DiaryStore // for StoreKind",
        ] {
            XCTAssertNotNil(store.finding(in: line), line)
        }
        for line in [
            "import DiaryStoreKit", "// import DiaryStore", "import DiaryVault", "let x = \"import DiaryStore\"",
        ] {
            XCTAssertNil(store.finding(in: line), line)
        }
        for line in [
            "print(\"x\")", "    debugPrint(value)", "FileHandle.standardError.write(data)",
            "let out = FileHandle.standardOutput", "fputs(text, stderr)", "open(\"/dev/tty\", O_RDWR)",
            "_ = write(2, buffer, count)", "if isatty(STDOUT_FILENO) {}",
        ] {
            XCTAssertNotNil(SourceRule.standardStream.finding(in: line), line)
        }
        for line in [
            "SyncMessages.print(note)", "func print(_ text: String) {}", "// never print(\"x\")",
            "blueprint(x)", "let url = \"https://example.org\" // print(", "write(fd, buffer, count)",
        ] {
            XCTAssertNil(SourceRule.standardStream.finding(in: line), line)
        }
        XCTAssertNotNil(SourceRule.diaryCommand.finding(in: "/// Run `diary sync --resolve` first."))
        XCTAssertNotNil(SourceRule.diaryCommand.finding(in: "detail: \"run `diary rekey`\""))
        XCTAssertNil(SourceRule.diaryCommand.finding(in: "/// What `diary` keeps on the remote."))
    }

    private func assertNoViolations(_ violations: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(violations.isEmpty, "\n" + violations.joined(separator: "\n"), file: file, line: line)
    }
}

/// One rule about what a folder's source files may contain.
enum SourceRule {
    /// An import (plain, `@testable`, `@_exported`, with an access level, or of one declaration)
    /// of any of these modules.
    case imports(of: Set<String>)
    /// A write to stdout or stderr, or the terminal opened: `print(` and its kin, the standard
    /// `FileHandle`s, C's stdio, descriptors 1 and 2, `/dev/tty`. Comments are not code.
    case standardStream
    /// A backticked `diary …` command, comments included.
    case diaryCommand

    /// `module` is captured; the optional parts are attributes, an access level and a kind.
    private static let importPattern = regex(
        #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"#
            + #"import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(?<module>\w+)"#)
    /// What writes to a standard stream. A method called `print` (`SyncMessages.print(`) or a
    /// declaration of one is not the global function.
    private static let streamPatterns = [
        #"(?<![\w.])(?<!func )(?:print|debugPrint|dump)\("#,
        #"FileHandle\.standard(?:Output|Error)\b"#,
        #"(?<![\w.])(?:fputs|fputc|fprintf|vfprintf|putchar|puts|perror)\("#,
        #"(?<![\w.])(?:stdout|stderr)\b"#, #"\bSTD(?:OUT|ERR)_FILENO\b"#,
        #"(?<![\w.])write\(\s*[12]\s*,"#, #"fileDescriptor:\s*[12]\b"#, #"/dev/tty"#,
    ].map(regex)

    /// Why `line` breaks the rule, or nil.
    func finding(in line: String) -> String? {
        switch self {
        case .imports(let modules):
            guard let match = Self.importPattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let range = Range(match.range(withName: "module"), in: line),
                modules.contains(String(line[range]))
            else { return nil }
            return "imports \(line[range])"
        case .standardStream:
            let code = Self.withoutComment(line)
            let range = NSRange(code.startIndex..., in: code)
            guard let hit = Self.streamPatterns.lazy.compactMap({ $0.firstMatch(in: code, range: range) }).first,
                let matched = Range(hit.range, in: code)
            else { return nil }
            return "writes to a standard stream or the terminal (\(code[matched]))"
        case .diaryCommand:
            return line.contains("`diary ") ? "names a `diary …` command" : nil
        }
    }

    /// Every line of the `.swift` files under `folder` (relative to the package root) that
    /// breaks the rule, as `path:line: why`. Throws when the folder holds no Swift file, so a
    /// moved folder cannot make the check pass by finding nothing to read.
    func violations(under folder: String) throws -> [String] {
        let files = try Self.swiftFiles(under: folder)
        var violations: [String] = []
        for file in files {
            let text = try String(contentsOf: ArchitectureTests.root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let why = finding(in: String(line)) { violations.append("\(file):\(number + 1): \(why)") }
            }
        }
        return violations
    }

    /// The `.swift` files under `folder`, as paths relative to the package root, sorted.
    static func swiftFiles(under folder: String) throws -> [String] {
        let base = ArchitectureTests.root.appendingPathComponent(folder)
        let names = (try FileManager.default.subpathsOfDirectory(atPath: base.path)).filter { $0.hasSuffix(".swift") }
        guard !names.isEmpty else { throw SourceRuleError.noSwiftFiles(folder) }
        return names.sorted().map { "\(folder)/\($0)" }
    }

    /// `line` up to a `//` comment that is not inside a string literal.
    static func withoutComment(_ line: String) -> String {
        var inString = false
        var escaped = false
        var previous: Character?
        for index in line.indices {
            let character = line[index]
            defer { previous = character }
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            if character == "\"" { inString = true }
            if character == "/", previous == "/" { return String(line[..<line.index(before: index)]) }
        }
        return line
    }

    private static func regex(_ pattern: String) -> NSRegularExpression {
        // The patterns are constants of this file: a bad one is a bug in the test.
        try! NSRegularExpression(pattern: pattern)
    }
}

enum SourceRuleError: Error, CustomStringConvertible {
    case noSwiftFiles(String)

    var description: String {
        switch self {
        case .noSwiftFiles(let folder): return "no .swift file under \(folder): has the folder moved?"
        }
    }
}
