import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// What this machine saw of one machine's log.
struct LogState: Equatable {
    var name: String
    /// The highest record read and taken in (0: none).
    var seen: UInt64 = 0
    /// Per record read, its hash and the file's stat data when read: a later sync re-hashes
    /// only records whose stat data moved, so an old record replaced in a synced folder is
    /// caught without reading every record every time.
    var records: [RecordSeen] = []
    /// The lamport of the newest record read: each record's must be greater.
    var lamport: UInt64 = 0
    /// The writer's clock in its newest record read (Unix seconds; 0: none).
    var written: UInt64 = 0
    /// This machine's clock when it last read a new record of the log (Unix seconds; 0: never).
    var heard: Int64 = 0
    /// The chain statement its newest record read was written under: a later record's never
    /// goes back.
    var epoch: UInt64 = 0

    /// Where this log stands: its newest record read, or nil before the first.
    func mark(_ machine: UUID) -> LogMark? {
        guard seen > 0, let last = records.last else { return nil }
        return LogMark(machine: machine, seq: seen, hash: last.hash)
    }
}

struct RecordSeen: Equatable {
    var hash: [UInt8]
    var stat: FileStamp
}

/// The stat fields that change when a file is replaced or rewritten.
struct FileStamp: Equatable {
    var size: UInt64
    var inode: UInt64
    var modified: Int64
    var changed: Int64

    static let none = FileStamp(size: 0, inode: 0, modified: 0, changed: 0)
}

/// This machine's sync state, apart from the per-entry pages (docs/FORMAT.md §12.6). Sealed
/// under the state key of the vault key, in `$XDG_STATE_HOME/diary/sync/…`.
struct SyncMain {
    var machine: UUID
    var machineName: String
    /// The secret half of this machine's signing key: only here, sealed.
    var signingKey: SecretBytes
    var lamport: UInt64 = 0
    /// The last git commit this machine fetched or pushed (empty for a folder).
    var remoteCommit: String = ""
    /// The membership chain as this machine accepted it.
    var chain = ChainState()
    /// Every record key this machine can open records with (retired ones and the current one).
    var recordKeys: [RetiredKey] = []
    /// The index page tags when sync last looked at the local vault.
    var indexTags: [[UInt8]] = []
    var logs: [UUID: LogState] = [:]
    /// Entries with more than one head.
    var conflicts: Set<UUID> = []
    /// A key change made here (passphrase, rotation, removal), to state at the next sync.
    var pendingChange: PendingChange?
    /// Revisions made here (resolutions) to publish at the next sync.
    var pendingRevisions: [Revision] = []
    /// Invites this machine issued and nobody has used yet.
    var invites: [Invite] = []
    /// The highest generation among the tips of a fork this machine met (0: none): a rotation
    /// made to settle it must go above.
    var forkGeneration: UInt32 = 0
    /// BLAKE2b-128 of the local vault header as of the last sync (empty before the first):
    /// a header changed since, with no key change waiting, is published (an interrupted
    /// `passwd`).
    var headerDigest: [UInt8] = []

    init(machine: UUID, machineName: String, signingKey: SecretBytes) {
        self.machine = machine
        self.machineName = machineName
        self.signingKey = signingKey
    }

    /// True once the chain names this machine a member (a joining machine waits to be admitted).
    var isMember: Bool { chain.members.contains { $0.machine == machine } }

    /// Where every log but `machine`'s stands: a record's version vector, a statement's cuts.
    func marks(except machine: UUID? = nil) -> [LogMark] {
        logs.compactMap { id, log in id == machine ? nil : log.mark(id) }
            .sorted { $0.machine.bytes.lexicographicallyPrecedes($1.machine.bytes) }
    }
}

/// A key change made on this machine, waiting to become its next statement.
struct PendingChange {
    var kind: StatementKind
    /// The new header for each store kind.
    var headers: [StoreKind: [UInt8]]
    /// Record keys this machine retired (a rotation), to name in the statement.
    var retired: [RetiredKey] = []
    /// For a removal: the machine removed.
    var removing: UUID?
    /// The passphrase was changed here with it (`passwd`): its headers may wrap differently
    /// from the chain's. A rotation alone must keep the passphrase the chain has.
    var newPassphrase = false
}

/// An invite this machine issued (docs/FORMAT.md §12): its id, the secret a joiner proves,
/// the chain head it named, for whom and when.
struct Invite {
    var id: [UInt8]
    var secret: SecretBytes
    var head: [UInt8]
    var name: String
    var created: Int64
}
