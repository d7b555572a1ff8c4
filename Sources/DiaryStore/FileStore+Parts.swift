import DiaryCrypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension FileStore {
    /// `apply`, with the parts written to disk as they come: each blob is staged in a
    /// temporary file and appended to the journal, which is itself a temporary file until the
    /// change is complete. Then, as `apply` does, the journal is made durable under its name,
    /// the staged files are renamed into place, and the journal is removed: a crash at any
    /// instant leaves the old state (no journal yet) or the new one (journal replayed). Memory
    /// holds one part and the list of names, not the change.
    public func apply(inParts produce: (_ put: ([UUID: [UInt8]]) throws -> Void) throws -> StoreChange) throws {
        try withWriteLock {
            try DurableFile.removeTempFiles(in: directory, keeping: spares.kept)
            let writer = try PartsJournal(directory: directory)
            var reusing: SpareFiles?
            do {
                // Nothing is renamed before `commit`, so the copy still goes before any entry
                // file is replaced or removed. A part that replaces one removes it whole (a
                // rekey's first): parts that each emptied their own segments would zero all of
                // it, a batch at a time. The rest of the change (an edit's whole) may empty.
                let change = try produce { part in
                    let puts = StoreChange(putEntries: part)
                    try FileStore.clearPack(before: puts, in: directory, emptying: false)
                    try writer.add(FileStore.operations(for: puts))
                }
                try change.validate(path: directory.path)
                try FileStore.clearPack(before: change, in: directory)
                // A rotation's batch writes into the files the batch before it replaced, and
                // keeps the ones it replaces for the next (`SpareFiles`).
                reusing = change.rotationBatch ? spares : nil
                try writer.add(FileStore.operations(for: change), spares: reusing)
                guard writer.count > 0 else {
                    writer.discard()
                    if reusing == nil, spares.removeAll(in: directory) {
                        try FileStore.hideDirectoryTimes(in: directory)
                    }
                    return
                }
                try writer.seal()
            } catch {
                writer.discard()
                throw error
            }
            // From here on a failure leaves the journal, and the next reader or writer finishes it.
            try writer.commit(spares: reusing)
            // Any other change ends the run of batches (the rotation's last commit, or whatever
            // follows one that failed): nothing of the files they replaced stays.
            if reusing == nil { spares.removeAll(in: directory) }
            try FileStore.hideDirectoryTimes(in: directory)
        }
    }
}

/// One change of the files store written a part at a time: see `FileStore.apply(inParts:)`.
/// The journal is `FileJournal`'s format, byte for byte.
final class PartsJournal {
    private enum Target {
        case entry(UUID)
        case put(String)
        case delete(String)
    }

    let directory: URL
    /// `directory`'s path with a trailing slash.
    private let directoryPath: String
    private let token = SecureRandomName.make()
    private var targets: [Target] = []
    private var entries = Set<UUID>()
    private var size = 0
    /// The operations staged in a spare (`SpareFiles`), by number, with its name.
    private var reused: [Int: String] = [:]
    private let fd: Int32
    // Named with `isDirectory: false`: without it Foundation stats each path to ask whether
    // it is a directory, several times per entry of a large change.
    private let journalTemp: URL
    private let journalURL: URL

    var count: Int { targets.count }

    init(directory: URL) throws {
        self.directory = directory
        directoryPath = directory.path + "/"
        journalTemp = directory.appendingPathComponent(DurableFile.tempPrefix + token + "-journal", isDirectory: false)
        journalURL = directory.appendingPathComponent(FileJournal.fileName, isDirectory: false)
        try DurableFile.makeDirectory(directory.appendingPathComponent(FileStore.entriesName))
        let path = journalTemp.path
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, DurableFile.fileMode)
        guard fd >= 0 else { throw StoreError.io(path: path, detail: DurableFile.errnoText()) }
        guard fchmod(fd, DurableFile.fileMode) == 0 else {
            close(fd)
            unlink(path)
            throw StoreError.io(path: path, detail: DurableFile.errnoText())
        }
        try write(FileJournal.head(count: 0))
    }

    deinit { close(fd) }

    /// The path of the temporary file staging the blob of the `n`th operation: a spare's name
    /// when one was written (`reused`), else one of this journal's own. Paths, not URLs: each
    /// URL is parsed, which for a rotation's batch of thousands of files showed.
    private func staged(_ n: Int) -> String {
        directoryPath + (reused[n] ?? DurableFile.tempPrefix + token + "-\(n)")
    }

    /// The path of the file named `name` (relative to the vault directory).
    private func path(_ name: String) -> String { directoryPath + name }

    /// Stages each put's blob (not fsynced: the journal can write it again) and journals it;
    /// into the files in `spares` while there are any.
    func add(_ operations: [FileJournal.Operation], spares: SpareFiles? = nil) throws {
        for operation in operations {
            var encoded: [UInt8] = []
            FileJournal.encode(operation, into: &encoded)
            switch operation {
            case .put(let name, let bytes):
                if name.hasPrefix(FileStore.indexPagesName + "/") {
                    try DurableFile.makeDirectory(directory.appendingPathComponent(FileStore.indexPagesName))
                }
                try stage(bytes, spares: spares)
                targets.append(try target(name))
            case .delete(let name):
                targets.append(.delete(name))
            }
            try write(encoded)
        }
    }

    /// Stages the next blob: into a spare (`SpareFiles`) while one takes it, else a new file.
    private func stage(_ bytes: [UInt8], spares: SpareFiles?) throws {
        let n = targets.count
        while let spare = spares?.take() {
            let path = directoryPath + spare
            let written: Bool
            do {
                written = try DurableFile.overwrite(bytes, atPath: path, hidingTimes: true)
            } catch {
                _ = try? DurableFile.remove(path: path)
                throw error
            }
            if written {
                reused[n] = spare
                return
            }
            // Gone, held by another name too (a hard-linked snapshot) or not this user's: not
            // written into, and only this name of it removed (a directory is left, as
            // `removeTempFiles` leaves one).
            _ = try DurableFile.removeUnlessDirectory(URL(fileURLWithPath: path, isDirectory: false))
        }
        try DurableFile.stage(bytes, atPath: staged(n), hidingTimes: true, sync: false)
    }

    /// An entry's name is kept as its id; a journal must name each file once.
    private func target(_ name: String) throws -> Target {
        let prefix = FileStore.entriesName + "/"
        guard name.hasPrefix(prefix), let id = FileStore.entryID(fromFileName: String(name.dropFirst(prefix.count)))
        else { return .put(name) }
        guard entries.insert(id).inserted else {
            throw StoreError.io(path: directory.path, detail: "one change names \(name) twice")
        }
        return .entry(id)
    }

    private func write(_ bytes: [UInt8]) throws {
        size += bytes.count
        // Refused before it is named: a journal over the read limit could never be replayed.
        guard size + FileJournal.checksumCount <= ReadLimits.journal else {
            throw StoreError.io(
                path: journalURL.path,
                detail: "this change is more than the \(ReadLimits.journal) bytes one change may hold")
        }
        try DurableFile.writeAll(fd, bytes, path: journalTemp.path)
    }

    /// Writes the count and the checksum (read back from the file, not held), fsyncs the
    /// journal and gives it its name.
    func seal() throws {
        let head = FileJournal.head(count: UInt32(targets.count))
        let written = head.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == head.count else {
            throw StoreError.io(path: journalTemp.path, detail: DurableFile.errnoText())
        }
        let hasher = BLAKE2b.Hasher(outputCount: FileJournal.checksumCount)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < size {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw StoreError.io(path: journalTemp.path, detail: DurableFile.errnoText()) }
            hasher.update(Array(chunk[0..<n]))
            offset += n
        }
        try DurableFile.writeAll(fd, hasher.finish(), path: journalTemp.path)
        guard fsync(fd) == 0 else { throw StoreError.io(path: journalTemp.path, detail: DurableFile.errnoText()) }
        try DurableFile.commit(journalTemp, to: journalURL)
        try DurableFile.syncDirectory(directory)
    }

    /// Makes the staged blobs durable, renames each into place and removes the deleted files,
    /// makes the names durable, then removes the journal.
    ///
    /// The blobs are written back before any rename, all at once: ext4 writes a delayed-
    /// allocation file's data at once when it is renamed over another file (`auto_da_alloc`),
    /// which for a rekey of 100,000 entries was 100,000 writes issued one at a time. The
    /// replaced files are freed on another thread (`ReplacedFiles`), or, with `spares`, each
    /// is exchanged with its staged file and kept there for the next batch (`SpareFiles`).
    func commit(spares: SpareFiles? = nil) throws {
        try syncStaged()
        var pages = false
        var attachments = false
        for (n, target) in targets.enumerated() {
            switch target {
            case .entry(let id):
                try replace(with: staged(n), path(FileStore.entriesName + "/" + FileStore.fileName(for: id)), spares)
            case .put(let name):
                pages = pages || name.hasPrefix(FileStore.indexPagesName + "/")
                try replace(with: staged(n), path(name), spares)
            case .delete(let name):
                pages = pages || name.hasPrefix(FileStore.indexPagesName + "/")
                attachments = attachments || FileStore.isAttachmentName(name)
                try DurableFile.remove(path: path(name))
            }
        }
        try FileStore.syncAttachments(in: directory, if: attachments)
        try DurableFile.syncDirectory(directory.appendingPathComponent(FileStore.entriesName))
        if pages { try DurableFile.syncDirectory(directory.appendingPathComponent(FileStore.indexPagesName)) }
        try DurableFile.syncDirectory(directory)
        try DurableFile.remove(journalURL)
        try DurableFile.syncDirectory(directory)
    }

    /// Renames `staged` over `target`, leaving the old file, if any, to be freed off this
    /// thread (`ReplacedFiles`); with `spares`, exchanges the two names where it can and keeps
    /// the old file in `spares`.
    private func replace(with staged: String, _ target: String, _ spares: SpareFiles?) throws {
        if let spares, try DurableFile.exchange(path: staged, with: target) == .exchanged {
            return spares.keep(String(staged.dropFirst(directoryPath.count)))
        }
        let old = ReplacedFiles.shared.hold(target)
        do {
            try DurableFile.commit(path: staged, to: target)
        } catch {
            if let old { close(old) }
            throw error
        }
        if let old { ReplacedFiles.shared.release(old) }
    }

    /// Makes every staged blob durable under its temporary name, as `syncFiles` does, without
    /// a list of every file of a large change. (A rename does not change what a file holds.)
    private func syncStaged() throws {
        #if os(Linux)
        if targets.count >= DurableFile.syncFSThreshold { return try DurableFile.syncFileSystem(of: directory) }
        #endif
        let staged = targets.indices.compactMap { n -> URL? in
            if case .delete = targets[n] { return nil }
            return URL(fileURLWithPath: self.staged(n), isDirectory: false)
        }
        try DurableFile.syncFiles(staged, in: directory)
    }

    /// Removes the staged blobs and the unnamed journal (before `seal` named it).
    func discard() {
        for n in 0..<targets.count { _ = try? DurableFile.remove(path: staged(n)) }
        _ = try? DurableFile.remove(journalTemp)
    }
}
