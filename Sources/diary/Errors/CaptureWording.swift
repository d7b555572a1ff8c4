import DiaryApp
import DiaryVault
import Foundation

/// The words, hints and exit codes for capture's errors.
enum CaptureWording {
    static func report(_ error: CaptureError) -> ErrorReport {
        switch error {
        case .unknownDevice(let name):
            ErrorReport(
                message: "no capture device is called '\(Printable.escaped(name))'",
                hint: "`diary capture-key list` shows the names", code: .failure)
        case .duplicateDevice(let name):
            ErrorReport(
                message: "a capture device called '\(Printable.escaped(name))' is enrolled already",
                hint: "choose another name", code: .failure)
        case .invalidDeviceName(let name):
            ErrorReport(message: invalidName(name), hint: nil, code: .usage)
        case .invalidCredential, .unsupportedCredentialVersion:
            ErrorReport(message: error.description, hint: nil, code: .inputRefused)
        case .counterExhausted:
            ErrorReport(
                message: error.description, hint: "enrol a new device with `diary capture-key create`", code: .failure)
        case .invalidEntry:
            ErrorReport(message: error.description, hint: nil, code: .inputRefused)
        }
    }

    /// Why `name` cannot name a device, the name escaped (a newline in it included).
    static func invalidName(_ name: String) -> String {
        "'\(Printable.escaped(name))' cannot name a capture device (1 to \(CaptureDeviceName.maximumBytes) bytes, "
            + "one line, no space at either end)"
    }

    static func report(_ error: CaptureAppError) -> ErrorReport {
        switch error {
        case .io(let path, let detail):
            ErrorReport(message: "\(path): \(detail)", hint: nil, code: .failure)
        case .credentialUnreadable(let path, let detail):
            ErrorReport(message: "cannot use the capture key \(path): \(detail)", hint: nil, code: .inputRefused)
        case .credentialExists(let path):
            ErrorReport(
                message: "\(path) already exists; a capture key never overwrites a file", hint: "choose a new path",
                code: .alreadyExists)
        case .notACaptureTarget(let path):
            ErrorReport(
                message: "\(path) is neither a diary vault nor a folder sync remote",
                hint: "give --to the vault's directory or a folder the vault syncs to", code: .noVault)
        case .gitRemote(let url):
            ErrorReport(
                message: "\(url) is a git remote; capture writes only into a directory",
                hint: "give --to the vault's directory or a folder sync remote", code: .usage)
        case .gitWorkingTree(let path):
            ErrorReport(
                message: "\(Printable.escaped(path)) is a git working tree (a git remote's clone); "
                    + "capture needs a folder sync remote or the vault's directory",
                hint: "give --to the vault's directory or a folder sync remote", code: .usage)
        case .credentialIsLink(let path):
            ErrorReport(
                message: "the capture key \(Printable.escaped(path)) is a symbolic link; give the key file itself",
                hint: "capture rewrites the key at every use", code: .inputRefused)
        case .otherVault(let path, let key, let found):
            ErrorReport(
                message: "\(path) belongs to vault \(found.uuidString.lowercased()); "
                    + "the capture key is for vault \(key.uuidString.lowercased())",
                hint: nil, code: .failure)
        }
    }
}
