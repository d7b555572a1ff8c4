import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `open_attachment` of `Scripts/decrypt-vault.py`, written from docs/FORMAT.md §7.6 with PyNaCl
/// alone, opens an attachment object this code sealed into either store, and refuses a
/// changed one.
final class AttachmentFormatReaderTests: XCTestCase {
    /// Loads the script as a module and prints H(file) of what `open_attachment` handed out.
    private static let driver = """
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("reader", sys.argv[1])
        reader = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(reader)
        out = bytearray()
        a = sys.argv[2:]
        reader.open_attachment(a[0], bytes.fromhex(a[1]), bytes.fromhex(a[2]), bytes.fromhex(a[3]), int(a[4]),
                               bytes.fromhex(a[5]), out.extend)
        print(reader.h(bytes(out)).hex())
        """

    private func hex(_ bytes: [UInt8]) -> String { PythonReader.hex(bytes) }
    private func hex(_ id: UUID) -> String { withUnsafeBytes(of: id.uuid) { hex(Array($0)) } }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PythonReader.run(["-c", Self.driver, PythonReader.script.path] + arguments)
    }

    private func requirePython() throws { try PythonReader.requireSecretstream() }

    func testThePythonReaderOpensAnObjectFromEitherStoreAndRefusesAChangedOne() throws {
        try requirePython()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("diary-attach-py-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: root) }
        // Four chunks: the file ends inside the fourth, which also holds the 0x80.
        let plaintext = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 13) }
        forEachStoreKind { kind in
            let store = try StoreLayout.create(
                kind, at: root.appendingPathComponent(kind.rawValue), initial: StoreChange(header: [1]))
            let (vaultID, objectID, key) = (UUID(), UUID(), try SecretStream.keygen())
            var sealed: AttachmentSealer.Sealed?
            try store.putAttachment(objectID) { chunk in
                let sealer = try AttachmentSealer(vaultID: vaultID, objectID: objectID, key: key, dedupKey: nil)
                try sealer.push(plaintext, emit: chunk)
                sealed = try sealer.finish(emit: chunk)
            }
            let record = try XCTUnwrap(sealed)
            let arguments = [
                store.directory.path, hex(vaultID), hex(objectID), key.withUnsafeBytes { hex(Array($0)) },
                String(record.length),
            ]
            let good = try run(arguments + [hex(record.storedHash)])
            XCTAssertEqual(good.status, 0, "\(kind): \(good.output)")
            XCTAssertEqual(good.output.trimmingCharacters(in: .whitespacesAndNewlines), hex(BLAKE2b.hash(plaintext)))
            var otherHash = record.storedHash
            otherHash[31] ^= 1
            let refused = try run(arguments + [hex(otherHash)])
            XCTAssertNotEqual(refused.status, 0, "\(kind)")
            XCTAssertTrue(refused.output.contains("hash"), refused.output)
            let wrongLength = try run(Array(arguments.dropLast()) + ["199999", hex(record.storedHash)])
            XCTAssertTrue(wrongLength.output.contains("padding is not canonical"), "\(kind): \(wrongLength.output)")
            if kind == .files {
                let file = store.directory.appendingPathComponent(FileStore.attachmentName(for: objectID))
                var bytes = try [UInt8](Data(contentsOf: file))
                bytes[100_000] ^= 0x40
                try Data(bytes).write(to: file)
                let flipped = try run(arguments + [hex(record.storedHash)])
                XCTAssertNotEqual(flipped.status, 0)
                XCTAssertTrue(flipped.output.contains("chunk 1 does not authenticate"), flipped.output)
            }
        }
    }
}
