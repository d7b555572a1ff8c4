import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key-value store: one file per sealed blob inside the vault directory.
///
/// ```
/// <dir>/vault.header            the header (its presence makes the directory a files vault)
/// <dir>/vault.index             the sealed index
/// <dir>/entries/<lowercase-uuid> one sealed entry per file
/// <dir>/index/<8 hex digits>     one sealed index page per file, named by page number (2 hex
///                               digits for the pages 0…63 of an index of version 2)
/// <dir>/attachments/<lowercase-uuid> one sealed attachment object per file (once there is one)
/// <dir>/vault.lock              flock target serialising writers (and fencing snapshots)
/// <dir>/vault.journal           only while a multi-file change is in flight
/// ```
///
/// Every file is replaced by write-temp, fsync, rename, fsync-dir (`DurableFile`). A change that
/// touches more than one file is made atomic by the redo journal (`FileJournal`): the journal
/// is durable before the first file moves and removed after the last move is durable, and any
/// reader or writer that finds one finishes it first. A crash at any instant therefore leaves
/// the old state (no journal yet) or the new one (journal replayed).
public final class FileStore: VaultStore {
    package static let headerName = "vault.header"
    package static let indexName = "vault.index"
    package static let entriesName = "entries"
    package static let indexPagesName = "index"

    public let kind = StoreKind.files
    public let directory: URL
    private let lock: FileLock
    /// The files a rotation's last batch replaced, for its next (`SpareFiles`).
    let spares = SpareFiles()

    private var journalURL: URL { directory.appendingPathComponent(FileJournal.fileName) }
    private var entriesURL: URL { directory.appendingPathComponent(Self.entriesName) }
    private var indexPagesURL: URL { directory.appendingPathComponent(Self.indexPagesName) }

    /// Opens the files vault in `directory`, finishing a change that a crash interrupted.
    init(openingAt directory: URL) throws {
        self.directory = directory
        self.lock = FileLock(url: directory.appendingPathComponent(StoreLayout.lockName))
        guard try DurableFile.read(directory.appendingPathComponent(Self.headerName), limit: ReadLimits.header) != nil
        else {
            throw StoreError.noVault(path: directory.path)
        }
        if FileManager.default.fileExists(atPath: journalURL.path) {
            try lock.withLock(exclusive: true) { try recoverLocked() }
        }
    }

    /// Creates a files vault in an existing, empty 0700 `directory` holding `initial`.
    /// The caller holds the vault lock (`StoreLayout.create` does).
    static func create(at directory: URL, initial: StoreChange) throws -> FileStore {
        guard let header = initial.header else {
            throw StoreError.io(path: directory.path, detail: "a new vault needs a header")
        }
        try initial.validate(path: directory.path)
        try DurableFile.makeDirectory(directory.appendingPathComponent(entriesName))
        try DurableFile.makeDirectory(directory.appendingPathComponent(indexPagesName))
        try FileLock(url: directory.appendingPathComponent(StoreLayout.lockName)).createFile()
        try DurableFile.syncDirectory(directory)
        var rest = initial
        rest.header = nil
        try writeLocked(rest, in: directory)
        // The header goes last: until it exists the directory is not a vault, and what an
        // interrupted create leaves behind is recognised as leftovers (see `StoreLayout`).
        try DurableFile.write(header, to: directory.appendingPathComponent(headerName), hidingTimes: true)
        try DurableFile.hideTimes(of: directory.appendingPathComponent(StoreLayout.lockName))
        try hideDirectoryTimes(in: directory)
        return try FileStore(openingAt: directory)
    }

    /// Runs `body` holding the exclusive lock, after finishing any interrupted change, so the
    /// read-modify-write in `body` starts from a settled state.
    public func withWriteLock<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock(exclusive: true) {
            try recoverLocked()
            return try body()
        }
    }

    /// Applies `change` atomically and durably. An id both put and deleted ends up put.
    /// Takes the write lock itself if the caller does not hold it.
    public func apply(_ change: StoreChange) throws {
        try change.validate(path: directory.path)
        try withWriteLock {
            // Blobs are staged in the vault directory itself (see `stage`), so only it can hold
            // a killed writer's leftovers; scanning `entries/` here would make every write cost
            // O(number of entries).
            try DurableFile.removeTempFiles(in: directory)
            try Self.writeLocked(change, in: directory)
        }
    }

    public func withSnapshot<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        // Another process could crash again between our recovery and our next look; a few
        // rounds are plenty, and bounding them turns a journal we cannot settle into an error.
        for _ in 0..<8 {
            // The shared lock keeps writers out, so the files cannot change under `body`.
            let outcome: SnapshotOutcome<T> = try lock.withLock(exclusive: false) {
                if FileManager.default.fileExists(atPath: journalURL.path) { return .needsRecovery }
                return .done(try body(FileReader(directory: directory)))
            }
            switch outcome {
            case .done(let value): return value
            case .needsRecovery: try lock.withLock(exclusive: true) { try recoverLocked() }
            }
        }
        throw StoreError.io(path: journalURL.path, detail: "an interrupted change could not be finished")
    }

    /// Nothing to do: every write replaces an object's file whole, so no old ciphertext
    /// stays behind inside a file that is still in use. (What a rotation's batches keep for
    /// each other under temporary names, `SpareFiles`, its last change has removed.)
    public func compact() throws {}

    public func auditLayout() throws -> [String] {
        // Under the snapshot lock, so a writer's names do not change while they are listed.
        try withSnapshot { _ in try FileStoreAudit.findings(in: directory) }
    }

    public func storeFiles() throws -> [String] {
        let own: Set<String> = [
            Self.headerName, Self.indexName, StoreLayout.lockName, FileJournal.fileName, EntryPack.fileName,
        ]
        var files = try (DurableFile.names(in: directory) ?? []).filter {
            own.contains($0) || $0.hasPrefix(DurableFile.tempPrefix)
        }
        files += try (DurableFile.names(in: entriesURL) ?? []).map { Self.entriesName + "/" + $0 }
        files += try (DurableFile.names(in: indexPagesURL) ?? []).map { Self.indexPagesName + "/" + $0 }
        files += try (DurableFile.names(in: directory.appendingPathComponent(Self.attachmentsName)) ?? []).map {
            Self.attachmentsName + "/" + $0
        }
        return files.sorted()
    }

    /// The entry id a file in `entries/` names, or nil unless the name is a canonical lowercase
    /// UUID; decoded byte by byte, without Foundation's `sscanf` (a rotation names every entry).
    package static func entryID(fromFileName name: String) -> UUID? {
        UUID(hyphenatedHex: name, lowercaseOnly: true)
    }

    /// The file name of an entry: its UUID in lowercase.
    package static func fileName(for id: UUID) -> String {
        id.lowercaseString
    }

    // MARK: - Writing (lock held)

    /// Finishes or discards a journal left by an interrupted writer. Caller holds the write lock.
    private func recoverLocked() throws {
        guard let bytes = try DurableFile.read(journalURL, limit: ReadLimits.journal) else { return }
        // Our journal only ever appears under its name complete (it is renamed into place after
        // an fsync), so one that does not parse was never acted upon: discarding it keeps the
        // old state. One that parses is replayed; replay is idempotent.
        if let journal = FileJournal.decode(bytes) {
            // Its writer removed the copy first, unless it was a diary that knows none.
            try Self.dropPack(in: directory)
            try Self.perform(journal.operations, in: directory)
        }
        try DurableFile.remove(journalURL)
        try DurableFile.syncDirectory(directory)
        try DurableFile.removeTempFiles(in: directory)
        try Self.hideDirectoryTimes(in: directory)
    }

    /// Gives the directories uninformative times (see `HiddenTimes.swift`): each write
    /// renames, creates or removes names in them, which would otherwise date the vault's last
    /// write. Called after the last change to a directory's names. (`index/` may be missing:
    /// someone removed it, and the vault reports its index as damaged until `reindex`.)
    static func hideDirectoryTimes(in directory: URL) throws {
        try DurableFile.hideTimes(of: directory.appendingPathComponent(entriesName))
        let pages = directory.appendingPathComponent(indexPagesName)
        if access(pages.path, F_OK) == 0 { try DurableFile.hideTimes(of: pages) }
        let attachments = directory.appendingPathComponent(attachmentsName)
        if access(attachments.path, F_OK) == 0 { try DurableFile.hideTimes(of: attachments) }
        try DurableFile.hideTimes(of: directory)
    }

    /// Writes `change`: directly when it touches one file (a rename is atomic), through the
    /// journal otherwise. Caller holds the write lock and has recovered any older journal.
    private static func writeLocked(_ change: StoreChange, in directory: URL) throws {
        let operations = operations(for: change)
        if operations.isEmpty { return }
        try clearPack(before: change, in: directory)
        if operations.count == 1 {
            try perform(operations, in: directory)
            try hideDirectoryTimes(in: directory)
            return
        }
        // Stage every new blob, then name the journal: if either fails (a full disk), nothing
        // has moved and no journal exists, so the vault keeps its old state.
        let journal = FileJournal(operations: operations).encoded()
        let journalURL = directory.appendingPathComponent(FileJournal.fileName)
        // Refused before anything is written: a journal over the read limit could never be
        // replayed, so the change would be neither done nor undone after a crash.
        guard journal.count <= ReadLimits.journal else {
            throw StoreError.io(
                path: journalURL.path,
                detail:
                    "this change is \(journal.count) bytes, more than the \(ReadLimits.journal) bytes one change may hold"
            )
        }
        // Not fsynced one by one: until the journal is removed it can write every blob again,
        // so the blobs need only be durable before that, all at once (`syncFiles`).
        let staged = try stage(operations, in: directory, sync: false)
        do {
            try DurableFile.write(journal, to: journalURL)
        } catch {
            for (temp, _) in staged { _ = try? DurableFile.remove(temp) }
            throw error
        }
        // From here on a failure leaves the journal, and the next reader or writer finishes it.
        try commit(staged, operations, in: directory)
        try DurableFile.syncFiles(staged.map(\.1), in: directory)
        try DurableFile.remove(journalURL)
        try DurableFile.syncDirectory(directory)
        try hideDirectoryTimes(in: directory)
    }

    /// The file operations of `change`: header, index, index pages in page order, then entries
    /// in name order. The page numbers must have been checked (`StoreChange.validate`).
    static func operations(for change: StoreChange) -> [FileJournal.Operation] {
        var operations = [FileJournal.Operation]()
        if let header = change.header { operations.append(.put(name: headerName, bytes: header)) }
        if let index = change.index { operations.append(.put(name: indexName, bytes: index)) }
        for (page, bytes) in change.putIndexPages.sorted(by: { $0.key < $1.key }) {
            operations.append(.put(name: indexPageName(page), bytes: bytes))
        }
        for page in change.deleteIndexPages.subtracting(change.putIndexPages.keys).sorted() {
            operations.append(.delete(name: indexPageName(page)))
        }
        let puts = change.putEntries.map { (entriesName + "/" + fileName(for: $0.key), $0.value) }
        for (name, bytes) in puts.sorted(by: { $0.0 < $1.0 }) {
            operations.append(.put(name: name, bytes: bytes))
        }
        let deletes = change.deleteEntries.subtracting(change.putEntries.keys)
        for name in deletes.map({ entriesName + "/" + fileName(for: $0) }).sorted() {
            operations.append(.delete(name: name))
        }
        for name in change.deleteAttachments.map(attachmentName(for:)).sorted() {
            operations.append(.delete(name: name))
        }
        return operations
    }

    /// Carries out `operations` (idempotently) and makes them durable.
    private static func perform(_ operations: [FileJournal.Operation], in directory: URL) throws {
        try commit(try stage(operations, in: directory), operations, in: directory)
    }

    /// Writes each put's blob to a temporary file in the vault directory, fsynced unless
    /// `sync` is false; returns (temporary, target) pairs. On failure no temporary file is left. The rename into
    /// `entries/` stays atomic (one file system), and leftovers are found without listing
    /// every entry.
    private static func stage(_ operations: [FileJournal.Operation], in directory: URL, sync: Bool = true) throws
        -> [(URL, URL)]
    {
        try DurableFile.makeDirectory(directory.appendingPathComponent(entriesName))
        if touchesIndexPages(operations) {
            // Recreated if someone removed it, so that `reindex` can repair the vault.
            try DurableFile.makeDirectory(directory.appendingPathComponent(indexPagesName))
        }
        var staged = [(URL, URL)]()
        do {
            for case .put(let name, let bytes) in operations {
                let target = directory.appendingPathComponent(name)
                // Each entry file's times would date its last edit: hide them (HiddenTimes.swift).
                staged.append((try DurableFile.stage(bytes, in: directory, hidingTimes: true, sync: sync), target))
            }
        } catch {
            for (temp, _) in staged { _ = try? DurableFile.remove(temp) }
            throw error
        }
        return staged
    }

    /// Renames the staged files into place, removes the deleted entries, and syncs both directories.
    private static func commit(
        _ staged: [(URL, URL)], _ operations: [FileJournal.Operation], in directory: URL
    ) throws {
        for (temp, target) in staged { try DurableFile.commit(temp, to: target) }
        for case .delete(let name) in operations {
            try DurableFile.remove(directory.appendingPathComponent(name))
        }
        try DurableFile.syncDirectory(directory.appendingPathComponent(entriesName))
        if touchesIndexPages(operations) {
            try DurableFile.syncDirectory(directory.appendingPathComponent(indexPagesName))
        }
        try syncAttachments(in: directory, if: operations.contains { isAttachmentName($0.name) })
        try DurableFile.syncDirectory(directory)
    }

    /// The path of an index page relative to the vault directory: `index/<2 or 8 hex digits>`.
    package static func indexPageName(_ page: Int) -> String {
        indexPagesName + "/" + IndexPageNumber.fileName(for: page)
    }

    private static func touchesIndexPages(_ operations: [FileJournal.Operation]) -> Bool {
        operations.contains { $0.name.hasPrefix(indexPagesName + "/") }
    }
}

private enum SnapshotOutcome<T> {
    case done(T)
    case needsRecovery
}

/// Reads one consistent state of a files vault; valid only while the snapshot lock is held.
struct FileReader: StoreReader {
    let directory: URL

    private func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    func readHeader() throws -> [UInt8] {
        guard let bytes = try DurableFile.read(url(FileStore.headerName), limit: ReadLimits.header) else {
            throw StoreError.corrupt(path: url(FileStore.headerName).path, detail: "is missing")
        }
        return bytes
    }

    func readIndex() throws -> [UInt8]? {
        try DurableFile.read(url(FileStore.indexName), limit: ReadLimits.index)
    }

    func readEntry(_ id: UUID) throws -> [UInt8]? {
        try DurableFile.read(
            url(FileStore.entriesName).appendingPathComponent(FileStore.fileName(for: id)), limit: ReadLimits.entry)
    }

    /// Ids of the files in `entries/` named as lowercase UUIDs; temporary files and other
    /// names are not entries.
    func entryIDs() throws -> [UUID] {
        try (DurableFile.names(in: url(FileStore.entriesName)) ?? []).compactMap(Self.canonicalEntryID)
    }

    /// In id order (by the id's bytes: the same order as `uuidString`, without formatting two
    /// strings per comparison). Files are opened relative to the open `entries/` directory, so
    /// the path is not resolved again for every entry, and read straight into an array of
    /// their size (`readEntryFile`); the checks are `DurableFile.read`'s.
    func forEachEntry(_ body: (UUID, [UInt8]) throws -> Void) throws {
        try withEntryFiles { entries, files, dirFD in try readEach(files, entries: entries, dirFD: dirFD, body) }
    }

    /// The entry files in id order, with the open `entries/` directory; `body` is not called
    /// when there are none. The listed names are kept for `openat`; parsing them here instead
    /// of through `entryIDs` avoids Foundation's UUID parser and formatter, which cost more per
    /// entry than the read.
    func withEntryFiles(_ body: (URL, [(id: UUID, name: String)], Int32) throws -> Void) throws {
        let entries = url(FileStore.entriesName)
        let files = (try DurableFile.names(in: entries) ?? []).compactMap { name in
            Self.canonicalEntryID(name).map { (id: $0, name: name) }
        }.sorted { $0.id.sortKey < $1.id.sortKey }
        guard !files.isEmpty else { return }
        let dirFD = open(entries.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw StoreError.io(path: entries.path, detail: DurableFile.errnoText()) }
        defer { close(dirFD) }
        try body(entries, files, dirFD)
    }

    private func readEach(
        _ files: [(id: UUID, name: String)], entries: URL, dirFD: Int32, _ body: (UUID, [UInt8]) throws -> Void
    ) throws {
        for (id, name) in files {
            if let bytes = try Self.readEntryFile(name, in: dirFD, path: { entries.appendingPathComponent(name).path })
            {
                try body(id, bytes)
            }
        }
    }

    func readIndexPage(_ page: Int) throws -> [UInt8]? {
        try IndexPageNumber.check(page, path: url(FileStore.indexPagesName).path)
        // A missing `index/` (removed by someone) reads as no page: nil, reported by the vault.
        return try DurableFile.read(url(FileStore.indexPageName(page)), limit: ReadLimits.index)
    }

    /// The files in `index/` named as pages; temporary files and other names are not pages,
    /// as in `entries/`.
    func readIndexPages() throws -> [Int: [UInt8]] {
        let names = try DurableFile.names(in: url(FileStore.indexPagesName)) ?? []
        var pages = [Int: [UInt8]]()
        for page in names.compactMap(IndexPageNumber.page(fromFileName:)) {
            if let bytes = try readIndexPage(page) { pages[page] = bytes }
        }
        return pages
    }

    /// One entry file, opened with `openat`: nil when it is gone, the same refusals as
    /// `DurableFile.read` (a symbolic link, not a regular file, larger than the read limit).
    static func readEntryFile(_ name: String, in dirFD: Int32, path: () -> String) throws -> [UInt8]? {
        guard let fd = try DurableFile.openRegular(path: path(), { flags in openat(dirFD, name, flags) }) else {
            return nil
        }
        defer { close(fd) }
        let size = try DurableFile.regularFileSize(fd, path: path(), limit: ReadLimits.entry)
        // One byte more than the size, so a file that grew is noticed (it cannot under the
        // snapshot lock, but then the general reader decides).
        let capacity = size + 1
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = 0
            while count < capacity {
                let n = Glibc.read(fd, buffer.baseAddress! + count, capacity - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                count += n
            }
        }
        if failure != 0 { throw StoreError.io(path: path(), detail: DurableFile.errnoText(failure)) }
        if bytes.count == capacity {
            return try DurableFile.read(URL(fileURLWithPath: path()), limit: ReadLimits.entry)
        }
        return bytes
    }
}
