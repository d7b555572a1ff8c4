import Foundation
import XCTest

/// The standing size rules: no source file over 450 lines, no function over 60.
///
/// Why a test: a file past ~400 lines is usually two ideas, and a function past a screen hides
/// its steps; both grew unnoticed before (a 600-line sync engine, a 100-line search).
final class SourceSizeTests: XCTestCase {
    static let maximumFileLines = 450
    static let maximumFunctionLines = 60

    func testNoSourceFileIsOver450Lines() throws {
        var violations: [String] = []
        for file in try SourceRule.swiftFiles(under: "Sources") {
            let lines = try Self.lines(of: file)
            if lines.count > Self.maximumFileLines { violations.append("\(file): \(lines.count) lines") }
        }
        XCTAssertTrue(violations.isEmpty, "\n" + violations.joined(separator: "\n"))
    }

    func testNoFunctionIsOver60Lines() throws {
        var violations: [String] = []
        for file in try SourceRule.swiftFiles(under: "Sources") {
            for function in FunctionSpans.find(in: try Self.lines(of: file))
            where function.lineCount > Self.maximumFunctionLines {
                violations.append("\(file):\(function.firstLine): \(function.lineCount) lines: \(function.signature)")
            }
        }
        XCTAssertTrue(violations.isEmpty, "\n" + violations.joined(separator: "\n"))
    }

    /// The measure counts from the declaration to its closing brace, and is not fooled by
    /// braces in strings, comments or nested closures.
    func testFunctionSpansCountDeclarationToClosingBrace() {
        let source = """
            struct S {
                func short() {
                    let s = "}}}"  // }
                    let t = [1].map { $0 + 1 }
                }

                public static func multiline(
                    a: Int
                ) -> Int {
                    let text = \"\"\"
                        }
                        \"\"\"
                    return a
                }
                var computed: Int { 1 }
            }
            """
        let spans = FunctionSpans.find(
            in: source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        XCTAssertEqual(spans.map(\.firstLine), [2, 7])
        XCTAssertEqual(spans.map(\.lineCount), [4, 8])
    }

    private static func lines(of file: String) throws -> [String] {
        let text = try String(contentsOf: ArchitectureTests.root.appendingPathComponent(file), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Functions, initialisers and subscripts in Swift source, with the lines they span.
enum FunctionSpans {
    struct Span: Equatable {
        /// 1-based line of the declaration.
        let firstLine: Int
        let lineCount: Int
        let signature: String
    }

    private static let declaration = try! NSRegularExpression(
        pattern:
            #"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|static|class|final|override|mutating|nonmutating|nonisolated|convenience|required|dynamic|@inlinable)\s+)*(?:func\s|init[?!]?\s*[(<]|subscript\s*[(<]|deinit\b)"#
    )

    static func find(in lines: [String]) -> [Span] {
        var spans: [Span] = []
        var scanner = BraceScanner()
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if !scanner.inMultilineString,
                declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil,
                let end = closingLine(of: index, in: lines, scanner: scanner)
            {
                spans.append(
                    Span(
                        firstLine: index + 1, lineCount: end - index + 1,
                        signature: line.trimmingCharacters(in: .whitespaces)))
            }
            scanner.consume(line)
            index += 1
        }
        return spans
    }

    /// The index of the line that closes the body opened at or after `start`; nil for a
    /// declaration without a body (a protocol requirement).
    private static func closingLine(of start: Int, in lines: [String], scanner: BraceScanner) -> Int? {
        var scanner = scanner
        let outer = scanner.depth
        scanner.maximumSinceReset = outer
        var opened = false
        for index in start..<lines.count {
            let before = scanner.depth
            scanner.consume(lines[index])
            if scanner.maximumSinceReset > outer { opened = true }
            scanner.maximumSinceReset = scanner.depth
            if opened, scanner.depth <= outer { return index }
            // A requirement ends where the next declaration starts, before any brace.
            if !opened, index > start, before == outer, lines[index].contains("func ") { return nil }
        }
        return nil
    }
}

/// Counts brace depth line by line, skipping string literals (single- and multi-line) and
/// comments.
struct BraceScanner {
    private(set) var depth = 0
    var maximumSinceReset = 0
    private(set) var inMultilineString = false
    private var inBlockComment = false

    mutating func consume(_ line: String) {
        let characters = Array(line)
        var i = 0
        var inString = false
        while i < characters.count {
            let c = characters[i]
            let next: Character? = i + 1 < characters.count ? characters[i + 1] : nil
            if inBlockComment {
                if c == "*", next == "/" { inBlockComment = false; i += 1 }
            } else if inMultilineString {
                if line.dropFirst(i).hasPrefix("\"\"\"") { inMultilineString = false; i += 2 }
            } else if inString {
                if c == "\\" { i += 1 } else if c == "\"" { inString = false }
            } else if c == "/", next == "/" {
                return
            } else if c == "/", next == "*" {
                inBlockComment = true
                i += 1
            } else if line.dropFirst(i).hasPrefix("\"\"\"") {
                inMultilineString = true
                i += 2
            } else if c == "\"" {
                inString = true
            } else if c == "{" {
                depth += 1
                maximumSinceReset = max(maximumSinceReset, depth)
            } else if c == "}" {
                depth -= 1
            }
            i += 1
        }
    }
}
