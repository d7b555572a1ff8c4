import DiaryCrypto
import DiaryStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What someone who copies a vault learns from its files without the passphrase, measured on
/// the files themselves (for `diary audit`).
///
/// Everything here is read the way an observer would: the header's clear fields, the list of
/// files, their sizes, modes and times, and the sealed entries' lengths. No key is involved.
public struct VaultExposure: Sendable {
    /// One file or directory of the vault, as `lstat` shows it.
    public struct FileFacts: Sendable, Equatable {
        /// Relative to the vault directory; "." is the directory itself.
        public let path: String
        public let isDirectory: Bool
        /// Permission bits only (e.g. 0o600).
        public let mode: UInt32
        public let size: Int
        public let modified: Date

        /// Wider than the store's own modes: 0700 for directories, 0600 for files.
        public var isTooOpen: Bool {
            mode & ~(isDirectory ? 0o700 : 0o600) != 0
        }
    }

    /// Whether each entry's last-modification time can be read from file metadata.
    public enum EntryTimes: String, Sendable, Equatable {
        /// One file holds every entry (`sqlite`): only the whole vault's last write shows.
        case oneFile = "one-file"
        /// Every entry file carries an uninformative time (the files store's mitigation).
        case hidden
        /// At least one entry file carries a real-looking time (written by an older `diary`,
        /// or touched by another program).
        case informative
    }

    public let directory: URL
    public let info: VaultInfo
    /// The sealed length of each entry, in bytes (bucketed by the padding).
    public let sealedEntrySizes: [Int]
    /// The stored length of each attachment object, in bytes (bucketed by the padding: 8
    /// sizes per doubling). In a SQLite vault each object is also `1 + chunks` rows under
    /// random rowids; in a files vault one file each, its times hidden like an entry's.
    public let attachmentSizes: [Int]
    public let files: [FileFacts]
    public let entryTimes: EntryTimes

    public var entryCount: Int { sealedEntrySizes.count }
    public var attachmentCount: Int { attachmentSizes.count }

    /// How many entries have each sealed size, smallest size first.
    public var sizeHistogram: [(size: Int, count: Int)] { Self.histogram(sealedEntrySizes) }

    /// How many attachment objects have each stored size, smallest size first.
    public var attachmentHistogram: [(size: Int, count: Int)] { Self.histogram(attachmentSizes) }

    private static func histogram(_ sizes: [Int]) -> [(size: Int, count: Int)] {
        Dictionary(grouping: sizes, by: { $0 }).map { ($0.key, $0.value.count) }.sorted { $0.size < $1.size }
    }

    /// Files and directories whose modes are wider than 0700 / 0600.
    public var tooOpen: [FileFacts] { files.filter(\.isTooOpen) }

    /// Measures the vault at `directory`.
    public static func measure(at directory: URL) throws -> VaultExposure {
        let info = try Vault.inspect(at: directory)
        let store = try storeCall { try StoreLayout.open(at: directory) }
        var sizes: [Int] = []
        try storeCall { try store.forEachEntry { _, sealed in sizes.append(sealed.count) } }
        let objects = try storeCall { try store.attachmentIDs().compactMap { try store.attachmentLength($0) } }
        let names = try storeCall { try store.storeFiles() }
        // The capture inbox, when there is one (absent paths are skipped below): its items are
        // sealed, but a directory open to others would let them list or drop items.
        let inbox = InboxLayout.directoryName
        var paths = ["."] + names + [inbox, inbox + "/" + InboxLayout.rejectedName]
        if info.store == .files {
            paths += [FileStore.entriesName, FileStore.indexPagesName, FileStore.attachmentsName]
        }
        var files: [FileFacts] = []
        for path in Set(paths).sorted() {
            // A file can vanish between the listing and the stat (a concurrent writer's
            // temporary file): skip it rather than fail the audit.
            if let facts = try stat(directory, path) { files.append(facts) }
        }
        return VaultExposure(
            directory: directory, info: info, sealedEntrySizes: sizes.sorted(), attachmentSizes: objects.sorted(),
            files: files,
            entryTimes: entryTimes(info.store, files))
    }

    private static func entryTimes(_ store: StoreKind, _ files: [FileFacts]) -> EntryTimes {
        guard store == .files else { return .oneFile }
        let window = DurableFile.hiddenTimeWindow
        // Attachment files are written with the same hidden times, and would date a photo.
        let entryFiles = files.filter {
            $0.path.hasPrefix(FileStore.entriesName + "/") || $0.path.hasPrefix(FileStore.attachmentsName + "/")
        }
        let informative = entryFiles.contains { !window.contains(Int($0.modified.timeIntervalSince1970)) }
        return informative ? .informative : .hidden
    }

    static func stat(_ directory: URL, _ path: String) throws -> FileFacts? {
        let url = path == "." ? directory : directory.appendingPathComponent(path)
        var info = Glibc.stat()
        guard lstat(url.path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw VaultError.io(path: url.path, detail: DurableFile.errnoText())
        }
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return FileFacts(
            path: path, isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, mode: UInt32(info.st_mode & 0o7777),
            size: Int(info.st_size), modified: Date(timeIntervalSince1970: seconds))
    }
}
