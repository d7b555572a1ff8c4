import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `PageOpener.open(reading:)`: pages read on the calling thread while other threads open
/// them give what reading all, then opening, gives; a page absent, another page's bytes, or a
/// read that fails part-way are reported as the plain path reports them, without a hang.
final class PageOpenerReadingTests: VaultTestCase {
    private struct ReadFailed: Error, Equatable {}

    private func setUp(_ kind: StoreKind) throws -> (PageOpener, [Int: [UInt8]], [Int]) {
        let vault = try makeVault(kind)
        for i in 0..<40 { try vault.add(text: "Entry \(i)", date: Date(timeIntervalSince1970: Double(i) * 86_400)) }
        let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        try reopened.sealedIndex.ensureAllDirectories()
        let root = reopened.sealedIndex.index
        let opener = PageOpener(vaultID: reopened.header.vaultID, keyRing: reopened.keyRing, root: root)
        let numbers = root.records.keys.sorted()
        XCTAssertGreaterThanOrEqual(numbers.count, PageOpener.parallelFrom, "the threaded path is the one tested")
        return (opener, try reopened.backend.readIndexPages(), numbers)
    }

    func testPagesReadWhileOthersOpenAreThoseOpenedAfterReading() throws {
        forEachStoreKind { kind in
            let (opener, stored, numbers) = try setUp(kind)
            let plain = opener.open(numbers.map { ($0, stored[$0]) }, buffer: PlaintextBuffer())
            let read = try opener.open(reading: numbers, buffer: PlaintextBuffer()) { stored[$0] }
            XCTAssertNotNil(read)
            XCTAssertEqual(read, plain)
            XCTAssertEqual(read?.map(\.number), numbers, "in the order given")
        }
    }

    func testAnAbsentOrMisplacedPageFailsTheWhole() throws {
        forEachStoreKind { kind in
            let (opener, stored, numbers) = try setUp(kind)
            for bad in [numbers.first!, numbers[numbers.count / 2], numbers.last!] {
                XCTAssertNil(
                    try opener.open(reading: numbers, buffer: PlaintextBuffer()) { $0 == bad ? nil : stored[$0] })
                let other = numbers.first { $0 != bad }!
                XCTAssertNil(
                    try opener.open(reading: numbers, buffer: PlaintextBuffer()) { stored[$0 == bad ? other : $0] })
            }
        }
    }

    func testAReadThatFailsPartWayThrowsItsError() throws {
        forEachStoreKind { kind in
            let (opener, stored, numbers) = try setUp(kind)
            for failing in [numbers.first!, numbers[numbers.count / 2], numbers.last!] {
                XCTAssertThrowsError(
                    try opener.open(reading: numbers, buffer: PlaintextBuffer()) { number in
                        if number == failing { throw ReadFailed() }
                        return stored[number]
                    }
                ) { XCTAssertEqual($0 as? ReadFailed, ReadFailed()) }
            }
        }
    }
}
