import Foundation
import XCTest

/// `diary passwd` and `diary rekey` on one machine reach the others at their next sync.
final class SyncKeyTests: XCTestCase {
    func testPasswdOnOneMachineReachesTheOther() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let net = try SyncMachines(kind)
            let a = try net.first(entries: ["one"])
            let b = try net.join(store: "files")
            let newPass = try a.passphraseFile("violet anchor meadow drift")
            try a.ok(["passwd", "--new-passphrase-file", newPass])
            a.environment["DIARY_PASSPHRASE_FILE"] = newPass
            try net.sync(0)
            let followed = try net.sync(1)
            XCTAssertTrue(followed.stderr.contains("passphrase was changed on 'machine-0'"), followed.stderr)
            // On B the old passphrase stops working and the new one opens.
            XCTAssertEqual(try b.run(["list"]).status, 77)
            let bNew = try b.passphraseFile("violet anchor meadow drift")
            XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": bNew]).status, 0)
        }
    }

    func testConcurrentPasswdEndsWithOnePassphraseAndSaysSo() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        let passA = try a.passphraseFile("amber canyon whistle oak")
        let passB = try b.passphraseFile("cobalt river sparrow mint")
        try a.ok(["passwd", "--new-passphrase-file", passA])
        try b.ok(["passwd", "--new-passphrase-file", passB])
        a.environment["DIARY_PASSPHRASE_FILE"] = passA
        b.environment["DIARY_PASSPHRASE_FILE"] = passB
        try net.sync(0)
        // B saw A's change when it published its own: B's is the later one, on every machine.
        let second = try net.sync(1)
        XCTAssertFalse(second.stderr.contains("passphrase was changed"), second.stderr)
        let third = try net.sync(0)
        XCTAssertTrue(third.stderr.contains("passphrase was changed on 'machine-1'"), third.stderr)
        for machine in [a, b] {
            XCTAssertEqual(try machine.run(["list"], env: ["DIARY_PASSPHRASE_FILE": passB]).status, 0)
            XCTAssertEqual(try machine.run(["list"], env: ["DIARY_PASSPHRASE_FILE": passA]).status, 77)
        }
    }

    func testRekeyReachesTheOtherMachinesWhichKeepWorking() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["before the rotation"])
        let b = try net.join()
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("after the rotation".utf8))
        try net.sync(0)
        // B follows with the passphrase (from its file here; a prompt on a terminal).
        let followed = try net.sync(1)
        XCTAssertTrue(followed.stderr.contains("vault key was rotated on 'machine-0'"), followed.stderr)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        try b.ok(["new"], stdin: Data("from B under the new key".utf8))
        try net.sync(1)
        try net.sync(0)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 3)
        // A machine joining now reads records sealed under both keys.
        _ = try net.join()
        XCTAssertEqual(try net.snapshot(2), try net.snapshot(0))
        // B's vault now has the new key: it is rotated, not merely readable.
        let verify = try b.ok(["verify"])
        XCTAssertEqual(verify.status, 0)
    }

    func testFollowingARekeyWithoutAPassphraseSaysWhatIsNeeded() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["x"])
        let b = try net.join()
        try a.ok(["rekey"])
        try net.sync(0)
        // An agent-held key and no passphrase file: nothing can be asked.
        try b.ok(["unlock"])
        let stuck = try b.run(["sync"], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(stuck.status, 75, stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("rotated on 'machine-0'"), stuck.stderr)
        try b.ok(["sync"])
        XCTAssertEqual(try b.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": ""]).status, 0)
    }
}
