import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timestamps that tell an observer nothing, for the files store.
///
/// A files vault keeps one file per entry, so each file's modification time would date each
/// entry's last edit for anyone who copies the directory (`cp -a`, `rsync -t`, `tar` and most
/// backup tools carry mtimes along). The store therefore sets the access and modification
/// times of every file and directory it writes to a random second of the year 2001 (UTC).
///
/// Why random and not one fixed value: `rsync` and similar tools decide that a file is
/// unchanged when its size and mtime are; an edited entry usually keeps its padded size, so a
/// fixed mtime would make such tools skip real changes. A fresh random time per write keeps
/// "this file changed" visible to sync tools (it is visible to any observer of two copies
/// anyway) while saying nothing about when, or in which order, entries were written.
///
/// What this cannot hide: the inode change time (ctime), which the kernel sets on every write,
/// rename and `utimens` and no call can set. It survives only on the original disk; copies get
/// fresh ctimes.
extension DurableFile {
    /// The range hidden times are drawn from, in seconds since 1970: all of 2001 (UTC).
    package static let hiddenTimeWindow: ClosedRange<Int> = 978_307_200...1_009_843_199

    /// `O_NOATIME` (Linux): reading does not update the access time. Not exported by Swift's
    /// Glibc module; the value is the kernel ABI's for every architecture we build on.
    static var oNoAtime: Int32 {
        #if os(Linux)
        return 0o1000000
        #else
        return 0
        #endif
    }

    /// An access and a modification time, both one random second of `hiddenTimeWindow`.
    static func uninformativeTimes() -> [timespec] {
        let second = Int.random(in: hiddenTimeWindow)
        let time = timespec(tv_sec: second, tv_nsec: 0)
        return [time, time]
    }

    /// Sets the times of the file or directory at `url` (not following a symbolic link) to
    /// uninformative ones.
    static func hideTimes(of url: URL) throws {
        var times = uninformativeTimes()
        guard utimensat(AT_FDCWD, url.path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw StoreError.io(path: url.path, detail: errnoText())
        }
    }
}
