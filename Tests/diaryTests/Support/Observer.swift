import Foundation
import XCTest

/// Someone without the passphrase looking at a vault's files with ordinary tools only: a
/// directory listing, `stat`, the bytes, `cp -a`, and Python's `sqlite3` module for the
/// database. Nothing here links DiaryVault or knows a key.
struct Observer {
    /// What `stat` shows of one file or directory.
    struct FileStat {
        var size: Int
        var mode: UInt32
        var mtime: Double
        var ctime: Double
        var isDirectory: Bool
    }

    /// The directory looked at (the live vault or a copy of it).
    let root: URL

    /// Every file and directory below `root`, relative, sorted ("entries", "entries/…", …).
    func listing() throws -> [String] {
        var result: [String] = []
        func walk(_ relative: String) throws {
            let url = relative.isEmpty ? root : root.appendingPathComponent(relative)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                result.append(path)
                if stat(path)?.isDirectory == true { try walk(path) }
            }
        }
        try walk("")
        return result
    }

    /// Regular files only.
    func files() throws -> [String] { try listing().filter { stat($0)?.isDirectory == false } }

    /// `lstat` of `relative` ("" for the root itself), or nil if it is not there.
    func stat(_ relative: String) -> FileStat? {
        let path = relative.isEmpty ? root.path : root.appendingPathComponent(relative).path
        var info = Glibc.stat()
        guard lstat(path, &info) == 0 else { return nil }
        func seconds(_ t: timespec) -> Double { Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }
        return FileStat(
            size: Int(info.st_size), mode: UInt32(info.st_mode & 0o7777), mtime: seconds(info.st_mtim),
            ctime: seconds(info.st_ctim), isDirectory: (info.st_mode & S_IFMT) == S_IFDIR)
    }

    func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
    }

    /// The files (relative paths) whose bytes contain `needle` anywhere.
    func filesContaining(_ needle: [UInt8]) throws -> [String] {
        try files().filter { Observer.contains(try bytes($0), needle) }
    }

    /// A copy of the whole directory with `cp -a` (times and modes kept, as backup tools do).
    func copy(to destination: URL) throws -> Observer {
        try Observer.runTool("/bin/cp", ["-a", root.path, destination.path])
        return Observer(root: destination)
    }

    /// Rows of `sql` run by Python's `sqlite3` on the database at `relative`, without any key.
    /// Blobs come back as lowercase hex, numbers and text as strings.
    func sqlite(_ relative: String, _ sql: String) throws -> [[String]] {
        let script = """
            import sqlite3, sys, json
            db = sqlite3.connect(sys.argv[1])
            rows = [[v.hex() if isinstance(v, bytes) else str(v) for v in row] for row in db.execute(sys.argv[2])]
            print(json.dumps(rows))
            """
        // Query a scratch copy of the database and its log: closing the last connection
        // checkpoints and removes the log, which must not change what later byte scans see.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("observer-sql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let name = (relative as NSString).lastPathComponent
        for suffix in ["", "-wal", "-shm"] where stat(relative + suffix) != nil {
            try Observer.runTool("/bin/cp", [root.appendingPathComponent(relative + suffix).path, scratch.path])
        }
        let out = try Observer.runTool(
            "/usr/bin/python3", ["-c", script, scratch.appendingPathComponent(name).path, sql])
        return try JSONDecoder().decode([[String]].self, from: Data(out.utf8))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first && Array(haystack[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }

    @discardableResult
    static func runTool(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        guard process.terminationStatus == 0 else {
            throw ObserverToolError(tool: tool, stderr: String(decoding: errData, as: UTF8.self))
        }
        return String(decoding: outData, as: UTF8.self)
    }
}

struct ObserverToolError: Error, CustomStringConvertible {
    let tool: String
    let stderr: String
    var description: String { "\(tool) failed: \(stderr)" }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
