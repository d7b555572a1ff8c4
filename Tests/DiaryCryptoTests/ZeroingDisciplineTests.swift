import Foundation
import XCTest

/// Plaintext and key copies outside guarded memory are zeroed with `secureZero`
/// (`sodium_memzero`), never with a plain loop: a store to memory that is never read again is
/// what an optimiser may delete. The check reads the sources, so a new plain loop fails here.
final class ZeroingDisciplineTests: XCTestCase {
    func testNoSourceZeroesABufferWithAPlainLoop() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50, "the sources were found")
        let plainLoop = try NSRegularExpression(
            pattern: #"for\s+\w+\s+in\s+[\w.]+\.indices\s*\{\s*\w+\[\w+\]\s*=\s*0\s*\}"#)
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if plainLoop.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                offenders.append(file)
            }
        }
        XCTAssertEqual(offenders, [], "zero with secureZero (DiaryCrypto), not a loop")
    }
}
