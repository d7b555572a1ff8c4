import DiaryCrypto
import Foundation

/// The keys sync derives from one generation of the vault key (docs/FORMAT.md §12.3).
///
/// Records and this machine's sync state get their own subkeys, apart from the entry and
/// index subkeys, so a record can never be opened as an entry or the reverse. The key id is a
/// hash of the record key: it tells which key opens a record without saying anything about it.
struct SyncKey {
    static let context = try! SubkeyContext("diarysyn")

    let generation: UInt32
    let vaultKey: SecretBytes
    let recordKey: SecretBytes
    let stateKey: SecretBytes
    let id: [UInt8]

    init(vaultKey: SecretBytes, generation: UInt32) throws {
        self.generation = generation
        self.vaultKey = vaultKey
        recordKey = try vaultKey.deriveSubkey(id: 1, context: Self.context)
        stateKey = try vaultKey.deriveSubkey(id: 2, context: Self.context)
        id = recordKey.withUnsafeBytes { raw in
            var copy = Array(raw)
            defer { secureZero(&copy) }
            return BLAKE2b.hash(copy, outputCount: 16)
        }
    }
}

/// Every key a machine can open records with: the current one and each retired one it
/// learnt from a key change, by key id.
struct SyncKeyRing {
    private(set) var byID: [[UInt8]: SyncKey] = [:]
    private(set) var current: SyncKey

    init(current: SyncKey) {
        self.current = current
        byID[current.id] = current
    }

    subscript(id: [UInt8]) -> SyncKey? { byID[id] }

    mutating func add(_ key: SyncKey) { byID[key.id] = key }

    mutating func makeCurrent(_ key: SyncKey) {
        add(key)
        current = key
    }

    var all: [SyncKey] { byID.values.sorted { $0.generation < $1.generation } }
}
