import ArgumentParser
import DiaryApp
import DiarySync
import Foundation

/// Options naming a remote: a git URL argument or `--folder PATH`, and this machine's name.
struct RemoteOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "A git remote: a path to a bare repository, ssh://..., or host:path.", valueName: "git-remote"))
    var git: String?

    @Option(
        help: ArgumentHelp(
            "A folder a file-sync tool replicates (Syncthing, Dropbox, ...), instead of git.",
            valueName: "path"),
        completion: .directory)
    var folder: String?

    @Option(
        help: ArgumentHelp(
            "This machine's name in conflicts and messages (default: the host name).",
            valueName: "name"))
    var name: String?

    func validate() throws {
        switch (git, folder) {
        case (nil, nil): throw ValidationError("name a git remote, or a folder with --folder PATH")
        case (.some, .some): throw ValidationError("name either a git remote or --folder, not both")
        default: break
        }
        if let name, name.isEmpty || name.utf8.count > 200 || name.unicodeScalars.contains(where: Printable.needsEscape)
        {
            throw ValidationError("--name must be 1 to 200 printable characters")
        }
    }

    var location: RemoteLocation {
        if let folder {
            return .folder(URL(fileURLWithPath: (folder as NSString).expandingTildeInPath).standardizedFileURL.path)
        }
        let url = git!
        // A local path is made absolute: the clone lives elsewhere, and a relative path would
        // then name another place.
        if url.hasPrefix("/") || url.hasPrefix(".") || url.hasPrefix("~") || FileManager.default.fileExists(atPath: url)
        {
            return .git(URL(fileURLWithPath: (url as NSString).expandingTildeInPath).standardizedFileURL.path)
        }
        return .git(url)
    }

    var machineName: String { name ?? ProcessInfo.processInfo.hostName }

    /// Refuses a `--folder` that does not exist: a mistyped path would otherwise be made (by
    /// `sync init`) or read as an empty remote (by `sync join`), and nothing would ever sync.
    func requireExistingFolder(joining: Bool) throws {
        guard case .folder(let path) = location else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.noSuchFolder(path: path, joining: joining)
        }
    }
}
