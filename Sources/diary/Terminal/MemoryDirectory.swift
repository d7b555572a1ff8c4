import DiaryApp
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
    /// The directory itself, open from creation until `wipe`.
    let fd: Int32

    /// File system types that keep their pages in memory.
    static let memoryFileSystems: Set<String> = ["tmpfs", "ramfs"]

    /// `$XDG_RUNTIME_DIR` if it is on a memory file system, else `/dev/shm` if it is.
    static func base(environment: DiaryEnvironment = DiaryEnvironment()) -> String? {
        candidates(environment: environment).first(where: isOnMemoryFileSystem)
    }

    /// The places `base` chooses from, in its order, each once.
    static func candidates(environment: DiaryEnvironment = DiaryEnvironment()) -> [String] {
        let runtime = environment.runtimeDirectory
        return runtime == nil || runtime == "/dev/shm" ? ["/dev/shm"] : [runtime!, "/dev/shm"]
    }

    /// The names in `directory` that start with `prefix` (none when it cannot be listed): one
    /// `readdir` pass, for the checks every command makes before anything is found.
    static func names(in directory: String, prefixed prefix: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(prefix) { names.append(name) }
        }
        return names
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

    /// Creates a fresh `PREFIXXXXXXX` directory, mode 0700, under `base()`.
    static func create(prefix: String) throws -> MemoryDirectory {
        guard let base = base() else { throw CLIError.noMemoryFileSystem }
        var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CLIError.system(what: "cannot create a private directory in \(base)", errno: errno)
        }
        let path = String(cString: made)
        // mkdtemp already uses 0700; chmod again in case of an unusual umask handling.
        chmod(path, 0o700)
        return try open(path)
    }

    /// Opens an existing private directory. Every later file operation is relative to this
    /// descriptor, so a directory renamed or replaced by a link meanwhile cannot redirect them.
    static func open(_ path: String) throws -> MemoryDirectory {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.system(what: "cannot open \(path)", errno: errno) }
        return MemoryDirectory(path: path, fd: fd)
    }

    /// Creates `name` inside, mode 0600, failing if it exists or is a link, and writes `bytes`.
    func createFile(_ name: String, contents bytes: [UInt8]) throws -> String {
        let file = "\(path)/\(name)"
        let fd = openat(self.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.system(what: "cannot create \(file)", errno: errno) }
        defer { close(fd) }
        if let code = bytes.withUnsafeBytes({ DescriptorWrite.all($0, to: fd) }) {
            throw CLIError.system(what: "cannot write \(file)", errno: code)
        }
        return file
    }

    /// Reads `name` back, refusing anything but a regular file in this directory.
    ///
    /// Whoever runs as the user (the editor, a script) can replace the file by a link to a file
    /// elsewhere, or by a FIFO; `O_NOFOLLOW` refuses the link, `O_NONBLOCK` keeps a FIFO from
    /// hanging the open, and `fstat` refuses whatever is not a regular file.
    func readFile(_ name: String, limit: Int) throws -> [UInt8] {
        let file = "\(path)/\(name)"
        let fd = openat(self.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP { throw CLIError.notRegularFile(path: file) }
            throw CLIError.system(what: "cannot read back \(file)", errno: errno)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw CLIError.notRegularFile(path: file) }
        guard Int(st.st_size) <= limit else { throw CLIError.tooLarge(bytes: Int(st.st_size), limit: limit) }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        // Shrink in place (a file cut short while reading): a copy would leave the text behind.
        bytes.removeSubrange(offset...)
        return bytes
    }

    /// Overwrites every regular file inside with zeros, unlinks everything, removes the
    /// directory and closes it.
    ///
    /// Editors leave swap and backup files next to the one they edit (vim's `.entry.txt.swp`),
    /// so everything in the directory is wiped, not only the file `diary` wrote. Links are
    /// unlinked, never followed (see `wipeFileSignalSafe`).
    func wipe() {
        MemoryDirectory.wipeContents(of: fd)
        close(fd)
        rmdir(path)
    }

    /// Wipes what the directory open as `dirfd` holds, subdirectories included.
    static func wipeContents(of dirfd: Int32) {
        let listing = dup(dirfd)
        guard listing >= 0, let dir = fdopendir(listing) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        for name in names {
            var st = stat()
            if fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                let child = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if child >= 0 {
                    wipeContents(of: child)
                    close(child)
                }
                unlinkat(dirfd, name, AT_REMOVEDIR)
            } else {
                name.withCString { wipeFileSignalSafe(directory: dirfd, name: $0) }
            }
        }
    }
}
