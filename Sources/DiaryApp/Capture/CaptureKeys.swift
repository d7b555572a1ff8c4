import DiaryCrypto
import DiaryVault
import Foundation

/// Enrolling a capture device (`capture-key create`): the vault gains the device's record, the
/// user gets its key, and a key that could not be handed over leaves no device behind that
/// nobody holds the key of.
public enum CaptureKeys {
    /// Enrols `name` and writes its key to `output`, a new 0600 file. When `output` exists the
    /// vault is not touched; when the write fails after the enrolment, the device is revoked.
    public static func create(_ name: String, in vault: Vault, output: String) throws -> CaptureCredential {
        if access(output, F_OK) == 0 { throw CaptureAppError.credentialExists(path: output) }
        let credential = try vault.enrolCaptureDevice(name: name)
        do {
            try CaptureKeyFile.write(credential, to: output)
        } catch {
            _ = try? vault.revokeCaptureDevice(named: name)
            throw error
        }
        return credential
    }

    /// Enrols `name` and returns its key file's bytes, for a caller that writes them to a pipe
    /// (never a terminal, never a file on disk the caller did not choose). `deliver` writing
    /// them fails: the device is revoked. The bytes are zeroed afterwards.
    public static func create(_ name: String, in vault: Vault, deliver: ([UInt8]) throws -> Void) throws
        -> CaptureCredential
    {
        let credential = try vault.enrolCaptureDevice(name: name)
        var bytes = credential.encoded()
        defer { secureZero(&bytes) }
        do {
            try deliver(bytes)
        } catch {
            _ = try? vault.revokeCaptureDevice(named: name)
            throw error
        }
        return credential
    }
}
