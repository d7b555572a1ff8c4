import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a vault directory's capture inbox holds, counted by name (nothing is read): for
/// `verify`, which notes it apart from the store, since capture devices write there by design.
public struct CaptureInboxCensus: Equatable, Sendable {
    /// Items waiting to be taken in (`inbox/<item name>`).
    public var waiting = 0
    /// The regular files in `inbox/rejected/`: the captures set aside.
    public var rejected = 0
    /// Anything else directly in `inbox/` (not an item name, not `rejected`, not a temporary
    /// file), and what in `inbox/rejected/` is not a regular file (a link or a folder the
    /// take-in moved there: no capture).
    public var unexpected = 0

    public init(waiting: Int = 0, rejected: Int = 0, unexpected: Int = 0) {
        (self.waiting, self.rejected, self.unexpected) = (waiting, rejected, unexpected)
    }

    /// The census of `<directory>/inbox/`; all zero when there is none.
    public static func of(_ directory: URL) throws -> CaptureInboxCensus {
        let inbox = directory.appendingPathComponent(CaptureItem.inboxDirectoryName).path
        var census = CaptureInboxCensus()
        for name in try CaptureFiles.names(in: inbox) ?? [] where !name.hasPrefix(".tmp-") {
            if CaptureItem.isFileName(name) {
                census.waiting += 1
            } else if name != CaptureItem.rejectedDirectoryName {
                census.unexpected += 1
            }
        }
        // Not through a link: what it points to is not the inbox's.
        let rejected = inbox + "/" + CaptureItem.rejectedDirectoryName
        var info = stat()
        guard lstat(rejected, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            if lstat(rejected, &info) == 0 { census.unexpected += 1 }
            return census
        }
        for name in try CaptureFiles.names(in: rejected) ?? [] {
            let isFile = lstat(rejected + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
            if isFile { census.rejected += 1 } else { census.unexpected += 1 }
        }
        return census
    }
}
