import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// Key changes through the membership chain (issue 21, items 2, 3, 5): adopted only with the
/// passphrase's proof, concurrent ones a fork that a rekey settles, no log orphaned.
final class SyncChainTests: VaultTestCase {
    private var machines: SyncTestMachines!

    override func setUpWithError() throws {
        try super.setUpWithError()
        machines = SyncTestMachines(self)
    }

    private var chainFolder: URL { machines.remoteRoot.appendingPathComponent("chain") }

    func testARotationIsFollowedWithThePassphraseAndOldRecordsStayReadable() throws {
        try machines.start("laptop", entries: ["before"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.rekey("laptop")
        try machines["laptop"].add(text: "after")
        try machines.sync("laptop")
        XCTAssertThrowsError(try machines.sync("desktop")) {
            XCTAssertEqual($0 as? SyncError, .needsPassphrase(machine: "laptop"))
        }
        let report = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertTrue(report.keyChanged)
        XCTAssertEqual(try machines.texts("desktop"), ["after", "before"])
        XCTAssertEqual(machines["desktop"].keyGeneration, machines["laptop"].keyGeneration)
        // A machine joining now reads records under both keys.
        try machines.join("phone", invitedBy: "desktop", store: .sqlite)
        XCTAssertEqual(try machines.texts("phone"), ["after", "before"])
    }

    /// Item 3: a passphrase changed elsewhere is adopted only when the new passphrase is given.
    func testAPassphraseChangeIsAdoptedOnlyWithItsPassphrase() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.changePassphrase("laptop", to: "new horse battery")
        try machines.sync("laptop")
        let header = machines["desktop"].encodedHeader
        let quiet = try machines.sync("desktop")
        XCTAssertTrue(quiet.notes.contains(.passphraseChangeNotAdopted(machine: "laptop")))
        XCTAssertEqual(machines["desktop"].encodedHeader, header)
        let wrong = try machines.sync("desktop", passphrase: "a guess")
        XCTAssertTrue(wrong.notes.contains(.passphraseChangeNotAdopted(machine: "laptop")))
        XCTAssertEqual(machines["desktop"].encodedHeader, header)
        let adopted = try machines.sync("desktop", passphrase: "new horse battery")
        XCTAssertTrue(adopted.notes.contains(.passphraseChangeFollowed(machine: "laptop")))
        XCTAssertNoThrow(try Vault.open(at: machines["desktop"].directory, passphrase: secret("new horse battery")))
    }

    /// Item 5: two rotations stated from one statement are a fork: every machine stops and says
    /// so; a rekey on one settles it, retiring both keys, and a new machine gets every entry.
    func testConcurrentRotationsForkAndARekeySettlesThem() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.rekey("laptop")
        try machines["laptop"].add(text: "laptop after its rekey")
        try machines.sync("laptop")
        // The host hides the laptop's statement from the desktop while it states its own.
        let hidden = try FileManager.default.contentsOfDirectory(atPath: chainFolder.path).sorted().last!
        let aside = path("aside")
        try FileManager.default.moveItem(at: chainFolder.appendingPathComponent(hidden), to: aside)
        try machines.rekey("desktop")
        try machines["desktop"].add(text: "desktop after its rekey")
        _ = try machines.sync("desktop")  // states its rotation, not knowing the laptop's
        try FileManager.default.moveItem(at: aside, to: chainFolder.appendingPathComponent(hidden))
        for machine in ["laptop", "desktop"] {
            XCTAssertThrowsError(try machines.sync(machine, passphrase: "correct horse")) { error in
                guard case SyncError.chainForked = error else { return XCTFail("\(machine): \(error)") }
            }
        }
        try machines.rekey("laptop")
        let settled = try machines.sync("laptop", passphrase: "correct horse")
        XCTAssertTrue(settled.notes.contains(.forkSettled))
        try machines.sync("desktop", passphrase: "correct horse")
        try machines.sync("laptop")
        let all = ["desktop after its rekey", "laptop after its rekey", "one"]
        XCTAssertEqual(try machines.texts("laptop"), all)
        XCTAssertEqual(try machines.texts("desktop"), all)
        try machines.join("phone", invitedBy: "laptop", store: .sqlite)
        XCTAssertEqual(try machines.texts("phone"), all)
    }

    /// Two machines settle one fork at once: each settle supersedes the other's branch, so the
    /// fork goes on between the two settles; a rekey on either names both (the tips of the
    /// whole graph) and ends it, and a new machine joins (found by the sync model, soak seed
    /// 6857031128257227473: each later settle named its own statements and the fork never ended).
    func testTwoSettlesOfOneForkAreAForkThatARekeyEnds() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.rekey("laptop")
        try machines.sync("laptop")
        try stateHidingTheNewestStatement(from: "desktop") { try machines.rekey("desktop") }
        for machine in ["laptop", "desktop"] {
            XCTAssertThrowsError(try machines.sync(machine, passphrase: "correct horse"))
        }
        try machines.rekey("laptop")
        try machines.sync("laptop", passphrase: "correct horse")  // the laptop's settle
        try stateHidingTheNewestStatement(from: "desktop") { try machines.rekey("desktop") }
        for machine in ["laptop", "desktop"] {
            XCTAssertThrowsError(try machines.sync(machine, passphrase: "correct horse"), machine) { error in
                guard case SyncError.chainForked = error else { return XCTFail("\(machine): \(error)") }
            }
        }
        try machines.rekey("desktop")
        try machines["desktop"].add(text: "after the settles")
        XCTAssertTrue(try machines.sync("desktop", passphrase: "correct horse").notes.contains(.forkSettled))
        try machines.sync("laptop", passphrase: "correct horse")
        XCTAssertEqual(try machines.texts("laptop"), ["after the settles", "one"])
        try machines.join("phone", invitedBy: "laptop", store: .sqlite)
        XCTAssertEqual(try machines.texts("phone"), ["after the settles", "one"])
    }

    /// `change` on `machine`, then a sync of it while the host hides the newest statement from
    /// it (so it states its change beside that one), which the host then shows again.
    private func stateHidingTheNewestStatement(from machine: String, change: () throws -> Void) throws {
        let hidden = try FileManager.default.contentsOfDirectory(atPath: chainFolder.path).sorted {
            $0.prefix(12) < $1.prefix(12)
        }.last!
        let aside = path("aside")
        try FileManager.default.moveItem(at: chainFolder.appendingPathComponent(hidden), to: aside)
        try change()
        _ = try? machines.sync(machine, passphrase: "correct horse")
        try FileManager.default.moveItem(at: aside, to: chainFolder.appendingPathComponent(hidden))
    }

    /// A removed machine's later records are not read, and it cannot write under the new key.
    func testARemovedMachineWritesNothingMore() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.join("phone", invitedBy: "laptop", store: .sqlite)
        _ = try SyncMembership.markRemoval(
            name: "phone", vault: machines["laptop"], stateDirectory: machines.state("laptop"))
        try machines.rekey("laptop")
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")
        try machines["phone"].add(text: "from the removed phone")
        XCTAssertThrowsError(try machines.sync("phone"))  // it cannot follow without the passphrase
        let status = try SyncMembership.status(vault: machines["desktop"], stateDirectory: machines.state("desktop"))
        XCTAssertEqual(status.members.first { $0.name == "phone" }?.removed, true)
        XCTAssertEqual(try machines.texts("desktop"), ["one"])
    }

    /// An invite works once, and only for the chain it names.
    func testAnInviteWorksOnce() throws {
        try machines.start("laptop", entries: ["one"])
        let code = try SyncMembership.invite(
            vault: machines["laptop"], stateDirectory: machines.state("laptop"), name: "x")
        let invite = try InviteCode(text: code)
        _ = try SyncLifecycle.join(
            remote: machines.remote, to: path("first"), store: .sqlite, machineName: "first",
            passphrase: secret("correct horse"), invite: invite, stateDirectory: machines.state("first"))
        try machines.sync("laptop")
        XCTAssertEqual(try machines.main("laptop").chain.members.count, 2)
        _ = try SyncLifecycle.join(
            remote: machines.remote, to: path("second"), store: .sqlite, machineName: "second",
            passphrase: secret("correct horse"), invite: invite, stateDirectory: machines.state("second"))
        try machines.sync("laptop")
        XCTAssertEqual(try machines.main("laptop").chain.members.count, 2, "a used invite admits nobody")
    }

    /// A machine off while another rotated twice follows straight to the newest key (its vault
    /// rotates across the generations it missed) and reads every record.
    func testAMachineOffThroughTwoRotationsFollowsTheNewest() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.rekey("laptop")
        try machines["laptop"].add(text: "under the second key")
        try machines.sync("laptop")
        try machines.rekey("laptop")
        try machines["laptop"].add(text: "under the third key")
        try machines.sync("laptop")
        let report = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertTrue(report.keyChanged)
        XCTAssertEqual(machines["desktop"].keyGeneration, machines["laptop"].keyGeneration)
        XCTAssertEqual(try machines.texts("desktop"), ["one", "under the second key", "under the third key"])
        XCTAssertNoThrow(try Vault.open(at: machines["desktop"].directory, passphrase: secret("correct horse")))
    }

    /// A rotation made on a machine that had not taken a passphrase set elsewhere would publish
    /// the new key under the old passphrase: it is refused until this machine has the new one.
    func testARotationUnderAReplacedPassphraseIsNotPublished() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.changePassphrase("laptop", to: "new horse battery")
        try machines.sync("laptop")
        try machines.sync("desktop")  // no passphrase at hand: not adopted
        try machines.rekey("desktop")
        XCTAssertThrowsError(try machines.sync("desktop")) {
            XCTAssertEqual($0 as? SyncError, .keyChangeUnderOldPassphrase(machine: "laptop"))
        }
        try machines.changePassphrase("desktop", to: "new horse battery")
        try machines.sync("desktop")
        try machines.sync("laptop", passphrase: "new horse battery")
        let head = try XCTUnwrap(try machines.main("laptop").chain.headerStatement)
        let header = try Data(
            contentsOf: machines.remoteRoot.appendingPathComponent(
                RemoteLayout.headerPath(chainSeq: head.seq, author: head.author, store: .sqlite)))
        XCTAssertThrowsError(try Vault.unwrapHeader(Array(header), passphrase: secret("correct horse")))
        XCTAssertNoThrow(try Vault.unwrapHeader(Array(header), passphrase: secret("new horse battery")))
    }

    /// A rotation, then an admit under the new key (which publishes no header): a machine that
    /// missed both still finds the rotation's header, follows, and reads everything (found by
    /// the sync model, seed 16276380010936744262).
    func testARotationFollowedByAnAdmitIsStillFollowed() throws {
        try machines.start("laptop", entries: ["first"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.rekey("laptop")
        try machines["laptop"].add(text: "second")
        try machines.sync("laptop")
        try machines.join("phone", invitedBy: "laptop", store: .sqlite)
        try machines["phone"].add(text: "from the phone")
        try machines.sync("phone")
        let report = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertTrue(report.keyChanged)
        XCTAssertEqual(report.pending, [])
        XCTAssertEqual(try machines.texts("desktop"), ["first", "from the phone", "second"])
    }

    /// A rotation, an admit, then the new member's rotation: the first rotation's header is gone
    /// (superseded), and the newest statement's author is admitted by a statement only the newest
    /// key opens. A machine that missed all three still follows (found by the sync model, seed
    /// 10462079117957769504: it waited for ever and missed every entry written after).
    func testAMachineThatMissedARotationAnAdmitAndTheNewMembersRotationFollows() throws {
        try machines.start("laptop", entries: ["first"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.rekey("laptop")
        try machines.sync("laptop")
        try machines.join("phone", invitedBy: "laptop", store: .sqlite)
        try machines.rekey("phone")
        try machines["phone"].add(text: "from the phone")
        try machines.sync("phone")
        try machines.sync("laptop", passphrase: "correct horse")  // follows, and removes the first header
        let report = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertTrue(report.keyChanged)
        XCTAssertEqual(report.pending, [])
        XCTAssertEqual(machines["desktop"].keyGeneration, machines["phone"].keyGeneration)
        XCTAssertEqual(try machines.texts("desktop"), ["first", "from the phone"])
    }

    /// A deletion taken in by the same sync that follows a rotation reaches the vault: the
    /// rotation sealed every entry again, and sync must not take that for an edit made here
    /// (found by the sync model, seed 14410705608916536086).
    func testADeletionTakenInWhileFollowingARotationReachesTheVault() throws {
        try machines.start("laptop")
        try machines.join("desktop", invitedBy: "laptop")
        let id = try machines["laptop"].add(text: "to be deleted").id
        try machines.sync("laptop")
        try machines.sync("desktop")
        try SyncDeletions.deleting([id], vault: machines["laptop"], stateDirectory: machines.state("laptop")) {
            try machines["laptop"].delete(id)
        }
        try machines.sync("laptop")
        try machines.rekey("laptop")
        try machines.sync("laptop")
        let report = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertTrue(report.keyChanged)
        XCTAssertEqual(report.deleted, 1)
        XCTAssertEqual(try machines.texts("desktop"), [])
        let reopened = try Vault.open(at: machines["desktop"].directory, passphrase: secret("correct horse"))
        XCTAssertEqual(try reopened.list().count, 0)
    }

    /// A published header whose key derivation costs less than this vault's is never adopted:
    /// it would make the passphrase cheaper to guess on this machine.
    func testAHeaderCheaperThanThisVaultsIsRefused() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.changePassphrase("desktop", to: "a costlier horse", kdf: .interactive)
        try machines.sync("desktop")
        try machines.sync("laptop", passphrase: "a costlier horse")
        machines.adopted("laptop", passphrase: "a costlier horse")
        try machines.changePassphrase("laptop", to: "a cheaper horse", kdf: .insecureForTesting)
        try machines.sync("laptop")
        XCTAssertThrowsError(try machines.sync("desktop", passphrase: "a cheaper horse")) { error in
            guard case SyncError.untrustedRemote(let findings) = error,
                case .headerCheaper = findings.first
            else { return XCTFail("\(error)") }
        }
    }

    /// A sync cut short after it wrote its key change's statement, before it saved that it had:
    /// the next sync finds the statement its own and states nothing twice.
    func testAKeyChangeStatedByASyncCutShortIsNotStatedAgain() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.rekey("laptop")
        SyncFaults.hook = { if $0 == "sync.stated" { throw SyncFaults.Crash.crashed } }
        defer { SyncFaults.hook = nil }
        XCTAssertThrowsError(try machines.sync("laptop"))
        SyncFaults.hook = nil
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")
        let kinds = try machines.main("desktop").chain.statements.map(\.kind)
        XCTAssertEqual(kinds, [.genesis, .admit, .rekey])
        XCTAssertEqual(try machines.texts("desktop"), ["one"])
    }
}
