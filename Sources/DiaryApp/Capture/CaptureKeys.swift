import DiaryCrypto
import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Enrolling a capture device (`capture-key create`): the vault gains the device's record, the
/// user gets its key, and a key that could not be handed over leaves no device behind: its
/// record is withdrawn, so the name is free again.
public enum CaptureKeys {
    /// Enrols `name` and writes its key to `output`, a new 0600 file made (never replacing
    /// anything, a link included) before the vault is touched: a path that cannot be written
    /// fails first. When the enrolment or the write fails, the file is removed and no device
    /// is left enrolled.
    public static func create(_ name: String, in vault: Vault, output: String) throws -> CaptureCredential {
        let fd = open(output, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { throw CaptureAppError.credentialExists(path: output) }
            throw CaptureAppError.io(path: output, detail: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var written = false
        defer { if !written { unlink(output) } }
        let credential = try vault.enrolCaptureDevice(name: name)
        try handOver(credential, in: vault) { bytes in
            try CaptureFiles.writeAll(bytes, to: fd, path: output)
            guard fsync(fd) == 0 else {
                throw CaptureAppError.io(path: output, detail: String(cString: strerror(errno)))
            }
            try CaptureFiles.syncDirectory((output as NSString).deletingLastPathComponent)
        }
        written = true
        return credential
    }

    /// Enrols `name` and returns its key file's bytes, for a caller that writes them to a pipe
    /// (never a terminal, never a file on disk the caller did not choose). `deliver` writing
    /// them fails: the device is withdrawn. The bytes are zeroed afterwards.
    public static func create(_ name: String, in vault: Vault, deliver: ([UInt8]) throws -> Void) throws
        -> CaptureCredential
    {
        let credential = try vault.enrolCaptureDevice(name: name)
        try handOver(credential, in: vault, deliver)
        return credential
    }

    /// Gives the key's bytes to `deliver`; when that fails, withdraws the device (nobody holds
    /// its key) before the error goes on.
    private static func handOver(
        _ credential: CaptureCredential, in vault: Vault, _ deliver: ([UInt8]) throws -> Void
    ) throws {
        var bytes = credential.encoded()
        defer { secureZero(&bytes) }
        do {
            try deliver(bytes)
        } catch {
            // Failing this too leaves a device nobody holds the key of: revoked at least.
            if (try? vault.withdrawCaptureDevice(credential.deviceID)) == nil {
                _ = try? vault.revokeCaptureDevice(named: credential.name)
            }
            throw error
        }
    }
}
