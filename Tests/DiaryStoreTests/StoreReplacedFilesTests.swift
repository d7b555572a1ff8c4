import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

#if canImport(Glibc)
import Glibc
#endif

/// The files a change replaces are freed off the writer's thread (`ReplacedFiles`): each
/// rewritten entry is still a new file, and no descriptor is left open.
final class StoreReplacedFilesTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    /// Below and above `syncFSThreshold`: the staged files are synced one by one or all at once.
    func testARewrittenEntryIsANewFileAndTheOldOneIsLetGo() throws {
        for count in [3, DurableFile.syncFSThreshold + 8] {
            let directory = scratch.vaultURL()
            let initial = initialChange(entries: count)
            let store = try StoreLayout.create(.files, at: directory, initial: initial)
            let before = try Dictionary(
                uniqueKeysWithValues: initial.putEntries.keys.map { ($0, try inode($0, in: directory)) })
            let rewritten = Dictionary(uniqueKeysWithValues: initial.putEntries.keys.map { ($0, blob()) })
            try store.apply(inParts: { put in
                try put(rewritten)
                return StoreChange(index: blob())
            })
            ReplacedFiles.shared.wait()
            for (id, bytes) in rewritten {
                XCTAssertEqual(try store.readEntry(id), bytes)
                // A file written in place would keep its birth time, which dates the entry.
                XCTAssertNotEqual(try inode(id, in: directory), before[id], "entry \(id) was rewritten in place")
            }
            let held = openDescriptors(under: directory)
            XCTAssertEqual(held.count, 0, "\(count) entries: replaced files still held open, such as \(held.prefix(2))")
            XCTAssertEqual(try store.auditLayout(), [])
        }
    }

    func testEveryReleasedDescriptorIsClosedPastTheLimitToo() throws {
        let files = ReplacedFiles()
        let directory = scratch.vaultURL()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertNil(files.hold(directory.appendingPathComponent("missing").path))
        for n in 0..<(ReplacedFiles.limit * 2) {
            let path = directory.appendingPathComponent("f\(n)").path
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1])))
            #if os(Linux)
            let fd = try XCTUnwrap(files.hold(path))
            XCTAssertEqual(unlink(path), 0)
            files.release(fd)
            #endif
        }
        files.wait()
        let held = openDescriptors(under: directory)
        XCTAssertEqual(held.count, 0, "released files still held open, such as \(held.prefix(2))")
    }

    private func inode(_ id: UUID, in directory: URL) throws -> UInt64 {
        let path = directory.appendingPathComponent("entries/" + FileStore.fileName(for: id)).path
        var info = stat()
        guard lstat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
        return UInt64(info.st_ino)
    }

    /// This process's descriptors open on files under `directory` (a removed file shows as
    /// its old path), by what they point at; none where /proc is missing. Only these: tests
    /// running at the same time open and close descriptors of their own.
    private func openDescriptors(under directory: URL) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let prefix = directory.resolvingSymlinksInPath().path + "/"
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(prefix) }.sorted()
    }
}
