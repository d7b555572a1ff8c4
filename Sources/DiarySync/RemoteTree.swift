import DiaryStore
import Foundation

/// The remote as files: a git clone in this machine's sync state, or the synced folder itself
/// (the layout is `RemoteLayout`'s). Every read, write and listing of the remote goes through
/// here, by paths relative to the tree's top.
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

    /// The largest marker and published header read.
    static let markerLimit = 4096
    static let headerLimit = 64 << 10

    func url(_ path: String) -> URL { path.isEmpty ? root : root.appendingPathComponent(path) }

    /// The names in a folder of the tree ("" for the top), sorted; none when the folder is
    /// missing or cannot be read. The one way the remote is listed.
    func list(_ folder: String = "") -> [String] { Self.names(in: url(folder)) }

    /// The names in `folder`, sorted; none when it is missing or cannot be read.
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The bytes of a file, nil when it is missing; throws when it is not a regular file or is
    /// larger than `limit`.
    func read(_ path: String, limit: Int) throws -> [UInt8]? { try DurableFile.read(url(path), limit: limit) }

    /// The bytes of a file, nil when it is missing or cannot be read for any reason.
    func readIfPossible(_ path: String, limit: Int) -> [UInt8]? { (try? read(path, limit: limit)) ?? nil }

    func write(_ bytes: [UInt8], to path: String) throws { try DurableFile.write(bytes, to: url(path)) }

    func makeFolder(_ path: String) throws {
        try FileManager.default.createDirectory(at: url(path), withIntermediateDirectories: true)
    }

    /// Removes a file; false when it could not be.
    @discardableResult
    func remove(_ path: String) -> Bool { (try? FileManager.default.removeItem(at: url(path))) != nil }

    func move(_ path: String, to destination: String) throws {
        try FileManager.default.moveItem(at: url(path), to: url(destination))
    }

    /// The stat data of a regular file (not a link), or nil.
    func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard lstat(url(path).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(
            size: UInt64(info.st_size), inode: UInt64(info.st_ino),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    // MARK: The marker

    /// Reads the marker strictly: exactly its two lines.
    func marker() throws -> Marker {
        guard let bytes = try read(RemoteLayout.marker, limit: Self.markerLimit) else { return .absent }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard lines.count == 2, let id = UUID(uuidString: String(lines[1])) else { return .unreadable }
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

    /// The machine folders under `log/`, by name (not checked to be machine ids).
    func logFolders() -> [String] { list(RemoteLayout.logDirectory) }

    /// The record files of the machine folder `folder` (names of twelve digits), with their
    /// paths.
    func recordFiles(inLog folder: String) -> [(seq: UInt64, path: String)] {
        let dir = "\(RemoteLayout.logDirectory)/\(folder)"
        return list(dir).compactMap { name in RemoteLayout.seq(fromName: name).map { ($0, "\(dir)/\(name)") } }
    }

    /// Every record file of every machine.
    func allRecordFiles() -> [String] { logFolders().flatMap { recordFiles(inLog: $0).map(\.path) } }

    /// The published headers (`keys/<machine>-<seq>.<store>`) with their paths, newest first by
    /// sequence number.
    func publishedHeaders() -> [(machine: UUID, seq: UInt64, store: StoreKind, path: String)] {
        list(RemoteLayout.keysDirectory).compactMap { name in
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
