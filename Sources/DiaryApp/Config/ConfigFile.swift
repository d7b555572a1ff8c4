import Foundation

/// The config file on disk: `$XDG_CONFIG_HOME/diary/config.toml`, else
/// `~/.config/diary/config.toml` (`DiaryEnvironment.configFile`).
///
/// Read whole (it is small, and capped before it is read), parsed strictly, and written
/// atomically: a temporary file beside it, mode 0600, synced, then renamed over it.
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
        let directory = url.deletingLastPathComponent()
        try Self.makeDirectories(directory)
        let bytes = Array(ConfigWriter.render(config).utf8)
        let temporary = directory.appendingPathComponent(".config.toml.\(getpid()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .io(path: temporary.path, errno: errno) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return try abandon(fd, temporary, errno) }
            written += n
        }
        guard fsync(fd) == 0 else { return try abandon(fd, temporary, errno) }
        close(fd)
        guard rename(temporary.path, url.path) == 0 else {
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

    /// The file's bytes, nil when it does not exist; refused past `maximumSize`.
    private func read() throws(ConfigError) -> Data? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io(path: url.path, errno: errno)
        }
        defer { close(fd) }
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
