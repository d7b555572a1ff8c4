import DiarySync
import Foundation
import XCTest

@testable import diary

/// The words the CLI gives DiarySync's typed findings, notes and refusals: the sentences the
/// library used to build itself, byte for byte.
final class SyncFindingTextTests: XCTestCase {
    private let machine = UUID(uuidString: "0011AABB-2233-4455-6677-8899AABBCCDD")!

    func testFindingsReadAsBefore() {
        XCTAssertEqual(
            SyncFindingText.finding(
                .rewound(head: String(repeating: "a", count: 40), lastSeenCommit: String(repeating: "b", count: 40))),
            "the remote was rewound: commit aaaaaaaaaaaa does not contain bbbbbbbbbbbb, which this machine had seen (a force-push?)"
        )
        XCTAssertEqual(
            SyncFindingText.finding(.fileRewritten(status: "M", path: "log/ab/000000000001")),
            "the remote changed a file that is never rewritten: M log/ab/000000000001")
        XCTAssertEqual(
            SyncFindingText.finding(.recordRemoved(machine: "machine-0", seq: 1, readUpTo: 3)),
            "record 1 of machine 'machine-0' was removed (this machine had read up to 3)")
        XCTAssertEqual(
            SyncFindingText.finding(.recordWrittenTwice(machine: machine, seq: 3, copy: "log/x/000000000003 (1)")),
            "machine 0011aabb wrote two different records 3 (log/x/000000000003 (1)): a copied machine or a forged log")
        XCTAssertEqual(
            SyncFindingText.finding(.recordNotAuthentic(path: "log/x/000000000002", fault: .doesNotAuthenticate)),
            "log/x/000000000002 is not an authentic record of this vault (does not authenticate): edited, swapped or damaged"
        )
        XCTAssertEqual(
            SyncFindingText.finding(.markerGone(file: "diary-sync")),
            "the remote's 'diary-sync' file is gone: not the remote this machine synced with, or emptied")
    }

    func testNotesAndPendingRecordsReadAsBefore() {
        XCTAssertEqual(
            SyncFindingText.note(.passphraseChangeFollowed(machine: "machine-0")),
            "the passphrase was changed on 'machine-0': from now on this vault opens with the passphrase set there")
        XCTAssertEqual(
            SyncFindingText.note(.unannouncedPassphraseChangePublished),
            "this vault's passphrase was changed here without sync being told (an interrupted `diary passwd`?); publishing it now"
        )
        XCTAssertEqual(
            SyncFindingText.pending(.notArrived(machine: "desk", seq: 4, laterSeq: 6)),
            "machine 'desk': record 4 has not arrived yet (record 6 has)")
        XCTAssertEqual(
            SyncFindingText.pending(.stillArriving(path: "log/x/000000000004", bytes: 12)),
            "log/x/000000000004 is still arriving (12 bytes so far)")
    }

    func testRemoteProblemsAndRefusalsReadAsBefore() {
        XCTAssertEqual(
            SyncFindingText.problem(.otherMachinesPushedFirst(attempts: 5)),
            "other machines pushed first five times in a row; this machine's changes are kept and go with the next `diary sync`"
        )
        XCTAssertEqual(
            SyncFindingText.problem(.gitFailed(command: "push", message: nil, status: 128)), "git push: exit 128")
        XCTAssertEqual(
            SyncFindingText.problem(.gitFailed(command: "fetch", message: "fatal: no such remote", status: 128)),
            "git fetch: fatal: no such remote")
        // Sorted as quoted names, as the library sorted them.
        XCTAssertEqual(
            SyncFindingText.refusal(.severalOtherVersions(machines: ["b", "b b"])),
            "2 versions came from other machines ('b b', 'b'): --keep theirs would drop all but one; use --keep both to keep every version, or --edit"
        )
    }

    func testWhatAHostilePlantsInTheRemoteIsNamed() {
        XCTAssertEqual(
            SyncFindingText.finding(.treeEntryRefused(path: "log/etc", mode: "120000")),
            "the remote's git tree holds log/etc (a symbolic link), which diary never writes")
        XCTAssertEqual(
            SyncFindingText.finding(.treeEntryRefused(path: "log/.gitattributes", mode: "100644")),
            "the remote's git tree holds log/.gitattributes (a git control file), which diary never writes")
        XCTAssertEqual(
            SyncFindingText.problem(.wrongEntryKind(path: "/r/keys", found: .symbolicLink)),
            "/r/keys is a symbolic link where the remote needs a folder or a file; diary follows no links there")
        XCTAssertEqual(
            SyncFindingText.problem(.gitTimedOut(command: "fetch", seconds: 120)),
            "git fetch did not finish within 120 seconds and was stopped")
    }

    func testAnUntrustedRemoteListsEachFindingEscapedOnItsOwnLine() throws {
        let report = try XCTUnwrap(
            ErrorReport(
                SyncError.untrustedRemote([
                    .recordReplaced(machine: "desk", seq: 2), .logGone(machine: "evil\u{1b}[31m", recordsRead: 1),
                ])))
        XCTAssertEqual(report.code, .damaged)
        XCTAssertEqual(report.message, "the remote contradicts what this machine saw before; nothing was synced:")
        XCTAssertEqual(
            report.details,
            [
                "  record 2 of machine 'desk' was replaced or truncated after this machine read it",
                "  the log of machine '\(Printable.escaped("evil\u{1b}[31m"))' is gone (this machine had read 1 record(s) of it)",
            ])
    }

    func testResolveErrorsKeepTheirStatusesAndWords() throws {
        let notInConflict = try XCTUnwrap(ErrorReport(SyncError.noConflict(machine)))
        XCTAssertEqual(notInConflict.message, "entry 0011aabb is not in conflict")
        XCTAssertEqual(notInConflict.code, .failure)
        let refused = try XCTUnwrap(ErrorReport(SyncError.cannotResolve(.everyVersionDeleted)))
        XCTAssertEqual(refused.message, "every version is a deletion; use --keep mine")
        XCTAssertEqual(refused.code, .usage)
        let markers = try XCTUnwrap(ErrorReport(CLIError.conflictMarkersLeft))
        XCTAssertEqual(markers.message, "the text still has conflict markers; nothing was changed")
        XCTAssertEqual(markers.code, .usage)
    }
}
