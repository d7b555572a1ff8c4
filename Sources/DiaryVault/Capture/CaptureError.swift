import Foundation

/// What can go wrong with capture devices, credentials and captured items. Messages are
/// lowercase and never contain a key or captured text.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No device of this name is enrolled.
    case unknownDevice(String)
    /// A device of this name is enrolled already (names compared up to letter case).
    case duplicateDevice(String)
    /// A name a device cannot have (`CaptureDeviceName.isValid`).
    case invalidDeviceName(String)
    /// The credential file is not one (`what` says which line or field is wrong).
    case invalidCredential(String)
    /// The credential file has a version this diary does not read.
    case unsupportedCredentialVersion(Int)
    /// The credential's counter cannot go higher.
    case counterExhausted
    /// The captured entry is refused before sealing (blank, too large, too many tags…).
    case invalidEntry(String)

    public var description: String {
        switch self {
        case .unknownDevice(let name): return "no capture device is called '\(name)'"
        case .duplicateDevice(let name): return "a capture device called '\(name)' is enrolled already"
        case .invalidDeviceName(let name):
            return "'\(name)' cannot name a capture device (1 to \(CaptureDeviceName.maximumBytes) bytes, one line, "
                + "no space at either end)"
        case .invalidCredential(let what): return "not a diary capture key (\(what))"
        case .unsupportedCredentialVersion(let v): return "the capture key has version \(v); this diary reads version 1"
        case .counterExhausted: return "the capture key's counter cannot go higher"
        case .invalidEntry(let what): return "the captured entry is refused: \(what)"
        }
    }
}
