import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

/// One life of a synced diary, watched from the remote by someone without the passphrase (the
/// host): a vault, `sync init` to a bare git repository or a folder, three entries written, one
/// edited, one deleted, a second machine joining (with an invite) and writing, the passphrase
/// changed (`passwd --no-rekey`: the key stays, so a header left behind would still open it) and
/// the key rotated, with a sync after each step. After each step the observer takes a snapshot of what
/// the remote holds; at the end it looks with ordinary means only — a listing, `stat`, the raw
/// bytes of every file, and for git `git log`, `git ls-tree` and `git cat-file` on the bare
/// repository. `facts` holds what it found, as the keywords of SECURITY.md's table.
final class SyncObserverScenario {
    let kind: SyncMachines.Kind
    private(set) var facts: [String: String] = [:]
    /// Controls that the probes can succeed: a machine id (which the remote does carry) is found
    /// by the same byte search that looks for entry ids, an old record's ciphertext is found by
    /// `traces`, and a marker is found in a plaintext file (the editor script).
    private(set) var controls: (machineIDFound: Bool, recordFound: Bool, markerInScriptFound: Bool) = (
        false, false, false
    )
    /// Whether `sync join` with the passphrase from before `diary passwd` opened the remote.
    private(set) var oldPassphraseJoined = false
    /// Whether the passphrase from before `diary passwd` opens a header left in `keys/` that
    /// wraps the very vault key the header published by `passwd` wraps (someone who learnt the
    /// old passphrase, not the keyless host; a reader of FORMAT.md §3 with libsodium).
    private(set) var oldPassphraseOpensCurrentKey = false
    /// What each statement in `chain/` tells a keyless host, in order: "init" (the first),
    /// "rekey" (a new key id in its clear prefix), "passwd" (the same key id and a new header
    /// in `keys/`) or "admit" (the same key id, no header).
    private(set) var keyChanges: [String] = []
    /// Commits on the bare repository's `main` (git only).
    private(set) var commitCount = 0

    /// The machines and the remote, released (and their directories removed) once measured.
    private var net: SyncMachines!
    /// Blob bytes by git object id, so each blob is read once.
    private var blobs: [String: [UInt8]] = [:]

    /// What a scenario measured: everything the tests read.
    struct Findings: Codable {
        struct Controls: Codable {
            var machineIDFound: Bool
            var recordFound: Bool
            var markerInScriptFound: Bool
        }

        var facts: [String: String]
        var controls: Controls
        var oldPassphraseJoined: Bool
        var oldPassphraseOpensCurrentKey: Bool
        var keyChanges: [String]
        var commitCount: Int
    }

    nonisolated(unsafe) private static var cache: [String: Findings] = [:]
    private static let lock = NSLock()

    /// Runs the git and the folder scenario once per test run (`RunCache`), or per test
    /// process, side by side (a git sync spends most of its time waiting for `git`).
    static func shared(_ kind: SyncMachines.Kind) throws -> Findings {
        lock.lock()
        defer { lock.unlock() }
        let name = kind == .git ? "git" : "folder"
        if let done = cache[name] { return done }
        cache = try RunCache.value("sync-observer", measure: measureBoth)
        return cache[name]!
    }

    private static func measureBoth() throws -> [String: Findings] {
        let kinds: [SyncMachines.Kind] = [.git, .folder]
        nonisolated(unsafe) var outcomes: [Result<Findings, Error>?] = [nil, nil]
        let outcomesLock = NSLock()
        DispatchQueue.concurrentPerform(iterations: kinds.count) { i in
            let outcome = Result { () throws -> Findings in
                let scenario = try SyncObserverScenario(kinds[i])
                defer { scenario.net = nil }
                try scenario.run()
                return scenario.findings
            }
            outcomesLock.lock()
            outcomes[i] = outcome
            outcomesLock.unlock()
        }
        return ["git": try outcomes[0]!.get(), "folder": try outcomes[1]!.get()]
    }

    private var findings: Findings {
        Findings(
            facts: facts,
            controls: Findings.Controls(
                machineIDFound: controls.machineIDFound, recordFound: controls.recordFound,
                markerInScriptFound: controls.markerInScriptFound),
            oldPassphraseJoined: oldPassphraseJoined, oldPassphraseOpensCurrentKey: oldPassphraseOpensCurrentKey,
            keyChanges: keyChanges, commitCount: commitCount)
    }

    /// What SECURITY.md's remote column says for `key`: the finding when git and folder agree,
    /// else "git: …; folder: …".
    static func cell(_ key: String) throws -> String? {
        let git = try shared(.git).facts[key], folder = try shared(.folder).facts[key]
        guard let git, let folder else { return git ?? folder }
        return git == folder ? git : "git: \(git); folder: \(folder)"
    }

    static func keys() throws -> Set<String> {
        Set(try shared(.git).facts.keys).union(try shared(.folder).facts.keys)
    }

    private init(_ kind: SyncMachines.Kind) throws {
        self.kind = kind
        net = try SyncMachines(kind, name: "observer-sync")
    }

    /// The remote's tree at one moment: path → bytes (the folder of machine 0, or `main`'s tip).
    private func snapshot() throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        switch kind {
        case .folder:
            let observer = Observer(root: net.folder(0))
            for path in try observer.files() { result[path] = try observer.bytes(path) }
        case .git:
            let tree = try SyncMachines.git(["--git-dir", net.remoteRepository.path, "ls-tree", "-r", "main"])
            for line in tree.split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1)
                let object = String(parts[0].split(separator: " ")[2])
                if blobs[object] == nil {
                    blobs[object] = [UInt8](
                        try SyncMachines.gitRaw(["--git-dir", net.remoteRepository.path, "cat-file", "blob", object]))
                }
                result[String(parts[1])] = blobs[object]!
            }
        }
        return result
    }

    /// Every byte the host holds, as separate files: every file of every folder copy, or every
    /// file of the bare repository plus every git object decompressed.
    private func everything() throws -> [(name: String, bytes: [UInt8])] {
        var result: [(String, [UInt8])] = []
        let roots = kind == .git ? [net.remoteRepository] : net.machines.indices.map { net.folder($0) }
        for root in roots {
            let observer = Observer(root: root)
            for path in try observer.files() {
                result.append((root.lastPathComponent + "/" + path, try observer.bytes(path)))
            }
        }
        if kind == .git {
            let objects = try SyncMachines.gitRaw([
                "--git-dir", net.remoteRepository.path, "cat-file", "--batch-all-objects", "--batch",
            ])
            result.append(("git objects", [UInt8](objects)))
        }
        return result
    }

    private static func records(_ tree: [String: [UInt8]]) -> [String: [UInt8]] {
        tree.filter { $0.key.hasPrefix("log/") }
    }

    private func run() throws {
        let m0 = try net.first(store: "sqlite")
        let afterInit = try snapshot()

        let textA = "ZQXJTITLEA\nA short one. ZQXJBODYA"
        let textB = "ZQXJTITLEB\n" + String(repeating: "ZQXJBODYB and more. ", count: 18)
        let textC = "ZQXJTITLEC\n" + String(repeating: "ZQXJBODYC, a longer entry. ", count: 60)
        var ids: [String] = []
        for text in [textA, textB, textC] { ids.append(try m0.ok(["new", "--tag", "zqxjtag", text]).out.lowercased()) }
        try net.sync(0)
        let written = try snapshot()

        let m1 = try net.join(store: "files")
        let joined = try snapshot()

        let editor = try m0.script("printf 'ZQXJTITLEB\\nEdited. ZQXJBODYB2\\n' > \"$1\"")
        try m0.ok(["edit", String(ids[1].prefix(8))], env: ["EDITOR": editor])
        try net.sync(0)
        let edited = try snapshot()
        try m0.ok(["delete", "--yes", String(ids[2].prefix(8))])
        try net.sync(0)
        let deleted = try snapshot()

        ids.append(
            try m1.ok(["new", "--tag", "zqxjtag", "ZQXJTITLED\nFrom the second machine. ZQXJBODYD"]).out.lowercased())
        try net.sync(1)

        let oldPass = net.passphraseFiles[0]
        let newPass = try m0.passphraseFile("battery staple")
        try m0.ok(["passwd", "--no-rekey", "--new-passphrase-file", newPass])
        m0.environment["DIARY_PASSPHRASE_FILE"] = newPass
        try net.sync(0)
        // m1 takes the new passphrase when given it (its vault opens with the old one).
        let m1New = try m1.passphraseFile("battery staple")
        try m1.ok(["unlock"])
        try net.sync(1, env: ["DIARY_PASSPHRASE_FILE": m1New])
        try m1.ok(["lock"])
        m1.environment["DIARY_PASSPHRASE_FILE"] = m1New
        let changed = try snapshot()
        oldPassphraseJoined = try joinsWith(passphraseFile: oldPass)

        try m0.ok(["rekey"])
        ids.append(
            try m0.ok(["new", "--tag", "zqxjtag", "ZQXJTITLEE\nAfter the rotation. ZQXJBODYE"]).out.lowercased())
        let lastSync = Date()
        try net.sync(0)
        try net.sync(1)
        let final = try snapshot()
        let all = try everything()
        let info = try Vault.inspect(at: m0.vault)

        let logs = Set(Self.records(final).keys.map { String($0.split(separator: "/")[1]) })
        // Syncs that carried entries: m0 wrote three entries, the edit, the delete and entry E;
        // m1 wrote its join and entry D. Key changes and admissions are statements in `chain/`,
        // not records; syncs with nothing to write write nothing.
        let recordsPerLog = logs.map { log in Self.records(final).keys.filter { $0.hasPrefix("log/\(log)/") }.count }
            .sorted()

        // count: one record held all three new entries.
        let entryRecords = Set(Self.records(written).keys).subtracting(Self.records(afterInit).keys)
        facts["count"] =
            entryRecords.count == 3 ? "yes (exact)" : entryRecords.count == 1 ? "no (one record per sync)" : "unclear"

        // ids: no entry id in any name or byte, in any of the usual spellings.
        var idHits: [String] = []
        for id in ids {
            for needle in Self.spellings(id) {
                idHits += all.filter {
                    Observer.contains(Array($0.name.utf8), needle) || Observer.contains($0.bytes, needle)
                }.map(\.name)
            }
        }
        facts["ids"] = idHits.isEmpty ? "no" : "yes (\(Set(idHits).sorted().joined(separator: ", ")))"

        // sizes: every record is 185 bytes (105 of prefix, a 16-byte tag, a 64-byte signature)
        // plus a bucket; an edit and a delete fill one bucket alike.
        let editRecord = Self.only(Set(Self.records(edited).keys).subtracting(Self.records(joined).keys))
        let deleteRecord = Self.only(Set(Self.records(deleted).keys).subtracting(Self.records(edited).keys))
        let allBucketed = Self.records(final).values.allSatisfy { Self.isBucket($0.count - 185) }
        let editSize = editRecord.flatMap { edited[$0]?.count },
            deleteSize = deleteRecord.flatMap { deleted[$0]?.count }
        facts["sizes"] =
            allBucketed && editSize != nil && editSize == deleteSize
            ? "bucketed per record (512 B, then 8 per doubling)" : allBucketed ? "bucketed per record" : "exact"

        let noEntryNamed = idHits.isEmpty && facts["count"] != "yes (exact)"
        facts["entry-mtime"] = noEntryNamed ? "no (records name no entry)" : "yes"
        facts["entry-ctime"] = facts["entry-mtime"]

        // Times: what dates the syncs.
        let commits =
            kind == .git
            ? try SyncMachines.git([
                "--git-dir", net.remoteRepository.path, "log", "--all", "--format=%an <%ae>|%aI|%cn <%ce>|%cI|%s",
            ])
            .split(separator: "\n").map(String.init)
            : []
        let neutralCommits =
            !commits.isEmpty
            && commits.allSatisfy {
                $0 == "diary <diary@invalid>|2001-01-01T00:00:00Z|diary <diary@invalid>|2001-01-01T00:00:00Z|sync"
                    || $0
                        == "diary <diary@invalid>|2001-01-01T00:00:00+00:00|diary <diary@invalid>|2001-01-01T00:00:00+00:00|sync"
            }
        commitCount =
            kind == .git
            ? Int(try SyncMachines.git(["--git-dir", net.remoteRepository.path, "rev-list", "--count", "main"])) ?? 0
            : 0
        let hostFiles = kind == .git ? Observer(root: net.remoteRepository) : Observer(root: net.folder(0))
        let newestFile = try hostFiles.files().map { hostFiles.stat($0)!.mtime }.max() ?? 0
        let realTimes = newestFile >= lastSync.timeIntervalSince1970 - 2
        switch kind {
        case .folder:
            // Each record file's mtime against the sync that wrote it.
            let recordTimes = try hostFiles.files().filter { $0.hasPrefix("log/") }.map { hostFiles.stat($0)!.mtime }
            let dated = realTimes && recordTimes.allSatisfy { $0 > Date().timeIntervalSince1970 - 3600 }
            facts["vault-mtime"] = dated ? "yes (file mtimes)" : "no"
            facts["sync-times"] = dated ? "yes (file mtimes)" : "no"
            facts["commit-metadata"] = "n/a (no commits)"
        case .git:
            facts["vault-mtime"] =
                neutralCommits
                ? (realTimes ? "yes (host's file times; commits dated 2001)" : "no") : "yes (commit dates)"
            facts["sync-times"] = facts["vault-mtime"]
            facts["commit-metadata"] =
                neutralCommits
                ? "neutral (diary <diary@invalid>, 2001-01-01, \"sync\")" : "yes (\(Set(commits).sorted()))"
        }

        // changed: between two snapshots only new records appear, and none names an entry; a
        // published header may go (a newer key change replaced it), never change.
        let pairs = [
            (afterInit, written), (written, joined), (joined, edited), (edited, deleted), (deleted, changed),
            (changed, final),
        ]
        let writeOnce = pairs.allSatisfy { before, after in
            before.allSatisfy { after[$0.key] == $0.value || (after[$0.key] == nil && $0.key.hasPrefix("keys/")) }
        }
        facts["changed"] = writeOnce && idHits.isEmpty ? "no (only new records)" : "yes"
        facts["deletions"] =
            editSize != nil && editSize == deleteSize
            ? "no (a delete's record looks like an edit's)" : "yes (record size)"

        // Traces: the record that carried B's first text and C stays, sealed; so do the records
        // sealed under the retired key, and the header published before `passwd`.
        let entryRecord = entryRecords.first.flatMap { written[$0] } ?? []
        let kept = try traces(of: entryRecord, in: all)
        facts["edited-traces"] = kept ? "yes (records are write-once)" : "no"
        facts["deleted-traces"] = facts["edited-traces"]
        let keyIDs = Set(Self.records(final).values.map { Array($0[49..<81]) })
        let beforeRekey = Self.records(changed).values.map { Array($0[49..<81]) }
        let oldKeyRecordKept = try traces(of: Self.records(changed).values.first!, in: all)
        facts["rekey-traces"] =
            keyIDs.count == 2 && beforeRekey.allSatisfy({ keyIDs.contains($0) }) && oldKeyRecordKept
            ? "yes (records are write-once)" : "no"
        let firstHeader = afterInit.first { $0.key.hasPrefix("keys/") && $0.key.hasSuffix(".sqlite") }!.value
        let slot = Array(firstHeader[(61 + 28)..<(61 + 76)])  // the sealed vault key of generation 1
        let oldSlotKept = try traces(of: slot, in: all)
        let oldPhrase = net.passphrase, newPhrase = "battery staple"
        let published = changed.filter { $0.key.hasPrefix("keys/") && $0.key.hasSuffix(".sqlite") }
        let oldKeys = published.values.compactMap { Self.vaultKey(header: $0, passphrase: oldPhrase) }
        let newKeys = published.values.compactMap { Self.vaultKey(header: $0, passphrase: newPhrase) }
        oldPassphraseOpensCurrentKey = !newKeys.isEmpty && newKeys.allSatisfy { new in oldKeys.contains { $0 == new } }
        switch (oldSlotKept, oldPassphraseOpensCurrentKey) {
        case (_, true): facts["passwd-traces"] = "yes (keys/ keeps old headers, which still open the key)"
        case (true, false): facts["passwd-traces"] = "only in git history (replaced headers removed from the tree)"
        case (false, false): facts["passwd-traces"] = "no (replaced headers removed)"
        }

        // Clear metadata: KDF, vault id, key generation from the newest published header and the marker.
        let headers = final.filter { $0.key.hasPrefix("keys/") && $0.key.hasSuffix(".sqlite") }.sorted {
            $0.key < $1.key
        }
        // The newest: the highest record seq in `keys/<machine>-<seq>.sqlite`.
        let newest = headers.max { $0.key.split(separator: "-").last! < $1.key.split(separator: "-").last! }!.value
        let ops = newest[28..<36].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let mem = newest[36..<44].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        facts["kdf"] = KDFParameters(opsLimit: ops, memLimit: mem) == info.kdf ? "yes (keys/ headers)" : "no"
        let marker = String(decoding: final["diary-sync"] ?? [], as: UTF8.self).split(separator: "\n")
        let vaultBytes = Self.uuidBytes(info.id)
        let recordsCarryID = Self.records(final).values.allSatisfy { Array($0[9..<25]) == vaultBytes }
        facts["vault-id"] =
            marker.count == 2 && marker[1] == info.id.uuidString.lowercased() && recordsCarryID
            ? "yes (marker, records, headers)" : "no"
        let generation = newest[61..<65].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        facts["key-generation"] =
            generation == 2 && info.keyGenerations == [2] ? "yes (keys/ headers, record key ids)" : "no"

        var found: [String] = []
        for marker in ObserverScenario.markers + ["machine-0", "machine-1"] {
            found += all.filter { Observer.contains($0.bytes, Array(marker.utf8)) }.map { "\(marker) in \($0.name)" }
        }
        facts["plaintext"] =
            found.filter { !$0.hasPrefix("machine-") }.isEmpty ? "no" : "yes (\(found.joined(separator: ", ")))"
        facts["machine-names"] = found.filter { $0.hasPrefix("machine-") }.isEmpty ? "no (sealed)" : "yes"

        // Key changes: one statement each in `chain/<seq>-<author>`, whose clear prefix carries
        // the key id (bytes 49..<81); a statement that publishes a header has `keys/<author>-<seq>`.
        let snapshots = [afterInit, written, joined, edited, deleted, changed, final]
        var statements: [String: [UInt8]] = [:]
        var headerNames: Set<String> = []
        for snap in snapshots {
            for (name, bytes) in snap where name.hasPrefix("chain/") { statements[name] = bytes }
            for name in snap.keys where name.hasPrefix("keys/") && name.hasSuffix(".sqlite") {
                headerNames.insert(String(name.dropFirst("keys/".count).dropLast(".sqlite".count)))
            }
        }
        var previousKeyID: [UInt8] = []
        keyChanges = statements.sorted { $0.key < $1.key }.map { name, bytes in
            let keyID = Array(bytes[49..<81])
            defer { previousKeyID = keyID }
            let parts = name.dropFirst("chain/".count).split(separator: "-")
            let published = parts.count == 2 && headerNames.contains("\(parts[1])-\(parts[0])")
            if previousKeyID.isEmpty { return "init" }
            return keyID != previousKeyID ? "rekey" : published ? "passwd" : "admit"
        }

        // Machines and syncs: one log per machine that wrote, one record per sync that carried changes.
        let joinAddedLog =
            Set(Self.records(joined).keys.map { $0.split(separator: "/")[1] })
            != Set(Self.records(written).keys.map { $0.split(separator: "/")[1] })
        facts["machines"] =
            logs.count == 2
            ? (joinAddedLog ? "yes (one log per machine, from its join)" : "yes (one log per machine that wrote)")
            : "no"
        facts["syncs"] =
            recordsPerLog == [2, 4] ? "yes (one record per sync that wrote)" : "unclear (\(recordsPerLog))"

        // m0's machine id, from the name of the first statement (`chain/000000000000-<id>`).
        let genesis = afterInit.keys.first { $0.hasPrefix("chain/000000000000-") } ?? "chain/0-00"
        let m0Hex = String(genesis.split(separator: "-").last ?? "00")
        let m0Bytes = [UInt8](hex: m0Hex)
        controls = (
            all.contains { Observer.contains($0.bytes, m0Bytes) },
            kept,
            !(try Observer(root: m0.root).filesContaining(Array("ZQXJTITLEB".utf8))).isEmpty
        )
        print(
            "observer: sync \(kind) commits: \(Set(commits).sorted()); records per log: \(recordsPerLog); files: \(final.keys.sorted())"
        )
    }

    /// `sync join` of a copy of the remote with an old passphrase, on a machine of its own.
    private func joinsWith(passphraseFile: String) throws -> Bool {
        let outsider = try DiarySandbox(name: "outsider")
        let copy = net.scratch.appendingPathComponent("outsider-copy")
        switch kind {
        case .git: try SyncMachines.git(["clone", "--quiet", "--bare", net.remoteRepository.path, copy.path])
        case .folder: try Observer.runTool("/bin/cp", ["-a", net.folder(0).path, copy.path])
        }
        let args = (kind == .git ? [copy.path] : ["--folder", copy.path]) + ["--invite", try net.invite(from: 0)]
        let result = try outsider.run(
            ["sync", "join"] + args + ["--to", outsider.vault.path, "--store", "files", "--name", "outsider"],
            env: ["DIARY_PASSPHRASE_FILE": passphraseFile])
        print("observer: sync \(kind) join with the old passphrase: status \(result.status) \(result.stderr)")
        return result.status == 0
    }

    private func traces(of sealed: [UInt8], in all: [(name: String, bytes: [UInt8])]) throws -> Bool {
        guard sealed.count >= 32 else { return false }
        let start = sealed.count / 2 - 16
        let run = Array(sealed[start..<(start + 32)])
        return all.contains { Observer.contains($0.bytes, run) }
    }

    /// The first slot of a vault header (FORMAT.md §3) opened with `passphrase`: its generation
    /// and vault key, or nil when the passphrase does not open it.
    private static func vaultKey(header: [UInt8], passphrase: String) -> [UInt8]? {
        guard header.count >= 61 + 76 else { return nil }
        let ops = header[28..<36].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let mem = header[36..<44].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var raw = Array(passphrase.utf8)
        guard let secret = try? SecretBytes(consuming: &raw),
            let kek = try? PassphraseKDF.deriveKey(
                passphrase: secret, salt: Array(header[44..<60]),
                parameters: KDFParameters(opsLimit: ops, memLimit: mem))
        else { return nil }
        let generation = Array(header[61..<65])
        guard
            let key = try? XChaCha20Poly1305.open(
                Array(header[89..<137]), key: kek, nonce: Array(header[65..<89]),
                associatedData: Array(header[0..<60]) + generation)
        else { return nil }
        return generation + key
    }

    private static func only(_ set: Set<String>) -> String? { set.count == 1 ? set.first : nil }

    /// An entry id as raw bytes, and as text with and without dashes, in both cases.
    private static func spellings(_ id: String) -> [[UInt8]] {
        let plain = id.replacingOccurrences(of: "-", with: "")
        return [id.lowercased(), id.uppercased(), plain.lowercased(), plain.uppercased()].map { Array($0.utf8) }
            + [uuidBytes(UUID(uuidString: id)!)]
    }

    private static func uuidBytes(_ id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    private static func isBucket(_ n: Int) -> Bool {
        if n == 512 { return true }
        guard n > 512 else { return false }
        let e = Int.bitWidth - 1 - (n - 1).leadingZeroBitCount
        return n % (1 << max(0, e - 3)) == 0
    }
}
