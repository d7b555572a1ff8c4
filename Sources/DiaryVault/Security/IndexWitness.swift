import DiaryCrypto
import DiaryStore
import Foundation

/// This machine's copy of the newest sealed index it has read or written of one vault: the
/// root and its pages, exactly as the vault stored them, kept outside the vault under
/// `$XDG_STATE_HOME/diary/witness/<vault id>/<digest of the vault's path>/`. A copy of the
/// same vault in another place (a backup restored into a new directory) is another vault for
/// this purpose: restoring is not a rollback.
///
/// Why: the index is the vault's only list of which entries exist, and whoever holds the
/// vault's files can delete it, put an older one back, or delete entries with it. Every object
/// of an older copy authenticates, so only a record kept elsewhere can tell that something is
/// gone. The copy is ciphertext sealed under the vault's keys (opened only by a process that
/// holds them); it holds no secret and reveals nothing a copy of the vault does not.
///
/// The copy is a files store of its own (`index-copy/`, holding a placeholder header, never the
/// vault's wrapped key), so it is written with the store's atomic, durable changes; `seen`
/// holds the date it was last brought up to date, for messages ("a copy this machine saw on…").
public struct IndexWitness: Sendable {
    public let directory: URL

    /// The witness of the vault `vaultID` at `vaultDirectory`, under `stateDirectory` (the
    /// session's: `DiaryEnvironment.stateDirectory`).
    public init(stateDirectory: URL, vaultID: UUID, vaultDirectory: URL) {
        let place = BLAKE2b.hash(Array(vaultDirectory.standardizedFileURL.path.utf8), outputCount: 16)
        directory = stateDirectory.appendingPathComponent("witness", isDirectory: true)
            .appendingPathComponent(vaultID.uuidString.lowercased(), isDirectory: true)
            .appendingPathComponent(place.map { String(format: "%02x", $0) }.joined(), isDirectory: true)
    }

    /// Stands in for a header: the witness store must have one, and must not hold the vault's.
    static let placeholderHeader: [UInt8] = Array("diary index witness 1".utf8)
    static let seenName = "seen"

    var storeURL: URL { directory.appendingPathComponent("index-copy", isDirectory: true) }
    var seenURL: URL { directory.appendingPathComponent(Self.seenName) }

    /// The witness store, or nil when this machine has never recorded this vault.
    func open() throws -> (any VaultStore)? {
        do {
            return try StoreLayout.open(at: storeURL)
        } catch StoreError.noVault {
            return nil
        } catch let error as StoreError {
            throw VaultError(error)
        }
    }

    /// When the witness was last brought up to date, if it says.
    func seenDate() -> Date? {
        guard let bytes = try? DurableFile.read(seenURL, limit: 64),
            let text = String(validating: bytes, as: UTF8.self), let seconds = Int64(text)
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Replaces the whole copy with `root` and `pages` (first sight of a vault, or a copy that
    /// fell behind: another machine wrote, or this one was interrupted after a write).
    func replace(root: [UInt8], pages: [Int: [UInt8]]) throws {
        try storeCall {
            if let store = try open() {
                try store.withWriteLock {
                    // Pages of the copy that the vault no longer has (split, or of the old layout).
                    let stale = Set(try store.readIndexPages().keys).subtracting(pages.keys)
                    try store.apply(StoreChange(index: root, putIndexPages: pages, deleteIndexPages: stale))
                }
            } else {
                // Private all the way down: the names link this user to their vaults.
                var path = directory
                var missing: [URL] = []
                while !FileManager.default.fileExists(atPath: path.path) {
                    missing.insert(path, at: 0)
                    path.deleteLastPathComponent()
                }
                for url in missing { try DurableFile.makeDirectory(url) }
                _ = try StoreLayout.create(
                    .files, at: storeURL,
                    initial: StoreChange(header: Self.placeholderHeader, index: root, putIndexPages: pages))
            }
            try noteSeen()
        }
    }

    /// Applies one committed change of the vault (its new root, changed and removed pages) to
    /// a copy that held the root the change was made on.
    func apply(root: [UInt8], changedPages: [Int: [UInt8]], removedPages: Set<Int> = []) throws {
        try storeCall {
            guard let store = try open() else {
                throw StoreError.io(path: storeURL.path, detail: "no record to update")
            }
            try store.withWriteLock {
                try store.apply(StoreChange(index: root, putIndexPages: changedPages, deleteIndexPages: removedPages))
            }
            try noteSeen()
        }
    }

    /// The sealed root the copy holds, if any.
    func root() throws -> [UInt8]? {
        try storeCall { try open()?.readIndex() }
    }

    private func noteSeen() throws {
        try DurableFile.write(Array(String(Int64(Date().timeIntervalSince1970)).utf8), to: seenURL)
    }
}
