import Foundation

/// Why capturing, or a capture key's file, stopped a command, as a value; the CLI words it.
public enum CaptureAppError: Error, Equatable, Sendable {
    /// A file or directory could not be read or written.
    case io(path: String, detail: String)
    /// The capture key file is not one (the reason, from `CaptureError`, says why).
    case credentialUnreadable(path: String, detail: String)
    /// The file a new capture key would be written to exists.
    case credentialExists(path: String)
    /// DIR is neither a vault directory nor a folder sync remote.
    case notACaptureTarget(path: String)
    /// DIR is a git remote's URL: capture writes only into a directory.
    case gitRemote(String)
    /// DIR is a git working tree (a clone of a git sync remote, diary's own included): its
    /// inbox is read by nobody, since a git remote has none.
    case gitWorkingTree(path: String)
    /// The capture key file is a symbolic link: it is rewritten at every capture, so it must
    /// be the file itself.
    case credentialIsLink(path: String)
    /// DIR is a vault or remote of another vault than the key's.
    case otherVault(path: String, key: UUID, found: UUID)
}
