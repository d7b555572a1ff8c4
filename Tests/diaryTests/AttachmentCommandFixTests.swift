import DiaryApp
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import diary

/// The review's findings on the attachment commands that need no process: raw argument bytes,
/// `extract -o -` failing after output began, which refusals keep `new`'s text, the words and
/// statuses of the refusals.
final class AttachmentCommandFixTests: VaultTestCase {
    func testArgumentsThatAreNotUTF8AreFoundAsTheirBytes() {
        let odd: [UInt8] = [0xFF, 0xFE] + Array(".bin".utf8)
        let other: [UInt8] = [0xFE] + Array(".bin".utf8)
        let argv: [[UInt8]] = [
            Array("diary".utf8), Array("attach".utf8), odd, Array("plain.txt".utf8), Array("--attach=".utf8) + other,
            Array("-o".utf8) + odd,
        ]
        let decoded = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
        XCTAssertEqual(
            RawArguments.bytes(of: [decoded(odd), "plain.txt", decoded(other), decoded(odd)], in: argv),
            [odd, Array("plain.txt".utf8), other, odd])
        // Two names that decode alike are told apart by their order.
        let twins: [[UInt8]] = [Array("diary".utf8), [0xFF], [0xFE]]
        XCTAssertEqual(RawArguments.bytes(of: ["\u{FFFD}", "\u{FFFD}"], in: twins), [[0xFF], [0xFE]])
        XCTAssertEqual(RawArguments.bytes(of: "naïve.txt", in: twins), Array("naïve.txt".utf8))
    }

    func testStreamingThatFailsAfterOutputBeganSaysTheOutputIsIncomplete() throws {
        let vault = try makeVault(.files)
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        var offset = 0
        let input = AttachmentInput(name: "big.bin", mediaType: "application/octet-stream") { buffer in
            let count = min(buffer.count, bytes.count - offset)
            buffer.replaceSubrange(0..<count, with: bytes[offset..<offset + count])
            offset += count
            return count
        }
        let entry = try vault.add(text: "x", attachments: [input])
        let record = entry.attachments[0]
        let object = vault.directory.appendingPathComponent("attachments/\(record.objectID.uuidString.lowercased())")
        var written = 0
        var tampered = false
        XCTAssertThrowsError(
            try Extract.stream(record, of: vault, entry: entry.id) { piece in
                // The checking pass is over: the vault changes under the second reading.
                if !tampered {
                    tampered = true
                    var stored = try Array(Data(contentsOf: object))
                    stored[stored.count - 100] ^= 1
                    try Data(stored).write(to: object)
                }
                written += piece.count
            }
        ) { error in
            guard let failure = error as? AttachmentReadFailure else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.outputIncomplete)
            let report = AttachmentWording.report(failure)
            XCTAssertEqual(report?.code, .damaged)
            XCTAssertTrue(
                report?.message.hasSuffix("; what was written to stdout is incomplete and must not be trusted")
                    ?? false,
                report?.message ?? "")
            XCTAssertFalse(report?.message.contains("nothing was written") ?? true)
        }
        XCTAssertGreaterThan(written, 0)
        // Damage found by the checking pass: nothing written, and said so.
        written = 0
        XCTAssertThrowsError(try Extract.stream(record, of: vault, entry: entry.id) { written += $0.count }) { error in
            XCTAssertFalse(error is AttachmentReadFailure, "wrapped by run as nothing written: \(error)")
        }
        XCTAssertEqual(written, 0)
    }

    func testARefusedFileKeepsNoTextButAFailedStoreDoes() {
        XCTAssertTrue(New.isFileRefusal(AttachmentFileError.malformedJPEG(path: "a.jpg")))
        XCTAssertTrue(New.isFileRefusal(AttachmentFileError.changedWhileRead(path: "a.log")))
        XCTAssertTrue(New.isFileRefusal(AttachmentError.empty))
        XCTAssertFalse(New.isFileRefusal(VaultError.io(path: "v", detail: "No space left on device")))
        XCTAssertFalse(New.isFileRefusal(CLIError.emptyText))
    }

    func testAttachOptionsWithoutAttachAreAUsageError() {
        XCTAssertThrowsError(try New.parse(["--keep-metadata", "text"]))
        XCTAssertThrowsError(try New.parse(["--no-dedup", "text"]))
        XCTAssertNoThrow(try New.parse(["--attach", "a.jpg", "--keep-metadata", "text"]))
    }

    func testRefusalsAreWordedWithTheirStatus() {
        let changed = AttachmentWording.report(.changedWhileRead(path: "a.log"))
        XCTAssertEqual(changed.code, .inputRefused, "like an empty file or a FIFO")
        let zero = AttachmentWording.report(.empty(path: "/proc/self/status"))
        XCTAssertEqual(
            zero.message,
            "/proc/self/status reports a size of 0 (an empty file, or a /proc or special file); nothing was stored")
        let device = AttachmentWording.report(.notReplaceable(path: "/dev/null", kind: .device))
        XCTAssertEqual(device.code, .alreadyExists)
        XCTAssertTrue(device.message.hasPrefix("/dev/null is a device, not a regular file; --force replaces only"))
        let odd = AttachmentWording.report(.nameNotUTF8(path: "dir/\u{FFFD}.bin"))
        XCTAssertEqual(odd.code, .inputRefused)
        XCTAssertTrue(odd.message.contains("is not UTF-8") && (odd.hint ?? "").contains("--name"), odd.message)
        let slash = AttachmentWording.report(.unreadable(path: "t1.bin/", errno: ENOTDIR))
        XCTAssertFalse(slash.message.contains("no such file"), slash.message)
    }
}
