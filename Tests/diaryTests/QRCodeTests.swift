import Foundation
import XCTest

@testable import diary

/// The recovery key's QR code: the half blocks drawn on the terminal show exactly the modules
/// the `qrencode` program (libqrencode's own front end) draws for the same text.
final class QRCodeTests: XCTestCase {
    /// `qrencode -t ASCII` as modules: `##` dark, two spaces light, one line a row.
    private func qrencodeProgram(_ text: String) throws -> [[Bool]] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/qrencode") else {
            throw XCTSkip("/usr/bin/qrencode is needed (Scripts/bootstrap installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/qrencode")
        process.arguments = ["-t", "ASCII", "-m", "4", "-l", "M", text]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 2).map { line.dropFirst($0).first == "#" }
        }
    }

    func testHalfBlocksShowTheModulesTheQrencodeProgramDraws() throws {
        for text in ["ABCDEF-GHJKMN-PQRSTV-WXYZ01-234567-89ABCD-EFGHJK-MNPQRS-TVWXYZ", "K3Q9"] {
            let code = try XCTUnwrap(QRCode(text))
            let expected = try qrencodeProgram(text)
            for colours in [true, false] {
                let lines = code.halfBlockLines(colours: colours)
                var drawn = try XCTUnwrap(QRCode.modules(ofHalfBlockLines: lines, colours: colours))
                // An odd number of rows is drawn with a light row added below.
                if drawn.count == expected.count + 1 { XCTAssertFalse(drawn.removeLast().contains(true)) }
                XCTAssertEqual(drawn, expected, "\(text), colours \(colours)")
            }
        }
    }

    func testColouredLinesAreDarkOnLight() throws {
        let line = try XCTUnwrap(QRCode("K3Q9")?.halfBlockLines(colours: true).first)
        XCTAssertTrue(line.hasPrefix("\u{1B}[30;107m") && line.hasSuffix("\u{1B}[0m"), line)
    }
}
