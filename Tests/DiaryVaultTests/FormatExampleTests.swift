import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Replays docs/FORMAT.md §11: decrypts the committed example vault step by step with only the
/// primitives of §1 and the byte layouts of the spec — none of the vault's own decoding code —
/// so the document is proven complete. Then opens it through `Vault` as well.
///
/// To write a new example (it changes every time: keys and nonces are random), run
/// `DIARY_WRITE_FORMAT_EXAMPLE=1 swift test --filter FormatExampleTests`.
final class FormatExampleTests: VaultTestCase {
    static let passphrase = "correct horse battery staple"
    static let texts = [
        "First day\nThe vault format is public: anyone with libsodium can read this.",
        "둘째 날 🌧️\n비가 왔다.",
    ]

    var exampleDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/format-example/vault")
    }

    func testWriteExampleWhenAsked() throws {
        guard ProcessInfo.processInfo.environment["DIARY_WRITE_FORMAT_EXAMPLE"] == "1" else {
            throw XCTSkip("set DIARY_WRITE_FORMAT_EXAMPLE=1 to write a new example vault")
        }
        try? FileManager.default.removeItem(at: exampleDirectory)
        let vault = try Vault.create(
            at: exampleDirectory, store: .files, passphrase: secret(Self.passphrase), kdf: .insecureForTesting)
        _ = try vault.add(text: Self.texts[0], date: date("2024-02-22T15:00:00Z"), starred: true, tags: ["format"])
        _ = try vault.add(text: Self.texts[1], date: date("2024-02-23T08:30:00Z"), tags: ["날씨"])
        try? FileManager.default.removeItem(at: exampleDirectory.appendingPathComponent("vault.lock"))
    }

    func testExampleDecryptsWithPrimitivesAndTheSpecAlone() throws {
        let header = try bytes("vault.header")
        // §3: fixed prefix, slots, checksum.
        XCTAssertEqual(Array(header[0..<8]), Array("DIARYVLT".utf8))
        XCTAssertEqual(be(header[8..<10]), 1)
        XCTAssertEqual(header[10], 2, "files store")
        XCTAssertEqual(header[11], 1, "Argon2id")
        let vaultID = Array(header[12..<28])
        let kdf = KDFParameters(opsLimit: be(header[28..<36]), memLimit: be(header[36..<44]))
        let salt = Array(header[44..<60])
        let slotCount = Int(header[60])
        XCTAssertEqual(slotCount, 1)
        XCTAssertEqual(header.count, 61 + 76 * slotCount + 32)
        XCTAssertEqual(Array(header.suffix(32)), BLAKE2b.hash(Array(header.dropLast(32))))
        let generation = UInt32(be(header[61..<65]))
        let nonce = Array(header[65..<89])
        let sealedKey = Array(header[89..<137])
        let kek = try PassphraseKDF.deriveKey(passphrase: secret(Self.passphrase), salt: salt, parameters: kdf)
        var vk = try XChaCha20Poly1305.open(
            sealedKey, key: kek, nonce: nonce, associatedData: Array(header[0..<60]) + u32(generation))
        let vaultKey = try SecretBytes(consuming: &vk)
        // §4: subkeys.
        let entryKey = try vaultKey.deriveSubkey(id: 1, context: SubkeyContext("diaryent"))
        let indexKey = try vaultKey.deriveSubkey(id: 1, context: SubkeyContext("diaryidx"))

        // §5 and §7: the index root, then its 64 pages.
        let root = try openSealed(
            try bytes("vault.index"), kind: 2, objectID: [UInt8](repeating: 0, count: 16),
            vaultID: vaultID, key: indexKey)
        XCTAssertEqual(root[0], 2)
        XCTAssertEqual(be(root[9..<11]), 64)
        XCTAssertEqual(root.count, 11 + 64 * 36)
        var rowTags: [UUID: [UInt8]] = [:]
        for page in 0..<64 {
            let record = 11 + page * 36  // rows u32, newest date i64, newest created i64, tag 16
            let sealedPage = try bytes("index/" + String(format: "%02x", page))
            XCTAssertEqual(
                Array(sealedPage.suffix(16)), Array(root[(record + 20)..<(record + 36)]), "page \(page)'s tag")
            let plain = try openSealed(
                sealedPage, kind: 3, objectID: [UInt8](repeating: 0, count: 15) + [UInt8(page)],
                vaultID: vaultID, key: indexKey)
            XCTAssertEqual(plain[0], 2)
            XCTAssertEqual(Int(plain[1]), page)
            XCTAssertEqual(be(plain[2..<6]), be(root[record..<(record + 4)]), "row count as the root says")
            var offset = 6
            for _ in 0..<be(plain[2..<6]) {
                let id = Array(plain[offset..<(offset + 16)])
                XCTAssertEqual(Int(id[0] >> 2), page, "a row lives on the page of its id")
                rowTags[UUID(bytes: id)] = Array(plain[(offset + 45)..<(offset + 61)])
                offset += 61
                offset += 2 + Int(be(plain[offset..<(offset + 2)]))  // title
                let tagCount = Int(plain[offset]); offset += 1
                for _ in 0..<tagCount { offset += 2 + Int(be(plain[offset..<(offset + 2)])) }
                offset += 2 + Int(be(plain[offset..<(offset + 2)]))  // source
            }
            XCTAssertEqual(offset, plain.count, "no trailing bytes")
        }
        XCTAssertEqual(rowTags.count, 2, "two rows")

        // §5 and §7: every entry.
        let names = try FileManager.default.contentsOfDirectory(
            at: exampleDirectory.appendingPathComponent("entries"), includingPropertiesForKeys: nil)
        var texts: [String] = []
        for url in names {
            let id = UUID(uuidString: url.lastPathComponent)!
            let sealed = Array(try Data(contentsOf: url))
            let plain = try openSealed(sealed, kind: 1, objectID: id.bytes, vaultID: vaultID, key: entryKey)
            XCTAssertEqual(rowTags[id], Array(sealed.suffix(16)), "the index row names this very copy")
            XCTAssertEqual(plain[0], 1)
            var offset = 1 + 8 * 3 + 1
            let tagCount = Int(plain[offset]); offset += 1
            for _ in 0..<tagCount { offset += 2 + Int(be(plain[offset..<offset + 2])) }
            offset += 2 + Int(be(plain[offset..<offset + 2]))  // source
            let textLength = Int(be(plain[offset..<offset + 4])); offset += 4
            XCTAssertEqual(offset + textLength, plain.count, "no trailing bytes")
            texts.append(String(decoding: plain[offset...], as: UTF8.self))
        }
        XCTAssertEqual(texts.sorted(), Self.texts.sorted())
    }

    func testExampleOpensThroughTheVault() throws {
        let copy = path("example-copy")
        try FileManager.default.copyItem(at: exampleDirectory, to: copy)
        let vault = try Vault.open(at: copy, passphrase: secret(Self.passphrase))
        XCTAssertEqual(try vault.list().map(\.title), ["둘째 날 🌧️", "First day"])
        XCTAssertTrue(try vault.verify().isClean)
        XCTAssertEqual(try vault.list().last?.starred, true)
    }

    // MARK: Helpers written from the spec alone

    private func openSealed(_ sealed: [UInt8], kind: UInt8, objectID: [UInt8], vaultID: [UInt8], key: SecretBytes)
        throws -> [UInt8]
    {
        XCTAssertEqual(sealed[0], 1)
        XCTAssertEqual(sealed[1], kind)
        let ad = Array("diary.v1".utf8) + vaultID + Array(sealed[0..<6]) + objectID
        let padded = try XChaCha20Poly1305.open(
            Array(sealed[30...]), key: key, nonce: Array(sealed[6..<30]), associatedData: ad)
        // §6: ISO/IEC 7816-4 — strip zeros, then the 0x80 marker.
        guard let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 else {
            throw CryptoError.invalidPadding
        }
        return Array(padded[..<marker])
    }

    private func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: exampleDirectory.appendingPathComponent(name)))
    }

    private func be<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private func u32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
}
