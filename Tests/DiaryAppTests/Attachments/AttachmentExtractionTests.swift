import DiaryApp
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// `extract`'s file: written whole or not at all, never over an existing file without
/// `force`; and which attachment a command means when the name is left out.
final class AttachmentExtractionTests: VaultTestCase {
    private func input(_ bytes: [UInt8], name: String) -> AttachmentInput {
        return AttachmentInput.reading(bytes, name: name)
    }

    private func leftovers(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".diary-extract-") }
    }

    func testExtractWritesTheWholeFileAndRefusesAnExistingOneUnlessForced() throws {
        let bytes = (0..<140_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind)
            let entry = try vault.add(text: "x", attachments: [input(bytes, name: "a.bin")])
            let out = path("out-\(kind).bin")
            try AttachmentExtraction.extract(entry.attachments[0], of: vault, to: out.path, force: false)
            XCTAssertEqual(try Array(Data(contentsOf: out)), bytes, "\(kind)")
            let mode = try FileManager.default.attributesOfItem(atPath: out.path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600)
            try Data("mine".utf8).write(to: out)
            XCTAssertThrowsError(
                try AttachmentExtraction.extract(entry.attachments[0], of: vault, to: out.path, force: false)
            ) {
                XCTAssertEqual($0 as? AttachmentFileError, .exists(path: out.path))
            }
            XCTAssertEqual(try Data(contentsOf: out), Data("mine".utf8), "left as it was")
            try AttachmentExtraction.extract(entry.attachments[0], of: vault, to: out.path, force: true)
            XCTAssertEqual(try Array(Data(contentsOf: out)), bytes)
            XCTAssertEqual(try leftovers(in: scratch), [])
        }
    }

    func testADamagedObjectLeavesNothingAtThePath() throws {
        let vault = try makeVault(.files)
        let bytes = [UInt8](repeating: 0x5A, count: 200_000)
        let entry = try vault.add(text: "x", attachments: [input(bytes, name: "a.bin")])
        let record = entry.attachments[0]
        // A bit flipped in the third chunk: the first two pass their checks before it fails.
        let object = vault.directory.appendingPathComponent("attachments/\(record.objectID.uuidString.lowercased())")
        var stored = try Array(Data(contentsOf: object))
        stored[2 + 24 + 2 * (65536 + 17) + 10] ^= 1
        try Data(stored).write(to: object)
        let out = path("out.bin")
        XCTAssertThrowsError(try AttachmentExtraction.extract(record, of: vault, to: out.path, force: false)) {
            guard case AttachmentError.damaged(_, .chunkRefused(2)) = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        XCTAssertEqual(try leftovers(in: scratch), [])
    }

    func testTheOnlyAttachmentIsChosenWithoutAName() throws {
        let vault = try makeVault(.sqlite)
        let none = try vault.add(text: "none")
        XCTAssertThrowsError(try AttachmentChoice.record(named: nil, in: none)) {
            XCTAssertEqual($0 as? AttachmentChoiceError, .none(entry: none.id))
        }
        let one = try vault.add(text: "one", attachments: [input([1], name: "Photo.JPG")])
        XCTAssertEqual(try AttachmentChoice.record(named: nil, in: one).name, "Photo.JPG")
        XCTAssertEqual(try AttachmentChoice.record(named: "photo.jpg", in: one).name, "Photo.JPG")
        XCTAssertThrowsError(try AttachmentChoice.record(named: "other", in: one)) {
            XCTAssertEqual($0 as? VaultError, .unknownAttachment("other"))
        }
        let two = try vault.attach([input([2], name: "b")], to: one.id)
        XCTAssertThrowsError(try AttachmentChoice.record(named: nil, in: two)) {
            XCTAssertEqual($0 as? AttachmentChoiceError, .nameNeeded(entry: one.id, names: ["Photo.JPG", "b"]))
        }
    }
}
