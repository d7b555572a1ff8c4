import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// A writer killed with SIGKILL at an arbitrary instant leaves each store at the old state or
/// the new one, never a mix.
///
/// The writer is this same test binary, re-run with a filter naming this test and an
/// environment variable that switches the test into "child" mode: it then applies numbered
/// changes in a loop until it is killed. (A kill does not lose the page cache, so this checks
/// atomicity and recovery, not fsync; power loss is out of reach of a test.)
final class StoreCrashTests: XCTestCase {
    private static let childKey = "DIARY_STORE_CRASH_CHILD_DIR"
    /// Fixed ids: parent and child are separate processes and must agree on them.
    private static let stableIDs = (0..<12).map { i in
        UUID(uuid: (0xD1, 0xA7, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(i)))
    }

    func testKilledWriterLeavesOldOrNewState() throws {
        if let path = ProcessInfo.processInfo.environment[Self.childKey] {
            try Self.runChild(URL(fileURLWithPath: path))
        }
        let scratch = try StoreScratch()
        defer { scratch.cleanUp() }
        for kind in StoreKind.allCases {
            let directory = scratch.vaultURL(kind.rawValue)
            _ = try StoreLayout.create(kind, at: directory, initial: Self.change(generation: 0, ids: Self.stableIDs))
            var generations = [UInt64]()
            for _ in 0..<6 {
                try killChildMidWrite(directory)
                generations.append(try Self.verify(directory))
            }
            XCTAssertGreaterThan(generations.last ?? 0, 0, "\(kind): the child wrote before it was killed")
            XCTAssertEqual(generations, generations.sorted(), "\(kind): no state went backwards")
        }
    }

    private func killChildMidWrite(_ directory: URL) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["\(String(reflecting: Self.self))/testKilledWriterLeavesOldOrNewState"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childKey] = directory.path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        Thread.sleep(forTimeInterval: Double.random(in: 0.4...0.9))
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal, "the child was still writing when killed")
    }

    /// Opens the vault (recovering as a new process would) and checks that every blob belongs
    /// to one generation; returns it.
    private static func verify(_ directory: URL) throws -> UInt64 {
        let store = try StoreLayout.open(at: directory)
        return try store.withSnapshot { snapshot in
            let header = try snapshot.readHeader()
            let generation = try XCTUnwrap(decode(header))
            XCTAssertEqual(try snapshot.readIndex(), header, "index of generation \(generation)")
            let pages = try snapshot.readIndexPages()
            XCTAssertEqual(Set(pages.keys), Set(indexPages), "index pages of generation \(generation)")
            for (page, bytes) in pages { XCTAssertEqual(decode(bytes), generation, "index page \(page)") }
            let expected = Set(ids(generation: generation))
            XCTAssertEqual(Set(try snapshot.entryIDs()), expected, "entries of generation \(generation)")
            for id in expected {
                XCTAssertEqual(try snapshot.readEntry(id).flatMap(decode), generation, "entry \(id)")
            }
            return generation
        }
    }

    /// The child: applies generation after generation until it is killed, two in four as
    /// batches of a rotation.
    private static func runChild(_ directory: URL) throws -> Never {
        let store = try StoreLayout.open(at: directory)
        var generation = try decode(store.readHeader()) ?? 0
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            generation += 1
            let next = ids(generation: generation)
            let previous = Set(ids(generation: generation - 1))
            var change = change(generation: generation, ids: next)
            change.deleteEntries = previous.subtracting(next)
            if generation % 4 < 2 {
                // As a rotation's batches write: the files store exchanges each file with the
                // one it replaces and writes the next batch into those (`SpareFiles`).
                change.reseals = true
                change.rotationBatch = true
                try store.apply(inParts: { _ in change })
            } else {
                try store.withWriteLock { try store.apply(change) }
            }
        }
        exit(0)
    }

    /// Even generations hold all stable ids; odd ones drop a third of them and add a fresh one
    /// derived from the generation, so every change puts, replaces and deletes.
    private static func ids(generation: UInt64) -> [UUID] {
        if generation % 2 == 0 { return stableIDs }
        var bytes = [UInt8](repeating: 0x5A, count: 16)
        withUnsafeBytes(of: generation.bigEndian) { bytes.replaceSubrange(0..<8, with: $0) }
        let fresh = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return Array(stableIDs.dropFirst(4)) + [fresh]
    }

    /// Index pages every generation rewrites, the first and last of the range among them.
    private static let indexPages = [0, 31, 255]

    private static func change(generation: UInt64, ids: [UUID]) -> StoreChange {
        let tagged = encode(generation, size: 64)
        return StoreChange(
            header: tagged, index: tagged,
            putEntries: Dictionary(uniqueKeysWithValues: ids.map { ($0, encode(generation, size: 4096)) }),
            putIndexPages: Dictionary(uniqueKeysWithValues: indexPages.map { ($0, encode(generation, size: 512)) }))
    }

    private static func encode(_ generation: UInt64, size: Int) -> [UInt8] {
        withUnsafeBytes(of: generation.bigEndian) { Array($0) }
            + [UInt8](repeating: UInt8(truncatingIfNeeded: generation), count: size - 8)
    }

    private static func decode(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count >= 8 else { return nil }
        let generation = bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        return bytes == encode(generation, size: bytes.count) ? generation : nil
    }
}
