import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// A point in one machine's log: its record `seq` and that record's hash. Records carry one for
/// every other log their writer had read (a version vector); statements carry one per log as
/// their cuts (docs/FORMAT.md §12).
struct LogMark: Equatable, Hashable {
    var machine: UUID
    var seq: UInt64
    var hash: [UInt8]
}

/// A member of the membership chain: a machine and the public half of its signing key.
struct Member: Equatable {
    var machine: UUID
    var publicKey: [UInt8]
    var name: String
}

/// A record key a key change retired, with the generation and key id it had.
struct RetiredKey {
    var generation: UInt32
    var keyID: [UInt8]
    var recordKey: SecretBytes
}

/// What a statement of the membership chain does (docs/FORMAT.md §12).
enum StatementKind: UInt8, Equatable {
    case genesis = 1
    /// A new vault key (also what `passwd` makes on a synced vault).
    case rekey = 2
    /// A new passphrase over the same key (`passwd --no-rekey`).
    case passphrase = 3
    /// A machine that showed an invite joins.
    case admit = 4
    /// A machine leaves; the key changes with it.
    case remove = 5
    /// Ends a fork: one branch goes on, the others are named as superseded; the key changes.
    case settle = 6

    /// True for the kinds that draw a new vault key.
    var changesKey: Bool { self == .rekey || self == .remove || self == .settle }
}

/// One statement of the membership chain: who the members are and which key is current, signed
/// by a member of the statement before it.
struct Statement {
    var seq: UInt64
    var author: UUID
    /// The key id of the epoch this statement makes current; its body is sealed under that key.
    var keyID: [UInt8]
    /// The hash of the statement this one follows (zeros for genesis).
    var previous: [UInt8]
    var kind: StatementKind
    var generation: UInt32
    /// Settle only: the hashes of the other fork tips it ends.
    var superseded: [[UInt8]] = []
    /// The members after this statement, sorted by machine id.
    var members: [Member]
    /// The hash of the header published with this statement (or in force, for an admit), per store.
    var headerHashes: [StoreKind: [UInt8]]
    /// The last record of each log its author had read.
    var cuts: [LogMark] = []
    var retired: [RetiredKey] = []
}

/// The only operation of the first record of a machine that asks to join (docs/FORMAT.md §12):
/// its signing key's public half, the invite it answers and the proof that it holds the invite's
/// secret.
struct JoinRequest: Equatable {
    var publicKey: [UInt8]
    var inviteID: [UInt8]
    var proof: [UInt8]
}
