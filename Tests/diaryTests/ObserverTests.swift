import XCTest

/// An observer without the passphrase looks at each store's files (see `ObserverScenario`).
/// Each assertion records one finding; SECURITY.md's table states the same findings
/// (`ObserverTableTests`). One test: it reads one scenario per store, each launching the binary
/// once per test process.
final class ObserverTests: XCTestCase {
    func testEachStoreShowsWhatTheTableSaysAndTheProbesWork() throws {
        try checkSQLiteStoreShowsCountsBucketedSizesIdsFreePagesAndTheHeader()
        try checkFilesStoreHidesEntryTimesButNotCountsSizesOrIds()
    }

    private func checkSQLiteStoreShowsCountsBucketedSizesIdsFreePagesAndTheHeader() throws {
        let scenario = try ObserverScenario.shared("sqlite")
        let facts = scenario.facts
        XCTAssertEqual(facts["count"], "yes (exact)", "entry count: SELECT count(*) FROM entry needs no key")
        XCTAssertEqual(facts["ids"], "yes (id column)", "entry UUIDs: the id column is clear")
        XCTAssertEqual(facts["sizes"], "bucketed (512 B, then 8 per doubling)", "sizes: padded to buckets")
        XCTAssertEqual(facts["entry-mtime"], "no (one file)", "no per-entry file to stat")
        XCTAssertEqual(facts["entry-ctime"], "no (one file)", "no per-entry file to stat")
        XCTAssertEqual(facts["vault-mtime"], "yes", "the database file's mtime dates the last write")
        XCTAssertEqual(facts["changed"], "yes (id column)", "rows whose sealed blob differs name the changed entries")
        XCTAssertEqual(
            facts["deleted-traces"], "no", "secure_delete and the log truncation leave no deleted ciphertext")
        XCTAssertEqual(facts["edited-traces"], "no", "secure_delete zeroes the replaced cell")
        XCTAssertEqual(
            facts["deletions"], "no", "auto_vacuum FULL: freed pages leave the file, none waits on the freelist")
        XCTAssertEqual(facts["passwd-traces"], "no", "the old header's wrapped key is not left behind")
        XCTAssertEqual(facts["kdf"], "yes (header)", "KDF parameters are clear by design")
        XCTAssertEqual(facts["vault-id"], "yes (header)")
        XCTAssertEqual(facts["key-generation"], "yes (envelope)")
        XCTAssertEqual(facts["plaintext"], "no", "no text, title or tag in any byte of any copy")
        XCTAssertEqual(facts["rekey-traces"], "no", "VACUUM after rotation leaves no old-key ciphertext")
        checkProbesAndLatency(scenario, store: "sqlite")
    }

    private func checkFilesStoreHidesEntryTimesButNotCountsSizesOrIds() throws {
        let scenario = try ObserverScenario.shared("files")
        let facts = scenario.facts
        XCTAssertEqual(facts["count"], "yes (exact)", "entry count: one file per entry")
        XCTAssertEqual(facts["ids"], "yes (file names)")
        XCTAssertEqual(facts["sizes"], "bucketed (512 B, then 8 per doubling)")
        XCTAssertEqual(facts["entry-mtime"], "no (random times)", "entry files carry random 2001 times")
        XCTAssertEqual(facts["entry-ctime"], "yes (original disk only)", "ctime cannot be set; copies get new ones")
        XCTAssertEqual(facts["vault-mtime"], "no (random times)", "directories carry random times too")
        XCTAssertEqual(facts["changed"], "yes (file names)")
        XCTAssertEqual(facts["deleted-traces"], "no", "the deleted file is gone from the directory")
        XCTAssertEqual(facts["deletions"], "no", "one copy shows only the live entries' files")
        XCTAssertEqual(facts["edited-traces"], "no", "the edited file was replaced")
        XCTAssertEqual(facts["passwd-traces"], "no", "the old header was replaced")
        XCTAssertEqual(facts["kdf"], "yes (header)")
        XCTAssertEqual(facts["vault-id"], "yes (header)")
        XCTAssertEqual(facts["key-generation"], "yes (envelope)")
        XCTAssertEqual(facts["plaintext"], "no")
        XCTAssertEqual(facts["rekey-traces"], "no")
        checkProbesAndLatency(scenario, store: "files")
    }

    /// Without these controls a "no" above could mean a probe that never finds anything; the
    /// latency of `diary new` is printed for the record.
    private func checkProbesAndLatency(
        _ scenario: ObserverScenario.Findings, store: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertTrue(
            scenario.controls.liveCiphertextFound, "\(store): a live entry's ciphertext must be found", file: file,
            line: line)
        XCTAssertTrue(
            scenario.controls.markerInScriptFound, "\(store): a marker in a plaintext file must be found", file: file,
            line: line)
        print("observer: \(store) facts: \(scenario.facts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })")
        XCTAssertGreaterThan(scenario.newLatencyMilliseconds, 0, file: file, line: line)
        print(
            "observer: \(store) `diary new` ≈ \(Int(scenario.newLatencyMilliseconds)) ms per entry (process start included)"
        )
    }
}
