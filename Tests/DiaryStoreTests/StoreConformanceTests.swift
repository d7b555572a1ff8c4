import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// The `VaultStore` contract, written once and run against every store kind (GRDB's habit:
/// each test loops over `StoreKind.allCases`).
final class StoreConformanceTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws {
        scratch = try StoreScratch()
    }

    override func tearDown() {
        scratch.cleanUp()
    }

    // MARK: - Create, open, detect

    func testCreatedVaultReopensWithItsInitialContent() {
        scratch.forEachNewStore { store, initial in
            let reopened = try StoreLayout.open(at: store.directory)
            XCTAssertEqual(reopened.kind, store.kind)
            XCTAssertEqual(try StoreLayout.detect(at: store.directory), store.kind)
            XCTAssertEqual(try reopened.readHeader(), initial.header)
            XCTAssertEqual(try reopened.readIndex(), initial.index)
            XCTAssertEqual(Set(try reopened.entryIDs()), Set(initial.putEntries.keys), "\(store.kind)")
            for (id, bytes) in initial.putEntries {
                XCTAssertEqual(try reopened.readEntry(id), bytes, "\(store.kind)")
            }
            XCTAssertNil(try reopened.readEntry(UUID()))
        }
    }

    func testCreateRefusesADirectoryThatAlreadyHoldsAVault() {
        scratch.forEachNewStore { store, initial in
            for kind in StoreKind.allCases {
                XCTAssertThrowsStoreError(.alreadyExists(path: store.directory.path), "\(store.kind) ← \(kind)") {
                    try StoreLayout.create(kind, at: store.directory, initial: initialChange())
                }
            }
            XCTAssertEqual(try store.readHeader(), initial.header, "the refused create changed nothing")
        }
    }

    func testCreateRefusesAForeignDirectoryAndLeavesItAlone() throws {
        for kind in StoreKind.allCases {
            let directory = scratch.vaultURL()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let foreign = directory.appendingPathComponent("thesis.tex")
            try Data("chapter one".utf8).write(to: foreign)
            XCTAssertThrowsStoreError(.notAVault(path: directory.path), "\(kind)") {
                try StoreLayout.create(kind, at: directory, initial: initialChange())
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["thesis.tex"])
        }
    }

    func testCreateRefusesAChangeWithoutHeader() throws {
        for kind in StoreKind.allCases {
            let directory = scratch.vaultURL()
            XCTAssertThrowsError(try StoreLayout.create(kind, at: directory, initial: StoreChange(index: blob())))
            XCTAssertThrowsStoreError(.noVault(path: directory.path)) { try StoreLayout.detect(at: directory) }
        }
    }

    func testMissingOrEmptyDirectoryHoldsNoVault() throws {
        let missing = scratch.vaultURL()
        XCTAssertThrowsStoreError(.noVault(path: missing.path)) { try StoreLayout.detect(at: missing) }
        XCTAssertThrowsStoreError(.noVault(path: missing.path)) { try StoreLayout.open(at: missing) }
        let empty = scratch.vaultURL()
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertThrowsStoreError(.noVault(path: empty.path)) { try StoreLayout.detect(at: empty) }
        XCTAssertThrowsStoreError(.noVault(path: empty.path)) { try StoreLayout.open(at: empty) }
    }

    func testForeignDirectoryOrPlainFileIsNotAVault() throws {
        let foreign = scratch.vaultURL()
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: foreign.appendingPathComponent("vault.txt"))
        XCTAssertThrowsStoreError(.notAVault(path: foreign.path)) { try StoreLayout.detect(at: foreign) }
        XCTAssertThrowsStoreError(.notAVault(path: foreign.path)) { try StoreLayout.open(at: foreign) }
        let plainFile = scratch.vaultURL()
        try Data("x".utf8).write(to: plainFile)
        XCTAssertThrowsStoreError(.notAVault(path: plainFile.path)) { try StoreLayout.detect(at: plainFile) }
        for kind in StoreKind.allCases {
            XCTAssertThrowsStoreError(.notAVault(path: plainFile.path)) {
                try StoreLayout.create(kind, at: plainFile, initial: initialChange())
            }
        }
    }

    func testCreateMakesMissingParentDirectories() throws {
        for kind in StoreKind.allCases {
            let directory = scratch.vaultURL().appendingPathComponent("a/b/vault")
            let store = try StoreLayout.create(kind, at: directory, initial: initialChange())
            XCTAssertEqual(try StoreLayout.detect(at: directory), kind)
            XCTAssertEqual(try mode(of: directory), 0o700)
            XCTAssertEqual(try mode(of: directory.deletingLastPathComponent()), 0o700)
            XCTAssertNotNil(try store.readIndex())
        }
    }

    // MARK: - Apply

    func testApplyPutsReplacesAndDeletesEntries() {
        scratch.forEachNewStore { store, initial in
            let ids = Array(initial.putEntries.keys)
            let added = UUID()
            let replacement = blob()
            try store.withWriteLock {
                try store.apply(
                    StoreChange(putEntries: [added: [1, 2, 3], ids[0]: replacement], deleteEntries: [ids[1]]))
            }
            XCTAssertEqual(Set(try store.entryIDs()), [added, ids[0]], "\(store.kind)")
            XCTAssertEqual(try store.readEntry(added), [1, 2, 3])
            XCTAssertEqual(try store.readEntry(ids[0]), replacement)
            XCTAssertNil(try store.readEntry(ids[1]))
            XCTAssertEqual(try store.readHeader(), initial.header, "untouched header stays")
            XCTAssertEqual(try store.readIndex(), initial.index, "untouched index stays")
        }
    }

    func testApplyReplacesHeaderAndIndex() {
        scratch.forEachNewStore { store, initial in
            let header = blob(80), index = blob(500)
            try store.withWriteLock { try store.apply(StoreChange(header: header)) }
            XCTAssertEqual(try store.readHeader(), header)
            XCTAssertEqual(try store.readIndex(), initial.index)
            try store.withWriteLock { try store.apply(StoreChange(index: index)) }
            XCTAssertEqual(try store.readIndex(), index)
            let reopened = try StoreLayout.open(at: store.directory)
            XCTAssertEqual(try reopened.readHeader(), header, "\(store.kind): durable across reopen")
            XCTAssertEqual(try reopened.readIndex(), index)
            XCTAssertEqual(Set(try reopened.entryIDs()), Set(initial.putEntries.keys))
        }
    }

    func testDeletingAMissingEntryIsNotAnErrorAndEmptyChangeDoesNothing() {
        scratch.forEachNewStore { store, initial in
            try store.withWriteLock {
                try store.apply(StoreChange(deleteEntries: [UUID()]))
                try store.apply(StoreChange())
            }
            XCTAssertEqual(Set(try store.entryIDs()), Set(initial.putEntries.keys), "\(store.kind)")
        }
    }

    func testAnEntryBothPutAndDeletedEndsUpPut() {
        scratch.forEachNewStore { store, _ in
            let id = UUID()
            try store.withWriteLock { try store.apply(StoreChange(putEntries: [id: [9]], deleteEntries: [id])) }
            XCTAssertEqual(try store.readEntry(id), [9], "\(store.kind)")
        }
    }

    func testForEachEntryVisitsEveryEntryOnce() {
        scratch.forEachNewStore(initial: initialChange(entries: 7)) { store, initial in
            var seen = [UUID: [UInt8]]()
            try store.forEachEntry { id, bytes in
                XCTAssertNil(seen.updateValue(bytes, forKey: id), "\(store.kind): \(id) visited twice")
            }
            XCTAssertEqual(seen, initial.putEntries, "\(store.kind)")
        }
    }

    func testLargeMultiEntryChangeLandsWhole() {
        scratch.forEachNewStore { store, _ in
            var puts = [UUID: [UInt8]]()
            for _ in 0..<200 { puts[UUID()] = blob(1000) }
            try store.withWriteLock { try store.apply(StoreChange(index: blob(), putEntries: puts)) }
            let reopened = try StoreLayout.open(at: store.directory)
            for (id, bytes) in puts { XCTAssertEqual(try reopened.readEntry(id), bytes) }
            XCTAssertEqual(try reopened.entryIDs().count, 202, "\(store.kind)")
        }
    }

    // MARK: - Files on disk

    func testFilesAre0600AndDirectories0700WhateverTheUmask() throws {
        let previous = umask(0)
        defer { umask(previous) }
        scratch.forEachNewStore { store, _ in
            try store.withWriteLock {
                try store.apply(StoreChange(index: blob(), putEntries: [UUID(): blob(), UUID(): blob()]))
            }
            _ = try store.readHeader()
            XCTAssertEqual(try mode(of: store.directory), 0o700, "\(store.kind)")
            let files = try store.storeFiles()
            XCTAssertFalse(files.isEmpty)
            XCTAssertTrue(files.contains("vault.lock"), "\(store.kind): \(files)")
            for name in files {
                XCTAssertEqual(
                    try mode(of: store.directory.appendingPathComponent(name)), 0o600, "\(store.kind): \(name)")
            }
            if store.kind == .files {
                XCTAssertEqual(try mode(of: store.directory.appendingPathComponent("entries")), 0o700)
            }
        }
    }

    func testTemporaryFilesAndJunkAreNotEntriesAndWritersRemoveTemporaries() {
        scratch.forEachNewStore { store, initial in
            let entries = store.directory.appendingPathComponent("entries")
            try FileManager.default.createDirectory(at: entries, withIntermediateDirectories: true)
            let upper = UUID().uuidString.uppercased()
            for name in [".tmp-3f2a", "README", upper, "not-a-uuid"] {
                try Data([1, 2]).write(to: entries.appendingPathComponent(name))
            }
            try Data([1]).write(to: store.directory.appendingPathComponent(".tmp-99"))
            XCTAssertEqual(Set(try store.entryIDs()), Set(initial.putEntries.keys), "\(store.kind)")
            var visited = 0
            try store.forEachEntry { _, _ in visited += 1 }
            XCTAssertEqual(visited, initial.putEntries.count)
            if store.kind == .files {
                let listed = try store.storeFiles()
                for name in ["entries/README", "entries/\(upper)", "entries/not-a-uuid", "entries/.tmp-3f2a"] {
                    XCTAssertTrue(listed.contains(name), "storeFiles lists \(name): \(listed)")
                }
            }
            try store.withWriteLock { try store.apply(StoreChange(index: blob())) }
            let top = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            XCTAssertFalse(top.contains(".tmp-99"), "\(store.kind): \(top)")
            if store.kind == .files {
                // Writers stage in the vault directory only, so they never scan `entries/`
                // (that would cost O(entries) per write); junk there is ignored, not removed.
                let left = try FileManager.default.contentsOfDirectory(atPath: entries.path)
                XCTAssertTrue(left.contains("README"), "writers leave files that are not theirs")
            }
        }
    }
}
