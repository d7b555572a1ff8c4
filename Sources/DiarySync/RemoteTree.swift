import DiaryStore
import Foundation

/// The remote as files: a git clone in this machine's sync state, or the synced folder itself
/// (the layout is `RemoteLayout`'s). Every read, write and listing of the remote goes through
/// here, by paths relative to the tree's top.
///
/// Whoever controls the remote controls what is in the tree: no symbolic link below the top
/// is ever followed (`RemoteFolder` walks every path one name at a time), listings leave out
/// links and special files, and only regular files are read.
struct RemoteTree {
    let root: URL

    /// What the marker file says (docs/FORMAT.md §12.1).
    enum Marker: Equatable {
        case absent
        /// There, but not the marker's two lines (name and version, vault id).
        case unreadable
        case vault(UUID)
        /// A remote of sync format 1 (`diary-sync 1`), of the vault named.
        case format1(UUID)
    }

    /// What a folder of the tree holds, by kind, each list sorted.
    struct Listing: Equatable {
        var folders: [String] = []
        var files: [String] = []
        /// Names never followed or opened: symbolic links and special files, with what they are.
        var unfollowed: [String: RemoteEntryKind] = [:]

        /// The folders and the files, sorted.
        var names: [String] { (folders + files).sorted() }
    }

    /// The largest marker and published header read.
    static let markerLimit = 4096
    static let headerLimit = 64 << 10

    func url(_ path: String) -> URL { path.isEmpty ? root : root.appendingPathComponent(path) }

    /// What a folder of the tree ("" for the top) holds; empty when it is missing. Throws
    /// `remoteUnusable(.wrongEntryKind)` when the folder, or a folder on the way, is a link or
    /// not a folder.
    func listing(_ folder: String = "") throws -> Listing {
        try within(folder) { opened in
            var listing = Listing()
            for entry in try opened.entries() {
                switch entry.kind {
                case .folder: listing.folders.append(entry.name)
                case .file: listing.files.append(entry.name)
                case .symbolicLink, .special: listing.unfollowed[entry.name] = entry.kind
                }
            }
            listing.folders.sort()
            listing.files.sort()
            return listing
        } ?? Listing()
    }

    /// The folders and regular files in a folder of the tree ("" for the top), sorted; none
    /// when it is missing, cannot be read or is reached through a link. Links and special
    /// files are left out (`listing` names them). The one way the remote is listed.
    func list(_ folder: String = "") -> [String] { ((try? listing(folder)) ?? Listing()).names }

    /// The names in `folder`, sorted; none when it is missing or cannot be read. For this
    /// machine's own folders (the clone's `.git`), not the remote tree.
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The bytes of a regular file, nil when it is missing; throws when it is a link or not a
    /// regular file (`remoteUnusable(.wrongEntryKind)`), is reached through a link, or is larger
    /// than `limit`.
    func read(_ path: String, limit: Int) throws -> [UInt8]? {
        let (folder, name) = Self.split(path)
        return try within(folder) { opened in
            guard let (file, info) = try opened.openFile(name, shown: path) else { return nil }
            defer { close(file) }
            let bytes = info.st_size > limit ? [] : try readUpTo(limit + 1, from: file, shown: url(path).path)
            guard info.st_size <= limit, bytes.count <= limit else {
                throw StoreError.corrupt(path: url(path).path, detail: "is larger than \(limit) bytes")
            }
            return bytes
        }
    }

    /// The bytes of a file, nil when it is missing or cannot be read for any reason.
    func readIfPossible(_ path: String, limit: Int) -> [UInt8]? { (try? read(path, limit: limit)) ?? nil }

    /// The first `count` bytes of the regular file at `path` (all of it when shorter), or nil
    /// when it is missing or cannot be read: a record's clear prefix without the rest.
    func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        let (folder, name) = Self.split(path)
        return try? within(folder) { opened in
            guard let (file, _) = try opened.openFile(name, shown: path) else { return nil }
            defer { close(file) }
            return try readUpTo(count, from: file, shown: path)
        }
    }

    /// Atomically and durably writes a file into a folder that exists (`makeFolder`); throws
    /// `remoteUnusable(.wrongEntryKind)`, writing nothing, when a folder on the way is a link.
    func write(_ bytes: [UInt8], to path: String) throws {
        let (folder, name) = Self.split(path)
        let written: Void? = try within(folder) { try $0.write(bytes, to: name, shown: path) }
        if written == nil { throw StoreError.io(path: url(folder).path, detail: DurableFile.errnoText(ENOENT)) }
    }

    /// Atomically and durably writes a file whose bytes `produce` hands over piece by piece
    /// (`RemoteFolder.writeStreaming`) into a folder that exists; the file must not exist.
    func write(
        to path: String, streaming produce: (_ put: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let (folder, name) = Self.split(path)
        let written: Void? = try within(folder) { try $0.writeStreaming(to: name, shown: path, produce) }
        if written == nil { throw StoreError.io(path: url(folder).path, detail: DurableFile.errnoText(ENOENT)) }
    }

    /// What `stream` found at a path.
    enum Streamed: Equatable {
        case missing
        /// A regular file of another size than asked for: nothing was read.
        case otherSize(UInt64)
        case read
    }

    /// Streams the regular file at `path` to `body`, in pieces of at most 1 MiB, when it is
    /// exactly `size` bytes (known from its stat data before a byte is read). A link or
    /// anything but a regular file is refused as `read` refuses it; a file that ends early or
    /// grows while read throws.
    func stream(_ path: String, size: UInt64, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Streamed {
        let (folder, name) = Self.split(path)
        return try within(folder) { opened -> Streamed? in
            guard let (file, info) = try opened.openFile(name, shown: path) else { return .missing }
            defer { close(file) }
            guard UInt64(info.st_size) == size else { return .otherSize(UInt64(info.st_size)) }
            try readExactly(size, from: file, shown: url(path).path, body)
            return .read
        } ?? .missing
    }

    /// Makes a folder and the folders above it; throws `remoteUnusable(.wrongEntryKind)` when
    /// one of them is a link or a file.
    func makeFolder(_ path: String) throws { _ = try within(path, create: true) { _ in () } }

    /// Removes a file (a link itself, never what it points to); false when it could not be.
    @discardableResult
    func remove(_ path: String) -> Bool {
        let (folder, name) = Self.split(path)
        return (try? within(folder) { unlinkat($0.fd, name, 0) == 0 }) ?? false
    }

    /// Renames the regular file `path` to `destination`, which must not exist.
    func move(_ path: String, to destination: String) throws {
        let (fromFolder, fromName) = Self.split(path)
        let (toFolder, toName) = Self.split(destination)
        let moved: Void? = try within(fromFolder) { from in
            guard let kind = from.kind(of: fromName) else { return nil }
            guard kind == .file else { throw RemoteFolder.Failure.wrongKind(path: path, found: kind) }
            return try within(toFolder) { to in
                guard to.kind(of: toName) == nil else {
                    throw RemoteFolder.Failure.io(path: destination, errno: EEXIST)
                }
                guard renameat(from.fd, fromName, to.fd, toName) == 0 else {
                    throw RemoteFolder.Failure.io(path: destination, errno: errno)
                }
                _ = fsync(to.fd)
                _ = fsync(from.fd)
            }
        }
        if moved == nil { throw StoreError.io(path: url(path).path, detail: DurableFile.errnoText(ENOENT)) }
    }

    /// The stat data of a regular file (not a link), or nil.
    func stamp(_ path: String) -> FileStamp? {
        let (folder, name) = Self.split(path)
        guard let info = try? within(folder, { $0.status(of: name) }), (info.st_mode & S_IFMT) == S_IFREG
        else { return nil }
        return FileStamp(
            size: UInt64(info.st_size), inode: UInt64(info.st_ino),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// The folder part and the last name of a path.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// Runs `body` in the folder `path` names, reached from the top without following a link;
    /// nil when the folder is missing (and not created).
    private func within<T>(_ folder: String, create: Bool = false, _ body: (RemoteFolder) throws -> T?) throws -> T? {
        do {
            guard let opened = try RemoteFolder.open(root: root, folder, create: create) else { return nil }
            return try body(opened)
        } catch let failure as RemoteFolder.Failure {
            switch failure {
            case .wrongKind(let path, let found):
                throw SyncError.remoteUnusable(.wrongEntryKind(path: url(path).path, found: found))
            case .io(let path, let code):
                throw StoreError.io(path: url(path).path, detail: DurableFile.errnoText(code))
            }
        }
    }

    // MARK: The marker

    /// Reads the marker strictly: exactly its two lines, the id in the lower case it is written
    /// in (as the independent reader, Scripts/decrypt-vault.py, requires).
    func marker() throws -> Marker {
        guard let bytes = try read(RemoteLayout.marker, limit: Self.markerLimit) else { return .absent }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard lines.count == 2, let id = UUID(uuidString: String(lines[1])), id.uuidString.lowercased() == lines[1]
        else { return .unreadable }
        switch lines[0] {
        case "\(RemoteLayout.marker) \(RemoteLayout.markerVersion)": return .vault(id)
        case "\(RemoteLayout.marker) 1": return .format1(id)
        default: return .unreadable
        }
    }

    func writeMarker(vaultID: UUID) throws {
        try write(Array(RemoteLayout.markerText(vaultID: vaultID).utf8), to: RemoteLayout.marker)
    }

    // MARK: What the layout names

    /// The machine folders under `log/`, by name (not checked to be machine ids). A link or a
    /// file there is not a log.
    func logFolders() -> [String] { ((try? listing(RemoteLayout.logDirectory)) ?? Listing()).folders }

    /// The record files of the machine folder `folder` (regular files named by twelve digits),
    /// with their paths.
    func recordFiles(inLog folder: String) -> [(seq: UInt64, path: String)] {
        let dir = "\(RemoteLayout.logDirectory)/\(folder)"
        return ((try? listing(dir)) ?? Listing()).files.compactMap { name in
            RemoteLayout.seq(fromName: name).map { ($0, "\(dir)/\(name)") }
        }
    }

    /// Every record file of every machine, by path (names only: nothing is read).
    func allRecordFiles() -> [String] { logFolders().flatMap { recordFiles(inLog: $0).map(\.path) } }

    /// Reads the record files of every log one at a time (logs by name, records by number) and
    /// hands each to `body` with its path; one that cannot be read, or is larger than `limit`,
    /// is passed over. `body` returns false to stop. Only the record at hand is in memory.
    func forEachRecordFile(limit: Int, _ body: (_ path: String, _ bytes: [UInt8]) throws -> Bool) rethrows {
        for folder in logFolders() {
            for record in recordFiles(inLog: folder) {
                guard let bytes = readIfPossible(record.path, limit: limit) else { continue }
                if try !body(record.path, bytes) { return }
            }
        }
    }

    /// The published headers (`keys/<machine>-<seq>.<store>`, regular files) with their paths,
    /// newest first by sequence number.
    func publishedHeaders() -> [(machine: UUID, seq: UInt64, store: StoreKind, path: String)] {
        ((try? listing(RemoteLayout.keysDirectory)) ?? Listing()).files.compactMap { name in
            RemoteLayout.header(fromName: name).map {
                ($0.machine, $0.seq, $0.store, "\(RemoteLayout.keysDirectory)/\(name)")
            }
        }.sorted { $0.seq > $1.seq }
    }
}

extension RemoteTree {
    /// Removes a file or a whole folder of the tree (an upgrade clearing format 1's files).
    /// A link is removed as a link: what it points to is never touched.
    func removeAll(_ path: String) throws {
        let target = url(path)
        var info = stat()
        guard lstat(target.path, &info) == 0 else { return }
        try FileManager.default.removeItem(at: target)
    }
}
