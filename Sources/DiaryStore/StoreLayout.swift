import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding, creating and opening the store inside a vault directory.
///
/// A directory is a SQLite vault when it holds `vault.sqlite`, a files vault when it holds
/// `vault.header`. Both stores write that marker last, so an interrupted create leaves only
/// leftovers (`.tmp-…` files, `vault.lock`, `vault.index`, `vault.journal`, an `entries/`
/// without entries, an `index/` holding only index pages); such a directory counts as holding
/// no vault and may be created over.
public enum StoreLayout {
    /// The vault's cross-process lock file, the same for both stores: `init`, writers and
    /// a crashed writer's recovery all serialise on it.
    package static let lockName = "vault.lock"

    /// Which store the vault in `directory` uses.
    ///
    /// Throws `StoreError.noVault` when the directory is missing, empty or holds only the
    /// leftovers of an interrupted create, and `StoreError.notAVault` when it holds other things.
    public static func detect(at directory: URL) throws -> StoreKind {
        switch try inspect(directory) {
        case .missing, .empty, .leftovers: throw StoreError.noVault(path: directory.path)
        case .foreign: throw StoreError.notAVault(path: directory.path)
        case .vault(let kind): return kind
        }
    }

    /// Creates a vault of `kind` in `directory` holding `initial` (which must carry a header),
    /// and returns its open store.
    ///
    /// The directory (and missing parents) are created 0700. Refuses with `.alreadyExists`
    /// when a vault is there and `.notAVault` when the directory holds foreign files.
    public static func create(_ kind: StoreKind, at directory: URL, initial: StoreChange) throws -> any VaultStore {
        guard initial.header != nil else {
            throw StoreError.io(path: directory.path, detail: "a new vault needs a header")
        }
        // Refused before the directory is touched, like a change without a header.
        try initial.validate(path: directory.path)
        switch try inspect(directory) {
        case .vault: throw StoreError.alreadyExists(path: directory.path)
        case .foreign: throw StoreError.notAVault(path: directory.path)
        case .missing:
            try makeParents(of: directory)
            try DurableFile.makeDirectory(directory)
            try DurableFile.syncDirectory(directory.deletingLastPathComponent())
        case .empty, .leftovers:
            try DurableFile.makeDirectory(directory)
        }
        // Two `diary init`s racing on one directory: the vault lock lets one finish first,
        // and the other then finds its vault and refuses.
        let lock = FileLock(url: directory.appendingPathComponent(StoreLayout.lockName))
        try lock.createFile()
        return try lock.withLock(exclusive: true) {
            switch try inspect(directory) {
            case .vault: throw StoreError.alreadyExists(path: directory.path)
            case .foreign: throw StoreError.notAVault(path: directory.path)
            case .missing, .empty, .leftovers: try removeLeftovers(in: directory)
            }
            switch kind {
            case .sqlite: return try SQLiteStore.create(at: directory, initial: initial)
            case .files: return try FileStore.create(at: directory, initial: initial)
            }
        }
    }

    /// Opens the vault in `directory`, whichever store it uses.
    public static func open(at directory: URL) throws -> any VaultStore {
        switch try detect(at: directory) {
        case .sqlite: return try SQLiteStore(openingAt: directory)
        case .files: return try FileStore(openingAt: directory)
        }
    }

    enum Contents: Equatable {
        case missing, empty, leftovers, foreign
        case vault(StoreKind)
    }

    /// Names an interrupted create may leave behind (besides `.tmp-…` files).
    static let leftoverNames: Set<String> = [
        StoreLayout.lockName, FileStore.indexName, FileJournal.fileName, FileStore.entriesName,
        FileStore.indexPagesName,
    ]

    /// What `directory` holds.
    static func inspect(_ directory: URL) throws -> Contents {
        // A vault's marker is looked up by name first: a listing costs as much as the
        // directory's size, and an import stages all its entries there (ext4 never shrinks a
        // directory), so every command would pay for the largest import the vault ever had.
        if let database = nameExists(SQLiteStore.databaseName, in: directory),
            let header = nameExists(FileStore.headerName, in: directory), database != header
        {
            return .vault(database ? .sqlite : .files)
        }
        guard let names = try DurableFile.names(in: directory) else { return .missing }
        let hasDatabase = names.contains(SQLiteStore.databaseName)
        let hasHeader = names.contains(FileStore.headerName)
        if hasDatabase && hasHeader {
            throw StoreError.corrupt(path: directory.path, detail: "holds both a sqlite and a files store")
        }
        if hasDatabase { return .vault(.sqlite) }
        if hasHeader { return .vault(.files) }
        if names.isEmpty { return .empty }
        guard names.allSatisfy({ leftoverNames.contains($0) || $0.hasPrefix(DurableFile.tempPrefix) }) else {
            return .foreign
        }
        if names.contains(FileStore.entriesName) {
            let entries = try DurableFile.names(in: directory.appendingPathComponent(FileStore.entriesName)) ?? []
            // Entries without a header are a damaged vault, not leftovers: never create over them.
            if entries.contains(where: { !$0.hasPrefix(DurableFile.tempPrefix) }) {
                throw StoreError.corrupt(path: directory.path, detail: "\(FileStore.headerName) is missing")
            }
        }
        if names.contains(FileStore.indexPagesName) {
            let pages = try DurableFile.names(in: directory.appendingPathComponent(FileStore.indexPagesName)) ?? []
            // Index pages are a cache sealed under a key whose header never landed: leftovers.
            // Any other name there is not ours.
            let ours = { (name: String) in
                name.hasPrefix(DurableFile.tempPrefix) || IndexPageNumber.page(fromFileName: name) != nil
            }
            guard pages.allSatisfy(ours) else { return .foreign }
        }
        return .leftovers
    }

    /// Whether `directory` lists `name` (any kind of file, not followed); nil when `lstat`
    /// cannot tell, and the listing then decides as it always did.
    private static func nameExists(_ name: String, in directory: URL) -> Bool? {
        var info = stat()
        if lstat(directory.appendingPathComponent(name).path, &info) == 0 { return true }
        return errno == ENOENT ? false : nil
    }

    private static func removeLeftovers(in directory: URL) throws {
        try DurableFile.removeTempFiles(in: directory)
        try DurableFile.remove(directory.appendingPathComponent(FileStore.indexName))
        try DurableFile.remove(directory.appendingPathComponent(FileJournal.fileName))
        let entries = directory.appendingPathComponent(FileStore.entriesName)
        try DurableFile.removeTempFiles(in: entries)
        let pages = directory.appendingPathComponent(FileStore.indexPagesName)
        if let names = try DurableFile.names(in: pages) {
            // `inspect` found only temporary files and pages here.
            for name in names { try DurableFile.remove(pages.appendingPathComponent(name)) }
            try DurableFile.syncDirectory(pages)
        }
        try DurableFile.syncDirectory(directory)
    }

    /// Creates the missing parents of `directory`, each 0700.
    private static func makeParents(of directory: URL) throws {
        let parent = directory.deletingLastPathComponent()
        guard try DurableFile.names(in: parent) == nil, parent.path != directory.path else { return }
        try makeParents(of: parent)
        try DurableFile.makeDirectory(parent)
    }
}
