import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// The private copies `diary open` hands to a viewer: `diary-open-PID-START-XXXXXX/NAME` in
/// the memory directory the editor uses (`MemoryDirectory`), named like the editor's
/// directories (`InterruptedEdits`) by the pid and start time of the `diary` that made them.
///
/// A copy is wiped when the viewer exits; one left behind (the default `xdg-open` returns at
/// once while the viewer it started still reads the file, and a `diary` may be killed) is
/// wiped by the next `diary` command, whatever it is, once the process that made it has ended.
enum OpenedCopies {
    static let prefix = "diary-open-"

    /// The name prefix for a new directory of this process.
    static func namePrefix() -> String {
        let pid = getpid()
        return "\(prefix)\(pid)-\(InterruptedEdits.processStart(pid) ?? 0)-"
    }

    /// Writes the plaintext of `record` into `directory` as `name` (mode 0600, created new),
    /// and returns its path once the whole object authenticated.
    static func write(_ record: AttachmentRecord, of vault: Vault, into directory: MemoryDirectory) throws -> String {
        let file = "\(directory.path)/\(record.name)"
        let fd = openat(directory.fd, record.name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.system(what: "cannot create \(file)", errno: errno) }
        defer { close(fd) }
        try vault.readAttachment(record) { bytes in
            if let code = DescriptorWrite.all(bytes, to: fd) {
                throw CLIError.system(what: "cannot write \(file)", errno: code)
            }
        }
        return file
    }

    /// Wipes every `diary-open-*` directory of this user whose `diary` no longer runs. Run at
    /// the start of every command; cheap: one directory listing per place a copy can be.
    static func wipeAbandoned(environment: DiaryEnvironment = DiaryEnvironment()) {
        for base in MemoryDirectory.candidates(environment: environment) {
            let names = MemoryDirectory.names(in: base, prefixed: prefix)
            for name in names where isAbandoned(name) { wipe("\(base)/\(name)") }
        }
    }

    /// True for `diary-open-PID-START-XXXXXX` whose process no longer runs.
    static func isAbandoned(_ name: String) -> Bool {
        let fields = name.dropFirst(prefix.count).split(separator: "-")
        guard fields.count == 3, let pid = pid_t(fields[0]), let start = UInt64(fields[1]) else { return false }
        return !InterruptedEdits.isRunning(pid, startedAt: start)
    }

    /// Wipes a directory of this user (never a link, never another user's).
    private static func wipe(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid(),
            let directory = try? MemoryDirectory.open(path)
        else { return }
        directory.wipe()
    }
}
