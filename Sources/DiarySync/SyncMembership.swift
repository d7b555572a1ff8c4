import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// A machine of the membership chain as this machine knows it, for `sync members` and
/// `sync status`.
public struct SyncMemberInfo: Equatable, Sendable {
    public var name: String
    public var machine: UUID
    /// The first 8 bytes of a hash of its signing key, in four groups: what two people compare.
    public var fingerprint: String
    public var isThisMachine: Bool
    /// Removed from the chain (its records after the removal are not read).
    public var removed: Bool
    /// Records of its log this machine has read.
    public var recordsRead: UInt64
    /// When its newest record read says it was written (its clock), and when this machine read
    /// a new record of it last (this machine's clock).
    public var lastWritten: Date?
    public var lastHeard: Date?
}

/// What `sync status` shows: the remote, the members, the invites and key change waiting.
public struct SyncStatusReport: Equatable, Sendable {
    public var remote: String
    public var members: [SyncMemberInfo]
    /// This machine waits to be admitted (it joined with an invite).
    public var awaitingAdmission: Bool
    /// This machine was removed from the members: it writes nothing more.
    public var removed: Bool
    public var invitesOutstanding: Int
    /// A key change made here, to be stated at the next sync.
    public var keyChangeWaiting: Bool
    /// Statements on the chain this machine accepted.
    public var chainLength: Int
    /// Attachment objects entries here reference that the local store does not hold yet.
    public var attachmentsPending = 0
}

/// Membership from the outside: invites, the members' list, a removal to state.
public enum SyncMembership {
    /// Issues an invite: kept sealed in this machine's state until a joiner uses it (once), and
    /// returned as the code to give the joiner. `name` is what the invite is for (shown back
    /// when it is used).
    public static func invite(vault: Vault, stateDirectory: URL, name: String?) throws -> String {
        try withState(vault: vault, stateDirectory: stateDirectory) { main, _ in
            if main.chain.removal(of: main.machine) != nil { throw SyncError.thisMachineRemoved }
            guard main.isMember, let head = main.chain.head else { throw SyncError.notAMember }
            let code = try InviteCode.draw(head: head.hash)
            main.invites.append(
                Invite(
                    id: code.inviteID, secret: code.secret, head: head.hash, name: name ?? "",
                    created: Int64(Date().timeIntervalSince1970)))
            return code.text
        }
    }

    public static func status(vault: Vault, stateDirectory: URL) throws -> SyncStatusReport {
        try withState(vault: vault, stateDirectory: stateDirectory, write: false) { main, remote in
            var known = main.chain.statements.flatMap(\.members)
            var seen = Set<UUID>()
            known = known.reversed().filter { seen.insert($0.machine).inserted }.reversed()
            let current = Set(main.chain.members.map(\.machine))
            let members = known.map { m in
                let log = main.logs[m.machine]
                return SyncMemberInfo(
                    name: m.name, machine: m.machine, fingerprint: fingerprint(m.publicKey),
                    isThisMachine: m.machine == main.machine, removed: !current.contains(m.machine),
                    recordsRead: log?.seen ?? 0,
                    lastWritten: log.flatMap { $0.written > 0 ? Date(timeIntervalSince1970: Double($0.written)) : nil },
                    lastHeard: log.flatMap { $0.heard > 0 ? Date(timeIntervalSince1970: Double($0.heard)) : nil })
            }
            return SyncStatusReport(
                remote: remote.description, members: members,
                awaitingAdmission: !main.isMember && main.chain.removal(of: main.machine) == nil,
                removed: main.chain.removal(of: main.machine) != nil,
                invitesOutstanding: main.invites.count, keyChangeWaiting: main.pendingChange != nil,
                chainLength: main.chain.statements.count,
                attachmentsPending: try vault.attachmentsMissingFromStore().count)
        }
    }

    /// Marks the member called `name` for removal: the key rotation that follows (a rekey)
    /// becomes a removal statement at the next sync. Returns the machine.
    public static func markRemoval(name: String, vault: Vault, stateDirectory: URL) throws -> UUID {
        try withState(vault: vault, stateDirectory: stateDirectory) { main, _ in
            let matches = main.chain.members.filter { $0.name == name }
            guard let member = matches.first else { throw SyncError.noSuchMember(name: name) }
            guard matches.count == 1 else { throw SyncError.ambiguousMember(name: name) }
            guard member.machine != main.machine else { throw SyncError.cannotRemoveThisMachine }
            main.pendingChange = PendingChange(
                kind: .remove, headers: main.pendingChange?.headers ?? [:],
                retired: main.pendingChange?.retired ?? [], removing: member.machine)
            return member.machine
        }
    }

    /// `3f2a 91bc 0e77 d415`: the first 8 bytes of BLAKE2b-256 of a public key.
    public static func fingerprint(_ publicKey: [UInt8]) -> String {
        let hex = BLAKE2b.hash(publicKey).prefix(8).map { String(format: "%02x", $0) }.joined()
        return stride(from: 0, to: 16, by: 4).map { i in
            String(hex[hex.index(hex.startIndex, offsetBy: i)..<hex.index(hex.startIndex, offsetBy: i + 4)])
        }.joined(separator: " ")
    }

    private static func withState<T>(
        vault: Vault, stateDirectory: URL, write: Bool = true, _ body: (inout SyncMain, RemoteLocation) throws -> T
    ) throws -> T {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard let remote = try setup.remote() else { throw SyncError.notSetUp }
        return try setup.lock.withLock(exclusive: true) {
            let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
            let store = StateStore(directory: setup.directory, vaultID: vault.id, key: key)
            var main = try store.readMain()
            let result = try body(&main, remote)
            if write { try store.writeMain(main) }
            return result
        }
    }
}
