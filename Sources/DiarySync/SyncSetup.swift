import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Where this machine keeps the sync state of one local vault:
/// `$XDG_STATE_HOME/diary/sync/<vault id>/<digest of the vault's path>/`, holding `config`
/// (the remote, in clear), `state` and `heads-NN` (sealed), `lock`, `recovery-overridden`
/// (a machine name, while such a refusal stands), and for a git remote the clone in `git/`. Nothing in it is plaintext of an entry.
public struct SyncSetup {
    public let directory: URL
    public let vaultID: UUID

    public init(stateDirectory: URL, vaultID: UUID, vaultDirectory: URL) {
        let place = BLAKE2b.hash(Array(vaultDirectory.standardizedFileURL.path.utf8), outputCount: 16)
        self.vaultID = vaultID
        directory = stateDirectory.appendingPathComponent("sync", isDirectory: true)
            .appendingPathComponent(vaultID.uuidString.lowercased(), isDirectory: true)
            .appendingPathComponent(place.map { String(format: "%02x", $0) }.joined(), isDirectory: true)
    }

    var configURL: URL { directory.appendingPathComponent("config") }
    var gitTree: URL { directory.appendingPathComponent("git", isDirectory: true) }
    var lock: FileLock { FileLock(url: directory.appendingPathComponent("lock")) }
    /// Present while a sync here is refused because another machine's header names an older
    /// recovery key (`SyncError.recoveryKeyChangeOverridden`); holds that machine's name.
    var recoveryOverriddenURL: URL { directory.appendingPathComponent("recovery-overridden") }

    /// The remote this vault syncs with, or nil when it does not sync on this machine.
    public func remote() throws -> RemoteLocation? {
        guard let bytes = try DurableFile.read(configURL, limit: 64 << 10) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self), let remote = RemoteLocation.decode(text) else {
            throw SyncError.stateUnreadable(path: configURL.path)
        }
        return remote
    }

    func writeConfig(_ remote: RemoteLocation) throws {
        try makeDirectories()
        try DurableFile.write(Array(remote.encoded().utf8), to: configURL)
    }

    func makeDirectories() throws { try Self.makeDirectories(directory) }

    /// The tree records are read from and written to.
    func tree(for remote: RemoteLocation) -> URL {
        switch remote {
        case .git: return gitTree
        case .folder(let path): return URL(fileURLWithPath: path, isDirectory: true)
        }
    }
}
