import Foundation

/// A private 0700 directory on a memory file system, for the one moment plaintext must be a
/// file (the editor's).
///
/// Why memory only: a file on a disk file system survives `unlink` in free blocks, journals and
/// SSD remapping, where overwriting cannot reach it. tmpfs pages live in RAM (and swap, which
/// the user can encrypt), and vanish at reboot. If no tmpfs is found, `diary` refuses to write
/// the text anywhere.
struct MemoryDirectory {
    let path: String

    /// File system types that keep their pages in memory.
    static let memoryFileSystems: Set<String> = ["tmpfs", "ramfs"]

    /// `$XDG_RUNTIME_DIR` if it is on a memory file system, else `/dev/shm` if it is.
    static func base(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { candidates.append(runtime) }
        candidates.append("/dev/shm")
        return candidates.first(where: isOnMemoryFileSystem)
    }

    /// Looks the path's mount up in `/proc/self/mounts` (the Glibc module does not export
    /// `statfs`): the longest mount point that contains the real path decides.
    static func isOnMemoryFileSystem(_ path: String) -> Bool {
        guard let real = realpath(path, nil) else { return false }
        let resolved = String(cString: real)
        free(real)
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        var best: (point: String, type: String)? = nil
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let contains = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
            if contains && point.count >= (best?.point.count ?? -1) { best = (point, String(fields[2])) }
        }
        return best.map { memoryFileSystems.contains($0.type) } ?? false
    }

    /// Creates a fresh `diary-edit-XXXXXX` directory, mode 0700, under `base()`.
    static func create() throws -> MemoryDirectory {
        guard let base = base() else { throw CLIError.noMemoryFileSystem }
        var template = Array("\(base)/diary-edit-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CLIError.system(what: "cannot create a private directory in \(base)", errno: errno)
        }
        let path = String(cString: made)
        // mkdtemp already uses 0700; chmod again in case of an unusual umask handling.
        chmod(path, 0o700)
        return MemoryDirectory(path: path)
    }

    /// Creates `name` inside, mode 0600, failing if it exists or is a link, and writes `bytes`.
    func createFile(_ name: String, contents bytes: [UInt8]) throws -> String {
        let file = "\(path)/\(name)"
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.system(what: "cannot create \(file)", errno: errno) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CLIError.system(what: "cannot write \(file)", errno: errno) }
            offset += n
        }
        return file
    }

    /// Overwrites every file inside with zeros, unlinks it, and removes the directory.
    ///
    /// Editors leave swap and backup files next to the one they edit (vim's `.entry.txt.swp`),
    /// so everything in the directory is wiped, not only the file `diary` wrote.
    func wipe() {
        if let dir = opendir(path) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names {
                let file = "\(path)/\(name)"
                var st = stat()
                if lstat(file, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                    MemoryDirectory(path: file).wipe()
                } else {
                    file.withCString { wipeFileSignalSafe($0) }
                }
            }
        }
        rmdir(path)
    }
}
