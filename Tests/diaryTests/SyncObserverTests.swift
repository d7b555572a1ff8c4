import XCTest

/// The host of a sync remote (a bare git repository, or a folder a file-sync tool replicates)
/// looks at what it holds (see `SyncObserverScenario`). Each assertion records one finding;
/// SECURITY.md's table states the same findings in its remote column (`ObserverTableTests`).
final class SyncObserverTests: XCTestCase {
    func testTheRemoteHidesEntriesButShowsMachinesSyncsAndKeyChanges() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let facts = try SyncObserverScenario.shared(kind).facts
            XCTAssertEqual(
                facts["count"], "no (one record per sync)", "\(kind): three new entries went out as one record")
            XCTAssertEqual(facts["ids"], "no", "\(kind): no entry id in any name or byte, raw or as text")
            XCTAssertEqual(
                facts["sizes"], "bucketed per record (512 B, then 8 per doubling)", "\(kind): 185 bytes + a bucket")
            XCTAssertEqual(facts["entry-mtime"], "no (records name no entry)")
            XCTAssertEqual(facts["entry-ctime"], "no (records name no entry)")
            XCTAssertEqual(facts["changed"], "no (only new records)", "\(kind): files are only ever added")
            XCTAssertEqual(facts["deletions"], "no (a delete's record looks like an edit's)")
            XCTAssertEqual(facts["edited-traces"], "yes (records are write-once)")
            XCTAssertEqual(facts["deleted-traces"], "yes (records are write-once)")
            XCTAssertEqual(facts["rekey-traces"], "yes (records are write-once)")
            XCTAssertEqual(
                facts["passwd-traces"],
                kind == .git
                    ? "only in git history (replaced headers removed from the tree)" : "no (replaced headers removed)")
            XCTAssertEqual(facts["kdf"], "yes (keys/ headers)")
            XCTAssertEqual(facts["vault-id"], "yes (marker, records, headers)")
            XCTAssertEqual(facts["key-generation"], "yes (keys/ headers, record key ids)")
            XCTAssertEqual(facts["plaintext"], "no", "\(kind): no text, title or tag in any byte the host holds")
            XCTAssertEqual(
                facts["machines"], "yes (one log per machine, from its join)",
                "\(kind): a machine shows as soon as it asks to join (record 1 of its log)")
            XCTAssertEqual(facts["syncs"], "yes (one record per sync that wrote)")
            XCTAssertEqual(facts["machine-names"], "no (sealed)")
        }
    }

    func testGitCommitsAreNeutralAndOnlyTheHostsOwnFilesDateThePushes() throws {
        let git = try SyncObserverScenario.shared(.git)
        XCTAssertEqual(git.facts["commit-metadata"], "neutral (diary <diary@invalid>, 2001-01-01, \"sync\")")
        XCTAssertEqual(git.facts["sync-times"], "yes (host's file times; commits dated 2001)")
        XCTAssertEqual(git.facts["vault-mtime"], "yes (host's file times; commits dated 2001)")
        XCTAssertGreaterThan(git.commitCount, 1)
        print("observer: sync git: \(git.commitCount) commits on main")
        let folder = try SyncObserverScenario.shared(.folder)
        XCTAssertEqual(folder.facts["commit-metadata"], "n/a (no commits)")
        XCTAssertEqual(folder.facts["sync-times"], "yes (file mtimes)", "the folder's record files carry real times")
        XCTAssertEqual(folder.facts["vault-mtime"], "yes (file mtimes)")
    }

    func testAnOldPassphraseOpensNothingInTheRemotesTreeAndDiaryRefusesIt() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let scenario = try SyncObserverScenario.shared(kind)
            // chain/ tells each change apart without a key: the clear key id stays for an
            // admission and a passphrase change (which publishes a header), and changes for rekey.
            XCTAssertEqual(scenario.keyChanges, ["init", "admit", "passwd", "rekey"], "\(kind)")
            // The header published before `passwd` is removed from the tree once `passwd` is
            // synced: the old passphrase opens no header there (FORMAT.md §3 and §12.4 with
            // libsodium; measured here). A git remote's history still holds it.
            XCTAssertFalse(scenario.oldPassphraseOpensCurrentKey, "\(kind)")
            // `diary sync join` itself refuses the old passphrase.
            XCTAssertFalse(scenario.oldPassphraseJoined, "\(kind)")
        }
    }

    func testTheObserversProbesCanSucceedOnTheRemote() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let scenario = try SyncObserverScenario.shared(kind)
            XCTAssertTrue(scenario.controls.machineIDFound, "\(kind): the machine id (clear by design) must be found")
            XCTAssertTrue(scenario.controls.recordFound, "\(kind): an old record's ciphertext must be found")
            XCTAssertTrue(scenario.controls.markerInScriptFound, "\(kind): a marker in a plaintext file must be found")
            print(
                "observer: sync \(kind) facts: \(scenario.facts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
            )
        }
    }
}
