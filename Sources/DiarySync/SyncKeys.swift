import DiaryCrypto
import Foundation

/// The keys sync derives from one generation of the vault key (docs/FORMAT.md §12, Keys).
///
/// Records and this machine's sync state get their own subkeys, apart from the entry and
/// index subkeys, so a record can never be opened as an entry or the reverse. The key id is a
/// BLAKE2b-256 keyed by the record key over the vault id: it tells which key opens a file
/// without saying anything about the key to anyone who lacks it.
///
/// A key retired by a key change travels as its record key alone, so a retired `SyncKey`
/// has no vault key and no state key: it opens old records and statements, nothing else.
struct SyncKey {
    static let context = try! SubkeyContext("diarysyn")
    static let idLabel = Array("diary.sync.key-id.v2".utf8)
    static let idByteCount = 32

    let generation: UInt32
    /// Nil for a retired key known by its record key only.
    let vaultKey: SecretBytes?
    let recordKey: SecretBytes
    /// Nil for a retired key: only a vault key this machine holds seals its state.
    let stateKey: SecretBytes?
    /// 32 bytes (`id(recordKey:vaultID:)`).
    let id: [UInt8]

    /// The current key of a vault: record and state keys derived from its vault key.
    init(vaultKey: SecretBytes, generation: UInt32, vaultID: UUID) throws {
        self.generation = generation
        self.vaultKey = vaultKey
        recordKey = try vaultKey.deriveSubkey(id: 1, context: Self.context)
        stateKey = try vaultKey.deriveSubkey(id: 2, context: Self.context)
        id = try Self.id(recordKey: recordKey, vaultID: vaultID)
    }

    /// A retired key, as a statement lists it: its record key only.
    init(recordKey: SecretBytes, generation: UInt32, vaultID: UUID) throws {
        guard recordKey.count == 32 else {
            throw CryptoError.invalidLength(what: "record key", expected: "32", actual: recordKey.count)
        }
        self.generation = generation
        vaultKey = nil
        self.recordKey = recordKey
        stateKey = nil
        id = try Self.id(recordKey: recordKey, vaultID: vaultID)
    }

    /// `BLAKE2b-256(message = "diary.sync.key-id.v2" ‖ vault id, key = record key)`.
    static func id(recordKey: SecretBytes, vaultID: UUID) throws -> [UInt8] {
        try BLAKE2b.keyedHash(idLabel + vaultID.bytes, key: recordKey, outputCount: idByteCount)
    }
}

/// Every key a machine can open records with: the current one and each retired one it
/// learnt from a key change, by key id.
struct SyncKeyRing {
    private(set) var byID: [[UInt8]: SyncKey] = [:]
    private(set) var current: SyncKey

    /// Two different keys with one id: never by chance (a 256-bit keyed hash), so a file that
    /// claims it is forged or broken.
    struct Collision: Error, Equatable {
        var keyID: [UInt8]
    }

    init(current: SyncKey) {
        self.current = current
        byID[current.id] = current
    }

    subscript(id: [UInt8]) -> SyncKey? { byID[id] }

    /// Adds `key`; a key already known under its id stays, and a different key under a known
    /// id is refused rather than replacing the one that opens the older files.
    mutating func add(_ key: SyncKey) throws(Collision) {
        if let known = byID[key.id] {
            guard known.recordKey == key.recordKey else { throw Collision(keyID: key.id) }
            // Keep the richer of the two: a retired copy must not hide a vault key already held.
            if known.vaultKey == nil, key.vaultKey != nil { byID[key.id] = key }
            return
        }
        byID[key.id] = key
    }

    mutating func makeCurrent(_ key: SyncKey) throws(Collision) {
        try add(key)
        current = byID[key.id] ?? key
    }

    var all: [SyncKey] { byID.values.sorted { $0.generation < $1.generation } }
}
