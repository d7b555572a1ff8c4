import Foundation
import XCTest

@testable import DiaryStore

#if canImport(Glibc)
import Glibc
#endif

/// `DurableFile.writeFully`, the one write loop every module words its own failures around:
/// every byte or the failure's errno, never a loop and never an errno from an earlier call.
final class DurableFileWriteTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    func testEveryByteReachesTheFile() throws {
        let path = scratch.root.appendingPathComponent("out").path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        // Several MiB, and not a multiple of any block size.
        let bytes = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertNil(bytes.withUnsafeBytes { DurableFile.writeFully(fd, $0) })
        close(fd)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(bytes))
    }

    func testNothingToWriteWritesNothing() throws {
        let path = scratch.root.appendingPathComponent("empty").path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        defer { close(fd) }
        XCTAssertNil([UInt8]().withUnsafeBytes { DurableFile.writeFully(fd, $0) })
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, 0)
    }

    func testAFullDeviceIsENOSPC() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try XCTSkipIf(fd < 0, "no /dev/full here")
        defer { close(fd) }
        XCTAssertEqual([UInt8](repeating: 1, count: 10).withUnsafeBytes { DurableFile.writeFully(fd, $0) }, ENOSPC)
    }

    func testAClosedDescriptorIsEBADF() {
        XCTAssertEqual([UInt8](repeating: 1, count: 10).withUnsafeBytes { DurableFile.writeFully(-1, $0) }, EBADF)
    }

    /// A pipe nobody reads takes part of the bytes, then would block: the errno of that (EAGAIN
    /// on a non-blocking pipe) comes back after the short write, not a loop.
    func testAShortWriteThenAFailureReturnsTheFailure() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        XCTAssertEqual(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK), 0)
        let bytes = [UInt8](repeating: 7, count: 4 << 20)  // more than any pipe's buffer
        XCTAssertEqual(bytes.withUnsafeBytes { DurableFile.writeFully(ends[1], $0) }, EAGAIN)
        var first = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(read(ends[0], &first, first.count), first.count, "the short write's bytes are in the pipe")
        XCTAssertEqual(first, [UInt8](repeating: 7, count: 16))
    }
}
