import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Frees the files a change replaces on a background thread instead of the writer's.
///
/// A rename over a file that nothing else holds frees it within the call: its inode and
/// blocks, and on ext4 without a journal and mounted with `discard`, a discard waited for, one
/// per file. A rekey of 100,000 entries spent much of its time there. `hold` opens the file
/// about to be replaced (`O_PATH`: no read, no access time); `release`, after the rename, hands
/// the descriptor to a background thread, whose close is the last reference and so frees the
/// file there while the writer goes on. Nothing the vault holds depends on when that happens:
/// the name already points at the new file, a new inode as before. (A power cut while a file
/// is held leaves it allocated on a file system without a journal until `fsck`: an old sealed
/// blob, as the blocks of any freed file still are.)
final class ReplacedFiles: Sendable {
    static let shared = ReplacedFiles()

    /// The most descriptors held at once: past it `release` closes on the caller's thread, as
    /// the rename would have freed the file. A quarter of the open-file limit (often 1,024).
    static let limit: Int = {
        var limits = rlimit()
        #if os(Linux)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limits) == 0 else { return 64 }
        return Int(min(limits.rlim_cur / 4, 4096))
    }()

    /// Threads closing at once: a close waits for the file system (a discard, on some), and
    /// several waits overlap.
    static let closers = 4

    private let pending = Mutex<(descriptors: [Int32], closers: Int)>(([], 0))
    private let group = DispatchGroup()

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

    /// Closes `fd` (from `hold`) on a background thread.
    func release(_ fd: Int32) {
        let start: Bool? = pending.withLock { state in
            guard state.descriptors.count < Self.limit else { return nil }
            state.descriptors.append(fd)
            guard state.closers < Self.closers else { return false }
            state.closers += 1
            return true
        }
        guard let start else {
            close(fd)
            return
        }
        if start { DispatchQueue.global(qos: .utility).async(group: group) { self.drain() } }
    }

    /// Waits until every descriptor released so far is closed.
    func wait() {
        group.wait()
    }

    private func drain() {
        while true {
            let next: Int32? = pending.withLock { state in
                if let fd = state.descriptors.popLast() { return fd }
                state.closers -= 1
                return nil
            }
            guard let next else { return }
            close(next)
        }
    }
}
