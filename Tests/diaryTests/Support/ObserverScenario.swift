import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation
import XCTest

/// One life of a vault, watched by an `Observer`: created through the CLI, three entries
/// written, one edited, one deleted, the passphrase changed and the key rotated, with copies
/// (`cp -a`) taken along the way. `facts` holds what the observer could extract, as the
/// keywords SECURITY.md's table uses.
///
/// The vault uses `DIARY_INSECURE_TEST_KDF=1`, so the KDF parameters the observer reads are the
/// weak test ones; that they are readable at all is the finding.
final class ObserverScenario {
    /// Plaintext markers: none of them may appear in any byte of any file.
    static let markers = ["ZQXJTITLE", "ZQXJBODY", "zqxjtag"]

    let store: String
    private(set) var facts: [String: String] = [:]
    /// Rough wall time of one `diary new` (process start included), in milliseconds.
    private(set) var newLatencyMilliseconds = 0.0
    /// Controls that the observer's probes can succeed at all: a live entry's ciphertext is
    /// found by `traces`, and a marker is found in a plaintext file (the editor script).
    private(set) var controls: (liveCiphertextFound: Bool, markerInScriptFound: Bool) = (false, false)

    private let box: DiarySandbox
    private let copies: URL

    /// What a scenario measured: everything the tests read.
    struct Findings: Codable {
        struct Controls: Codable {
            var liveCiphertextFound: Bool
            var markerInScriptFound: Bool
        }

        var facts: [String: String]
        var newLatencyMilliseconds: Double
        var controls: Controls
    }

    /// Runs the scenario once per store per test run (`RunCache`), or per test process;
    /// both observer test classes share it.
    nonisolated(unsafe) private static var cache: [String: Findings] = [:]
    private static let lock = NSLock()

    static func shared(_ store: String) throws -> Findings {
        lock.lock()
        defer { lock.unlock() }
        if let done = cache[store] { return done }
        let findings = try RunCache.value("observer-\(store)") {
            let scenario = try ObserverScenario(store: store)
            try scenario.run()
            return Findings(
                facts: scenario.facts, newLatencyMilliseconds: scenario.newLatencyMilliseconds,
                controls: Findings.Controls(
                    liveCiphertextFound: scenario.controls.liveCiphertextFound,
                    markerInScriptFound: scenario.controls.markerInScriptFound))
        }
        cache[store] = findings
        return findings
    }

    private init(store: String) throws {
        self.store = store
        box = try DiarySandbox(name: "observer-\(store)")
        copies = box.root.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
    }

    private var live: Observer { Observer(root: box.vault) }

    private func run() throws {
        let start = Date()
        try box.initVault(store: store)
        let textA = "ZQXJTITLEA\nA short one. ZQXJBODYA"
        let textB = "ZQXJTITLEB\n" + String(repeating: "ZQXJBODYB and more. ", count: 18)
        let textC = "ZQXJTITLEC\n" + String(repeating: "ZQXJBODYC, a longer entry. ", count: 60)
        var ids: [String] = []
        let timer = Date()
        for text in [textA, textB, textC] {
            ids.append(try box.ok(["new", "--tag", "zqxjtag", text]).out.lowercased())
        }
        newLatencyMilliseconds = Date().timeIntervalSince(timer) * 1000 / 3
        let (a, b, c) = (ids[0], ids[1], ids[2])
        let first = try live.copy(to: copies.appendingPathComponent("1"))
        let before = try sealedEntries(first)
        let header1 = try header(first)

        let editTime = Date()
        let editor = try box.script("printf 'ZQXJTITLEB\\nEdited. ZQXJBODYB2\\n' > \"$1\"")
        try box.ok(["edit", String(b.prefix(8))], env: ["EDITOR": editor])
        let ctimes = try entryCtimes(live, ids: [a, b])
        let edited = try live.copy(to: copies.appendingPathComponent("edited"))
        try box.ok(["delete", "--yes", String(c.prefix(8))])
        let deleted = try live.copy(to: copies.appendingPathComponent("deleted"))
        let newPass = try box.passphraseFile("battery staple")
        try box.ok(["passwd", "--new-passphrase-file", newPass])
        box.environment["DIARY_PASSPHRASE_FILE"] = newPass
        let lastWrite = Date()
        let second = try live.copy(to: copies.appendingPathComponent("2"))
        let after = try sealedEntries(second)
        try box.ok(["rekey"])
        let third = try live.copy(to: copies.appendingPathComponent("3"))
        let rotated = try sealedEntries(third)

        let info = try Vault.inspect(at: box.vault)
        facts["count"] = before.count == 3 ? "yes (exact)" : "no"
        facts["ids"] = Set(before.keys) == Set(ids) ? (store == "files" ? "yes (file names)" : "yes (id column)") : "no"
        facts["sizes"] = sizeFinding(before[a]!.count, before[b]!.count, before[c]!.count, textA, textB)
        let perEntryFiles = try first.files().filter { path in before.values.contains(try first.bytes(path)) }
        if perEntryFiles.isEmpty {
            facts["entry-mtime"] = "no (one file)"
            facts["entry-ctime"] = "no (one file)"
        } else {
            let dated = perEntryFiles.contains { first.stat($0)!.mtime >= start.timeIntervalSince1970 - 2 }
            facts["entry-mtime"] = dated ? "yes" : "no (random times)"
            facts["entry-ctime"] =
                ctimes[b]! >= editTime.timeIntervalSince1970 - 0.01
                    && ctimes[a]! < editTime.timeIntervalSince1970 ? "yes (original disk only)" : "no"
        }
        let newest = try second.listing().map { second.stat($0)!.mtime }.max() ?? 0
        facts["vault-mtime"] = newest >= lastWrite.timeIntervalSince1970 - 2 ? "yes" : "no (random times)"
        let changed = Set(before.keys.filter { after[$0] != before[$0] })
        facts["changed"] = changed == [b, c] ? facts["ids"]! : "no"
        facts["edited-traces"] = try traces(of: before[b]!, in: edited)
        facts["deleted-traces"] = try traces(of: before[c]!, in: deleted)
        facts["deletions"] =
            try deletionsShow(in: deleted, live: Set(before.keys).subtracting([c]))
            ? (store == "files" ? "yes" : "yes (free pages)") : "no"
        facts["passwd-traces"] = try traces(of: Array(header1[header1.count - 80..<header1.count - 32]), in: second)
        facts["rekey-traces"] = try traces(of: after[a]!, in: third)
        let header3 = try header(third)
        let ops = header3[28..<36].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let mem = header3[36..<44].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        facts["kdf"] = KDFParameters(opsLimit: ops, memLimit: mem) == info.kdf ? "yes (header)" : "no"
        facts["vault-id"] = UUID(uuid: uuidBytes(Array(header3[12..<28]))) == info.id ? "yes (header)" : "no"
        let generation = rotated[a]![2..<6].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        facts["key-generation"] = generation == 2 && info.keyGenerations == [2] ? "yes (envelope)" : "no"
        var found: [String] = []
        for observer in [first, second, third, live] {
            for marker in Self.markers { found += try observer.filesContaining(Array(marker.utf8)) }
        }
        facts["plaintext"] = found.isEmpty ? "no" : "yes (\(found.joined(separator: ", ")))"
        controls = (
            try traces(of: after[a]!, in: second) != "no",
            !(try Observer(root: box.root).filesContaining(Array("ZQXJTITLEB".utf8))).isEmpty
        )
    }

    /// "no", or "yes (files…)" naming where `sealed`'s ciphertext (a 32-byte run from its
    /// middle: random-looking, so a match is no accident) is still found.
    private func traces(of sealed: [UInt8], in observer: Observer) throws -> String {
        let start = max(0, sealed.count / 2 - 16)
        let run = Array(sealed[start..<min(start + 32, sealed.count)])
        let files = try observer.filesContaining(run)
        return files.isEmpty ? "no" : "yes (\(files.joined(separator: ", ")))"
    }

    /// Whether one copy, on its own, shows that something was deleted: free pages in the
    /// database, or any file besides the store's own and the live entries.
    private func deletionsShow(in observer: Observer, live: Set<String>) throws -> Bool {
        if store == "sqlite" {
            return Int(try observer.sqlite("vault.sqlite", "PRAGMA freelist_count")[0][0]) ?? 0 > 0
        }
        let listing = try observer.listing()
        // Index pages are files named by page number (`index/<8 hex digits>`), whatever was
        // deleted (a small vault keeps its 64 first pages).
        let pages = listing.filter { $0.hasPrefix("index/") && $0.utf8.count == 14 }
        let expected = Set(
            ["vault.header", "vault.index", "vault.lock", "entries", "index"] + pages
                + live.map { "entries/" + $0 })
        return Set(listing) != expected
    }

    private func sizeFinding(_ a: Int, _ b: Int, _ c: Int, _ textA: String, _ textB: String) -> String {
        // Sealed = 30-byte envelope head + padded plaintext + 16-byte tag; buckets per FORMAT.md §6.
        func isBucket(_ n: Int) -> Bool {
            if n == 512 { return true }
            guard n > 512 else { return false }
            let e = Int.bitWidth - 1 - (n - 1).leadingZeroBitCount
            return n % (1 << max(0, e - 3)) == 0
        }
        let differentLengths = textA.utf8.count != textB.utf8.count
        if a == b && differentLengths && c > a && [a, b, c].allSatisfy({ isBucket($0 - 46) }) {
            return "bucketed (512 B, then 8 per doubling)"
        }
        return a == b ? "unclear" : "exact"
    }

    /// Each entry's sealed bytes by lowercase id, read without the key.
    private func sealedEntries(_ observer: Observer) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        if store == "files" {
            for path in try observer.files() where path.hasPrefix("entries/") {
                result[String(path.dropFirst("entries/".count))] = try observer.bytes(path)
            }
        } else {
            for row in try observer.sqlite("vault.sqlite", "SELECT id, sealed FROM entry") {
                result[UUID(uuid: uuidBytes([UInt8](hex: row[0]))).uuidString.lowercased()] = [UInt8](hex: row[1])
            }
        }
        return result
    }

    private func header(_ observer: Observer) throws -> [UInt8] {
        if store == "files" { return try observer.bytes("vault.header") }
        return [UInt8](hex: try observer.sqlite("vault.sqlite", "SELECT sealed FROM header")[0][0])
    }

    private func entryCtimes(_ observer: Observer, ids: [String]) throws -> [String: Double] {
        guard store == "files" else { return [:] }
        var result: [String: Double] = [:]
        for id in ids { result[id] = observer.stat("entries/" + id)?.ctime }
        return result
    }

    private func uuidBytes(_ b: [UInt8]) -> uuid_t {
        (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }
}
