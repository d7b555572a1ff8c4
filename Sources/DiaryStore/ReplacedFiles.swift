import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Frees the files a change replaces on a background thread instead of the writer's.
///
/// A rename over a file that nothing else holds frees it within the call: its inode and
/// blocks, and on ext4 without a journal and mounted with `discard`, a discard waited for, one
/// per file. A rekey of 100,000 entries spent most of its time there. `hold` opens the file
/// about to be replaced (`O_PATH`: no read, no access time); `release`, after the rename, hands
/// the descriptor to a background thread, whose close is the last reference and so frees the
/// file there while the writer goes on. Nothing the vault holds depends on when that happens:
/// the name already points at the new file, a new inode as before.
final class ReplacedFiles: Sendable {
    static let shared = ReplacedFiles()

    /// The most descriptors held at once: past it `release` closes on the caller's thread, as
    /// the rename would have freed the file (a process's open-file limit may be 1,024).
    static let limit = 256

    private let pending = Mutex<(descriptors: [Int32], draining: Bool)>(([], false))
    private let queue = DispatchQueue(label: "diary.store.replaced-files")

    /// A descriptor holding the file at `path`, or nil when there is none (a new name) or where
    /// `O_PATH` does not exist: then the rename frees the old file itself, as it always did.
    func hold(_ path: String) -> Int32? {
        #if os(Linux)
        // `O_PATH` (not exported by Swift's Glibc module): the kernel ABI's value on x86-64 and arm64.
        let fd = open(path, 0o10_000_000 | O_CLOEXEC | O_NOFOLLOW)
        return fd >= 0 ? fd : nil
        #else
        return nil
        #endif
    }

    /// Closes `fd` (from `hold`) on the background thread.
    func release(_ fd: Int32) {
        let start: Bool? = pending.withLock { state in
            guard state.descriptors.count < Self.limit else { return nil }
            state.descriptors.append(fd)
            defer { state.draining = true }
            return !state.draining
        }
        guard let start else {
            close(fd)
            return
        }
        if start { queue.async { self.drain() } }
    }

    /// Waits until every released descriptor is closed.
    func wait() {
        queue.sync {}
        // A release racing the drain's last look starts another drain; that one ends too.
        while pending.withLock({ $0.draining }) { queue.sync {} }
    }

    private func drain() {
        while true {
            let batch: [Int32] = pending.withLock { state in
                if state.descriptors.isEmpty { state.draining = false }
                defer { state.descriptors = [] }
                return state.descriptors
            }
            if batch.isEmpty { return }
            for fd in batch { close(fd) }
        }
    }
}
