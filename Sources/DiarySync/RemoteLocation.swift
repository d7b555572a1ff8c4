import Foundation

/// Where a vault syncs to.
public enum RemoteLocation: Equatable, Sendable {
    /// Anything `git clone` accepts: a path to a bare repository, `ssh://…`, `host:path`.
    case git(String)
    /// A folder a file-sync tool (Syncthing, Dropbox, iCloud Drive, rclone mount) replicates.
    case folder(String)

    public var description: String {
        switch self {
        case .git(let url): return "git \(url)"
        case .folder(let path): return "folder \(path)"
        }
    }

    /// The config file's line: `git <url>` or `folder <absolute path>`.
    func encoded() -> String {
        switch self {
        case .git(let url): return "git \(url)\n"
        case .folder(let path): return "folder \(path)\n"
        }
    }

    static func decode(_ text: String) -> RemoteLocation? {
        let line = text.trimmingCharacters(in: .newlines)
        if line.hasPrefix("git "), line.count > 4 { return .git(String(line.dropFirst(4))) }
        if line.hasPrefix("folder /") { return .folder(String(line.dropFirst(7))) }
        return nil
    }
}
