import DiaryStore
import Foundation

/// The config file on disk: `$XDG_CONFIG_HOME/diary/config.toml`, else
/// `~/.config/diary/config.toml` (`DiaryEnvironment.configFile`).
///
/// Read whole (it is small, and capped before it is read), parsed strictly, and written
/// atomically: a temporary file beside it, mode 0600, synced, then renamed over it. A config
/// file that is a symbolic link (into a dotfiles repository) stays one: the file the links end
/// at is the one replaced, as git's lockfile does.
public struct ConfigFile: Sendable {
    /// Larger than any real config; keeps a hostile file from being read into memory whole.
    public static let maximumSize = 64 * 1024

    public let url: URL

    public init(url: URL) { self.url = url }

    public init(environment: DiaryEnvironment) { url = environment.configFile }

    /// The settings in the file; none when there is no file.
    public func load() throws(ConfigError) -> DiaryConfig {
        guard let data = try read() else { return DiaryConfig() }
        guard let text = String(data: data, encoding: .utf8) else { throw .notText(path: url.path) }
        return try ConfigParser.parse(text, path: url.path)
    }

    /// Loads the file, applies `change` and writes the result (nothing is written when
    /// `change` throws); returns what was written.
    @discardableResult
    public func update(_ change: (inout DiaryConfig) throws(ConfigError) -> Void) throws(ConfigError) -> DiaryConfig {
        var config = try load()
        try change(&config)
        try save(config)
        return config
    }

    /// Writes `config` in place of the file, atomically; makes the directory (0700) if missing.
    public func save(_ config: DiaryConfig) throws(ConfigError) {
        let (file, mode) = try target()
        let directory = file.deletingLastPathComponent()
        if mode == nil { try Self.makeDirectories(directory) }
        let bytes = Array(ConfigWriter.render(config).utf8)
        let temporary = directory.appendingPathComponent(".config.toml.\(getpid()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .io(path: temporary.path, errno: errno) }
        // A file replaced keeps its mode (a user who made it 0644 meant it); a new one is 0600.
        if let mode, fchmod(fd, mode) != 0 { return try abandon(fd, temporary, errno) }
        if let code = bytes.withUnsafeBytes({ DurableFile.writeFully(fd, $0) }) {
            return try abandon(fd, temporary, code)
        }
        guard fsync(fd) == 0 else { return try abandon(fd, temporary, errno) }
        close(fd)
        guard rename(temporary.path, file.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw .io(path: url.path, errno: code)
        }
        // The rename is durable only once the directory is synced.
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// The file `save` replaces and its mode: `url`, or the file its chain of symbolic links
    /// ends at; no mode when `url` does not exist. A link to nothing is refused: writing a
    /// new file in its place would cut the link, and making its target is not diary's to do.
    private func target() throws(ConfigError) -> (file: URL, mode: mode_t?) {
        var path = url.path
        // Linux's own limit on links followed (MAXSYMLINKS), past which a chain is a loop.
        for _ in 0..<40 {
            var info = stat()
            guard lstat(path, &info) == 0 else {
                guard errno == ENOENT else { throw .io(path: path, errno: errno) }
                guard path == url.path else { throw .danglingLink(path: url.path, target: path) }
                return (url, nil)
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return (URL(fileURLWithPath: path), info.st_mode & 0o7777)
            case S_IFLNK: path = try Self.linkTarget(path)
            default: throw .notRegularFile(path: path)
            }
        }
        throw .io(path: url.path, errno: ELOOP)
    }

    /// Where the link at `path` points, made absolute from the link's own directory.
    private static func linkTarget(_ path: String) throws(ConfigError) -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { readlink(path, $0.baseAddress!, $0.count) }
        }
        guard count >= 0 else { throw .io(path: path, errno: errno) }
        let target = String(decoding: buffer[..<count], as: UTF8.self)
        if target.hasPrefix("/") { return target }
        return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(target).path
    }

    /// `directory` and its missing parents, each 0700 (what exists is left as it is).
    private static func makeDirectories(_ directory: URL) throws(ConfigError) {
        var path = ""
        for component in directory.standardizedFileURL.pathComponents.dropFirst() {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .io(path: path, errno: errno) }
        }
    }

    private func abandon(_ fd: Int32, _ temporary: URL, _ code: Int32) throws(ConfigError) {
        close(fd)
        unlink(temporary.path)
        throw .io(path: url.path, errno: code)
    }

    /// The file's bytes, nil when it does not exist; refused past `maximumSize`, and refused
    /// when it is not a regular file.
    private func read() throws(ConfigError) -> Data? {
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, and every
        // command would hang on it before saying anything.
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io(path: url.path, errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: url.path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: url.path) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .io(path: url.path, errno: errno) }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > Self.maximumSize { throw .tooLarge(path: url.path, limit: Self.maximumSize) }
        }
        return Data(bytes)
    }
}
