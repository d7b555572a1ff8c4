import DiaryCrypto
import DiaryVault
import Foundation

/// Entry points for the libFuzzer targets in `Fuzz/`: each feeds bytes to one parser of data
/// read from disk.
///
/// This module is not part of `diary` (nothing in the product depends on it), so neither the
/// fixed key below nor the scratch files of `backup` ship. The parsers stay out of DiaryVault's
/// public API: this module, in the same package, reaches them through `package` access, and the
/// fuzz package (separate, because an executable without `main` links only with the fuzzer
/// runtime) calls these public functions. A thrown error is a correct answer to bad input and
/// is swallowed; a trap is the bug the fuzzer looks for. Each returns whether its parser
/// accepted the input (the fuzzers ignore it; the tests check that every committed seed is
/// accepted). Where a parser accepts its input, the entry point also checks that the input was
/// canonical (it re-encodes to the same bytes), because the format promises exactly one
/// encoding per value and the vault re-encodes what it decoded.
public enum FuzzEntryPoints {
    /// A fixed, public key: with it the fuzzer can reach the code behind a successful AEAD open.
    /// Not a secret; nothing real is sealed under it. (Not private: `backup`, in its own file,
    /// opens under it too.)
    static let keyRing: KeyRing = {
        var raw = [UInt8](repeating: 0x42, count: 32)
        let vaultKey = try! SecretBytes(consuming: &raw)
        return KeyRing([try! GenerationKeys(generation: 1, vaultKey: vaultKey)])
    }()
    static let vaultID = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    private static let entryID = UUID(uuid: (16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))

    /// `VaultHeader.decode` followed by the KDF bounds check the vault applies before deriving.
    /// The input is tried as it is and with its last 32 bytes replaced by the right checksum:
    /// a mutated header almost never carries a valid BLAKE2b checksum, and without the repair
    /// the field parser behind the checksum would hardly ever run.
    @discardableResult
    public static func header(_ bytes: [UInt8]) -> Bool {
        let accepted = decodeHeader(bytes)
        if bytes.count > VaultHeader.checksumLength {
            let body = Array(bytes.dropLast(VaultHeader.checksumLength))
            decodeHeader(body + BLAKE2b.hash(body))
        }
        return accepted
    }

    @discardableResult
    private static func decodeHeader(_ bytes: [UInt8]) -> Bool {
        guard let header = try? VaultHeader.decode(bytes) else { return false }
        _ = try? header.kdf.validate()
        check(header.encoded() == bytes, "header decoded from non-canonical bytes")
        return true
    }

    /// `Envelope.peek` and `Envelope.open` under the fixed key. The first byte picks the kind
    /// (bit 0: an entry or an index object; for an index object, bit 2: a directory rather
    /// than the root) and whether the rest is stored bytes (bit 1 clear) or a padded plaintext
    /// that is first sealed under the fixed key (bit 1 set), so that `open` gets past the AEAD
    /// and its padding check and the entry or index decoder behind it are reached. An index
    /// object is sealed and opened under the root's id whatever its kind: stored bytes never
    /// open under the fixed key, and what is sealed here only needs the same id to open.
    @discardableResult
    public static func envelope(_ bytes: [UInt8]) -> Bool {
        guard let mode = bytes.first else { return false }
        let kind = envelopeKind(mode)
        let objectID = kind == .entry ? entryID : Envelope.indexObjectID
        var sealed = Array(bytes.dropFirst())
        if mode & 2 != 0 {
            let keys = keyRing.current
            let ad = Envelope.associatedData(
                vaultID: vaultID, kind: kind, generation: keys.generation, objectID: objectID)
            guard let box = try? XChaCha20Poly1305.seal(sealed, key: keys.key(for: kind), associatedData: ad) else {
                return false
            }
            sealed = Envelope.prefix(kind: kind, generation: keys.generation) + box.nonce + box.ciphertext
        }
        // Stored bytes were sealed under some real key, not the fixed one: accepted when their
        // envelope parses. Sealed here, they must open and decode.
        let peeked = (try? Envelope.peek(sealed, expecting: kind)) != nil
        guard
            let plaintext = try? Envelope.open(
                sealed, kind: kind, objectID: objectID, vaultID: vaultID, keyRing: keyRing)
        else { return mode & 2 == 0 && peeked }
        switch kind {
        case .entry: return entry(plaintext)
        case .index, .indexPage, .indexDirectory: return index(plaintext)
        }
    }

    /// The kind `envelope` gives an input whose first byte is `mode` (bit 0, then bit 2).
    package static func envelopeKind(_ mode: UInt8) -> ObjectKind {
        mode & 1 == 0 ? .entry : mode & 4 == 0 ? .index : .indexDirectory
    }

    /// `LengthPadding.unpad`; what it accepts must pad back to the same bytes.
    @discardableResult
    public static func padding(_ bytes: [UInt8]) -> Bool {
        guard let unpadded = try? LengthPadding.unpad(bytes) else { return false }
        check((try? LengthPadding.pad(unpadded)) == bytes, "padding accepted in a non-canonical form")
        return true
    }

    /// `EntryCodec.decode` on a plaintext, as if an attacker held the key.
    @discardableResult
    public static func entry(_ bytes: [UInt8]) -> Bool {
        guard let entry = try? EntryCodec.decode(bytes, id: entryID, textLimit: Vault.maximumTextBytes) else {
            return false
        }
        check(EntryCodec.encode(entry) == bytes, "entry decoded from non-canonical bytes")
        return true
    }

    /// The index decoders on a plaintext, as if an attacker held the key: the root, a directory, a page
    /// (its number and row count taken from the input, so the decoder gets past them). What
    /// decodes must encode to the same bytes, and
    /// a page must survive reading every row and splicing one out and back in.
    @discardableResult
    public static func index(_ bytes: [UInt8]) -> Bool {
        var accepted = false
        if let root = try? IndexRoot.decode(bytes) {
            check(root.encoded() == bytes, "index root decoded from non-canonical bytes")
            accepted = true
        }
        // A directory (root version 5): `5 | directory u32 | count u32 | records`.
        if let canonical = IndexDirectory.reencodes(bytes) {
            check(canonical, "index directory decoded from non-canonical bytes")
            accepted = true
        }
        // Version 2 pages: `2 | page u8 | count u32`; version 3: `3 | page u32 | count u32`.
        let header = bytes.first == 2 ? 6 : 9
        if bytes.count >= header {
            let field = { (range: Range<Int>) in bytes[range].reduce(0) { $0 << 8 | Int($1) } }
            let (number, count) = (field(1..<header - 4), field(header - 4..<header))
            if let page = try? IndexPage.decode(bytes, number: number, version: bytes[0], expectedCount: count) {
                check(page.encoded() == bytes, "index page decoded from non-canonical bytes")
                accepted = true
                let rows = (0..<page.count).map(page.row(at:))
                check(rows.allSatisfy { page.row($0.summary.id) == $0 }, "index page lookup disagrees")
                if let first = rows.first {
                    var spliced = page
                    spliced.remove(first.summary.id)
                    spliced.upsert(first)
                    check(spliced == page, "index page does not survive a splice")
                }
            }
        }
        return accepted
    }

    /// Traps with `message`: for the fuzzer, a broken invariant is as much a bug as a crash.
    private static func check(_ condition: Bool, _ message: StaticString) {
        if !condition { fatalError("\(message)") }
    }
}
