import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// The `VaultStore` contract under concurrency, run against every store kind. Each second
/// "process" is a second store instance on the same directory, opened on another thread:
/// `flock` belongs to the open file description, so this is what another process would see.
final class StoreConformanceConcurrencyTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws {
        scratch = try StoreScratch()
    }

    override func tearDown() {
        scratch.cleanUp()
    }

    /// Exclusion shown by order, not by waiting: while the first store holds the lock, the
    /// lock file cannot be taken by anyone else, and the second store, already asking, gets in
    /// only after the first lets go.
    func testWriteLockExcludesASecondStoreOnTheSameDirectory() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            let directory = store.directory
            let events = EventLog()
            let asking = DispatchSemaphore(value: 0)
            let other: BackgroundTask = try store.withWriteLock {
                XCTAssertFalse(
                    try canTakeLock(directory.appendingPathComponent(StoreLayout.lockName)),
                    "\(store.kind): the lock file is free while the lock is held")
                let task = BackgroundTask {
                    let second = try StoreLayout.open(at: directory)
                    events.append("second asks")
                    asking.signal()
                    try second.withWriteLock { events.append("second enters") }
                }
                asking.wait()
                events.append("first lets go")
                return task
            }
            try other.wait()
            XCTAssertEqual(events.all, ["second asks", "first lets go", "second enters"], "\(store.kind)")
            XCTAssertTrue(try canTakeLock(directory.appendingPathComponent(StoreLayout.lockName)))
        }
    }

    /// True when an exclusive `flock` on `url` could be taken right now (from a new open file
    /// description, as another process would); it is released again at once.
    private func canTakeLock(_ url: URL) throws -> Bool {
        let fd = open(url.path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: url.path, detail: "cannot open") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(fd, LOCK_UN)
        return true
    }

    func testRacingCreatesOnOneDirectoryLeaveOneVaultAndOneRefusal() throws {
        for kind in StoreKind.allCases {
            let directory = scratch.vaultURL()
            let created = Counter(), refused = Counter()
            let headers = [blob(), blob()]
            let tasks = headers.map { header in
                BackgroundTask {
                    do {
                        _ = try StoreLayout.create(
                            kind, at: directory, initial: StoreChange(header: header, index: header))
                        created.increment()
                    } catch StoreError.alreadyExists {
                        refused.increment()
                    }
                }
            }
            for task in tasks { try task.wait() }
            XCTAssertEqual(created.value, 1, "\(kind)")
            XCTAssertEqual(refused.value, 1, "\(kind)")
            let store = try StoreLayout.open(at: directory)
            XCTAssertTrue(headers.contains(try store.readHeader()))
            XCTAssertEqual(
                try store.readIndex(), try store.readHeader(), "\(kind): header and index of the same create")
        }
    }

    func testWriteLockIsReleasedWhenTheBodyThrows() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            struct Boom: Error {}
            XCTAssertThrowsError(try store.withWriteLock { throw Boom() })
            let directory = store.directory
            let task = BackgroundTask { try StoreLayout.open(at: directory).withWriteLock {} }
            try task.wait(timeout: 5)
        }
    }

    func testWriteLockIsReentrantAndAllowsSnapshotsInside() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            let index = blob()
            try store.withWriteLock {
                try store.withWriteLock { try store.apply(StoreChange(index: index)) }
                let seen = try store.withSnapshot { try $0.readIndex() }
                XCTAssertEqual(seen, index, "\(store.kind)")
            }
        }
    }

    func testReadsNestInsideASnapshotAndWritesThereAreRefused() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            let header = try store.withSnapshot { outer in
                try store.withSnapshot { inner in
                    XCTAssertEqual(try inner.readIndex(), try outer.readIndex())
                    return try store.readHeader()
                }
            }
            XCTAssertEqual(header, try store.readHeader(), "\(store.kind)")
            try store.withSnapshot { _ in
                XCTAssertThrowsError(try store.apply(StoreChange(index: blob())), "\(store.kind)")
            }
        }
    }

    func testConcurrentReadModifyWritesLoseNoEntry() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            let directory = store.directory
            let perWriter = 15
            // Each writer appends its id to a list kept in the index, as the vault layer would.
            let writers = (0..<3).map { _ in
                BackgroundTask {
                    let mine = try StoreLayout.open(at: directory)
                    for _ in 0..<perWriter {
                        let id = UUID()
                        try mine.withWriteLock {
                            let list = try mine.readIndex() ?? []
                            try mine.apply(
                                StoreChange(
                                    index: list + withUnsafeBytes(of: id.uuid) { Array($0) },
                                    putEntries: [id: [1]]))
                        }
                    }
                }
            }
            for writer in writers { try writer.wait(timeout: 60) }
            let index = try store.readIndex() ?? []
            let initialIndexCount = 32
            XCTAssertEqual(index.count - initialIndexCount, 3 * perWriter * 16, "\(store.kind)")
            XCTAssertEqual(try store.entryIDs().count, 3 * perWriter, "\(store.kind)")
        }
    }

    func testReadersSeeEachChangeWholeOrNotAtAll() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            let directory = store.directory
            let ids = (0..<5).map { _ in UUID() }
            let rounds = 30
            let stop = Counter()
            let reader = BackgroundTask {
                let mine = try StoreLayout.open(at: directory)
                while stop.value == 0 {
                    try mine.withSnapshot { snapshot in
                        // Every blob in one change carries the same round number.
                        guard let index = try snapshot.readIndex(), index.count == 1 else { return }
                        for id in ids {
                            let entry = try snapshot.readEntry(id)
                            if entry != index {
                                throw StoreError.corrupt(
                                    path: "\(id)", detail: "mixed state \(index) vs \(entry ?? [])")
                            }
                        }
                    }
                }
            }
            for round in 0..<rounds {
                let value = [UInt8(round)]
                try store.withWriteLock {
                    try store.apply(
                        StoreChange(index: value, putEntries: Dictionary(uniqueKeysWithValues: ids.map { ($0, value) }))
                    )
                }
            }
            stop.increment()
            try reader.wait(timeout: 60)
        }
    }

    func testSnapshotKeepsOneStateWhileAnotherStoreWrites() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            let directory = store.directory
            let newHeader = blob()
            let writer: BackgroundTask = try store.withSnapshot { snapshot in
                let before = try snapshot.readHeader()
                let idsBefore = try snapshot.entryIDs()
                let task = BackgroundTask {
                    let second = try StoreLayout.open(at: directory)
                    try second.withWriteLock {
                        try second.apply(StoreChange(header: newHeader, putEntries: [UUID(): [7]]))
                    }
                }
                Thread.sleep(forTimeInterval: 0.3)
                XCTAssertEqual(try snapshot.readHeader(), before, "\(store.kind)")
                XCTAssertEqual(try snapshot.entryIDs(), idsBefore, "\(store.kind)")
                return task
            }
            try writer.wait()
            XCTAssertEqual(try store.readHeader(), newHeader, "\(store.kind): the write landed after the snapshot")
            XCTAssertEqual(try store.entryIDs().count, 1)
        }
    }
}

/// A thread-safe counter for test threads.
final class Counter: @unchecked Sendable {
    private let mutex = NSLock()
    private var count = 0

    var value: Int {
        mutex.lock()
        defer { mutex.unlock() }
        return count
    }

    func increment() {
        mutex.lock()
        count += 1
        mutex.unlock()
    }
}

/// An ordered record of what test threads did.
final class EventLog: @unchecked Sendable {
    private let mutex = NSLock()
    private var events: [String] = []
    func append(_ event: String) { mutex.withLock { events.append(event) } }
    var all: [String] { mutex.withLock { events } }
}
