import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Two processes writing one vault at the same time (DESIGN.md invariant 4: concurrent commands
/// are serialised by a lock and none of their entries is dropped), run against both stores.
final class VaultConcurrencyTests: VaultTestCase {
    func testTwoProcessesAddingAtOnceKeepEveryEntry() throws {
        _ = try StressChild.executable()
        forEachStoreKind { kind in
            let perChild = 200
            let vault = try makeVault(kind)
            let passFile = path("pass-\(kind.rawValue)")
            try writePassphraseFile("correct horse", to: passFile)
            let go = path("go-\(kind.rawValue)")
            let started = Date()
            let children = try ["left", "right"].map { label in
                try StressChild(
                    ["add-many", vault.directory.path, passFile.path, "\(perChild)", label, go.path],
                    logs: scratch, name: "\(kind.rawValue)-\(label)")
            }
            // Both open the vault first, then start writing at the same instant.
            for child in children { XCTAssertTrue(child.waitFor(line: "READY"), child.errorOutput) }
            XCTAssertTrue(FileManager.default.createFile(atPath: go.path, contents: nil))
            for child in children {
                XCTAssertTrue(child.waitForExit(timeout: 120), "a child hung")
                XCTAssertTrue(child.exitedCleanly, "child failed: \(child.errorOutput)")
                XCTAssertEqual(child.lines().last, "DONE")
            }

            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(reopened.indexState, .ok)
            let listed = try reopened.list()
            XCTAssertEqual(listed.count, 2 * perChild)
            var texts = Set<String>()
            for summary in listed { texts.insert(try reopened.entry(summary.id).text) }
            let expected = Set(
                ["left", "right"].flatMap { label in
                    (0..<perChild).map { "\(label) \($0)\n동시에 쓰는 일기 \($0) — concurrent entry" }
                })
            XCTAssertEqual(texts, expected)
            // Every id a child acknowledged is in the vault.
            let acknowledged = Set(
                children.flatMap { $0.lines() }.filter { $0.hasPrefix("ADD ") }.map {
                    $0.split(separator: " ")[1]
                })
            XCTAssertEqual(acknowledged, Set(listed.map { Substring($0.id.uuidString.lowercased()) }))
            let report = try reopened.verify()
            XCTAssertTrue(report.isClean, "\(report.damaged)")
            XCTAssertEqual(report.checkedEntries, 2 * perChild)

            // The two writers really overlapped in time: each wrote while the other was writing.
            let windows = ["left", "right"].map { label in
                let dates = listed.filter { $0.tags == [label] }.map(\.created)
                return (dates.min()!, dates.max()!)
            }
            let overlapped = windows[0].0 < windows[1].1 && windows[1].0 < windows[0].1
            print(
                "concurrency \(kind.rawValue): \(2 * perChild) entries by two processes in "
                    + String(format: "%.2f s", Date().timeIntervalSince(started)) + ", overlapped: \(overlapped)")
            XCTAssertTrue(overlapped, "the two children did not write at the same time")
        }
    }
}
