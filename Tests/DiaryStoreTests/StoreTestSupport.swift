import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// A fresh directory under the system temporary directory, removed by `cleanUp()`.
final class StoreScratch {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("diary-store-tests-" + UUID().uuidString.lowercased())
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A path for a vault directory that does not exist yet.
    func vaultURL(_ name: String = "vault") -> URL {
        root.appendingPathComponent(name + "-" + UUID().uuidString.prefix(8).lowercased())
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Runs `body` once per store kind on a new store created here with `initial`.
    func forEachNewStore(
        initial: StoreChange = initialChange(entries: 2), file: StaticString = #filePath, line: UInt = #line,
        _ body: (any VaultStore, StoreChange) throws -> Void
    ) {
        forEachStoreKind(file: file, line: line) { kind in
            let store = try StoreLayout.create(kind, at: vaultURL(kind.rawValue), initial: initial)
            XCTAssertEqual(store.kind, kind, file: file, line: line)
            try body(store, initial)
        }
    }
}

extension StoreScratch {
    /// A files store large enough for a scan copy (`EntryPack`): `count` entries of varied
    /// sizes, one of them larger than a segment's target.
    func packedFilesStore(entries count: Int) throws -> (FileStore, [UUID: [UInt8]]) {
        var initial = initialChange()
        for i in 0..<count {
            let size = i == 7 ? EntryPack.segmentBytes + 5 : 1 + (i * 37) % 900
            initial.putEntries[UUID()] = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ i) }
        }
        let store = try XCTUnwrap(try StoreLayout.create(.files, at: vaultURL(), initial: initial) as? FileStore)
        return (store, initial.putEntries)
    }
}

/// A change as the vault layer makes it on `diary init`: a header, an index, some entries.
func initialChange(entries: Int = 0) -> StoreChange {
    var puts = [UUID: [UInt8]]()
    for _ in 0..<entries { puts[UUID()] = blob() }
    return StoreChange(header: blob(64), index: blob(32), putEntries: puts)
}

/// The permission bits of the file or directory at `url` (not following symbolic links).
func mode(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// Asserts that `body` throws exactly `expected`.
func XCTAssertThrowsStoreError<T>(
    _ expected: StoreError, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
) {
    do {
        _ = try body()
        XCTFail("expected \(expected), nothing was thrown. \(message)", file: file, line: line)
    } catch let error as StoreError {
        XCTAssertEqual(error, expected, message, file: file, line: line)
    } catch {
        XCTFail("expected \(expected), got \(error). \(message)", file: file, line: line)
    }
}

/// Asserts that `body` throws `StoreError.corrupt` (any detail).
func XCTAssertThrowsCorrupt<T>(
    _ message: String = "", file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
) {
    do {
        _ = try body()
        XCTFail("expected a corrupt error, nothing was thrown. \(message)", file: file, line: line)
    } catch StoreError.corrupt {
    } catch {
        XCTFail("expected a corrupt error, got \(error). \(message)", file: file, line: line)
    }
}

/// Runs `body` on another thread; `wait` blocks until it is done and rethrows its error.
final class BackgroundTask: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let mutex = NSLock()
    private var failure: Error?
    private var finished = false

    init(_ body: @escaping @Sendable () throws -> Void) {
        Thread.detachNewThread { [self] in
            do { try body() } catch { mutex.lock(); failure = error; mutex.unlock() }
            mutex.lock(); finished = true; mutex.unlock()
            done.signal()
        }
    }

    var isFinished: Bool {
        mutex.lock()
        defer { mutex.unlock() }
        return finished
    }

    func wait(timeout: TimeInterval = 20) throws {
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw StoreError.io(path: "test", detail: "background task timed out")
        }
        mutex.lock()
        defer { mutex.unlock() }
        if let failure { throw failure }
    }
}
