import Foundation
import XCTest

/// Several machines syncing one diary, for the sync tests: each machine is a `DiarySandbox`
/// (its own HOME, XDG directories and vault, as a separate computer would have), sharing one
/// remote: a bare git repository, or one folder per machine that the test copies between the
/// way a file-sync tool would.
final class SyncMachines {
    enum Kind { case git, folder }

    let kind: Kind
    let scratch: URL
    private(set) var machines: [DiarySandbox] = []
    let passphrase = "plum heron lantern quietly"
    private(set) var passphraseFiles: [String] = []

    init(_ kind: Kind, name: String = "sync") throws {
        self.kind = kind
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "diary-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        if kind == .git { try Self.git(["init", "--quiet", "--bare", remoteRepository.path]) }
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }

    var remoteRepository: URL { scratch.appendingPathComponent("remote.git") }

    /// Machine `n`'s copy of a folder remote.
    func folder(_ n: Int) -> URL { scratch.appendingPathComponent("folder-\(n)") }

    /// The remote arguments of `sync init` and `sync join` for machine `n`.
    func remoteArguments(_ n: Int) -> [String] {
        kind == .git ? [remoteRepository.path] : ["--folder", folder(n).path]
    }

    /// The first machine: a vault (of `store`) with `entries`, then `sync init`.
    @discardableResult
    func first(store: String = "sqlite", entries: [String] = []) throws -> DiarySandbox {
        let machine = try DiarySandbox(name: "m0")
        let file = try machine.initVault(store: store, passphrase: passphrase)
        passphraseFiles.append(file)
        for text in entries { try machine.ok(["new"], stdin: Data(text.utf8)) }
        // `sync init --folder` takes a folder that exists, as a sync tool's shared one does.
        if kind == .folder { try FileManager.default.createDirectory(at: folder(0), withIntermediateDirectories: true) }
        try machine.ok(["sync", "init"] + remoteArguments(0) + ["--name", "machine-0"])
        machines.append(machine)
        return machine
    }

    /// Another machine, the whole way a user brings one in: `sync invite` on `inviter`, `sync
    /// join --invite` on the new machine (after the folder was copied to it), then `diary sync`
    /// on the inviter (which admits it) and on the new machine (whose changes go out from then
    /// on). `admit: false` stops after the join: the new machine has asked to join, no more.
    @discardableResult
    func join(store: String = "files", inviter: Int = 0, admit: Bool = true) throws -> DiarySandbox {
        let n = machines.count
        let machine = try DiarySandbox(name: "m\(n)")
        let file = try machine.passphraseFile(passphrase)
        machine.environment["DIARY_PASSPHRASE_FILE"] = file
        passphraseFiles.append(file)
        let code = try invite(from: inviter, name: "machine-\(n)")
        if kind == .folder { try replicate(from: inviter, to: n) }
        try machine.ok(
            ["sync", "join"] + remoteArguments(n) + [
                "--invite", code, "--to", machine.vault.path, "--store", store, "--name", "machine-\(n)",
            ])
        machines.append(machine)
        if kind == .folder { try spread(from: n) }
        guard admit else { return machine }
        try sync(inviter)
        try sync(n)
        return machine
    }

    /// The code `diary sync invite` prints on machine `n` (stdout holds nothing else).
    func invite(from n: Int, name: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let result = try machines[n].ok(
            ["sync", "invite"] + (name.map { ["--name", $0] } ?? []), file: file, line: line)
        return result.out
    }

    subscript(n: Int) -> DiarySandbox { machines[n] }

    /// `diary sync` on machine `n`, then (folder) copy what it wrote to every other machine,
    /// and remove there the published headers it removed.
    @discardableResult
    func sync(_ n: Int, env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws
        -> DiaryResult
    {
        let before = kind == .folder ? publishedHeaders(n) : []
        let result = try machines[n].ok(["sync"], env: env, file: file, line: line)
        if kind == .folder { try spread(from: n, removing: before.subtracting(publishedHeaders(n))) }
        return result
    }

    /// The names in machine `n`'s `keys/` folder.
    private func publishedHeaders(_ n: Int) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder(n).appendingPathComponent("keys").path)) ?? [])
    }

    /// Copies machine `from`'s folder to every other machine's; the headers in `removed` (which
    /// diary removed there, once a newer key change replaced them) go from theirs too, as a
    /// sync tool carries a removal.
    func spread(from n: Int, removing removed: Set<String> = []) throws {
        for other in machines.indices where other != n {
            try replicate(from: n, to: other)
            for name in removed {
                try? FileManager.default.removeItem(
                    at: folder(other).appendingPathComponent("keys").appendingPathComponent(name))
            }
        }
    }

    /// What a file-sync tool does: every file of `from` that `to` lacks or has older is copied
    /// (atomically, through a temporary name); nothing is deleted.
    func replicate(from: Int, to: Int, skipping skip: (String) -> Bool = { _ in false }) throws {
        let fm = FileManager.default
        let source = folder(from), target = folder(to)
        try fm.createDirectory(at: target, withIntermediateDirectories: true)
        guard let walker = fm.enumerator(atPath: source.path) else { return }
        while let relative = walker.nextObject() as? String {
            let src = source.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: src.path, isDirectory: &isDirectory) else { continue }
            let dst = target.appendingPathComponent(relative)
            if isDirectory.boolValue {
                try fm.createDirectory(at: dst, withIntermediateDirectories: true)
                continue
            }
            if skip(relative) { continue }
            let bytes = try Data(contentsOf: src)
            if let existing = try? Data(contentsOf: dst), existing == bytes { continue }
            let staging = dst.deletingLastPathComponent().appendingPathComponent(".syncthing.\(UUID().uuidString).tmp")
            try bytes.write(to: staging)
            guard rename(staging.path, dst.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
    }

    /// Every entry as machine `n` shows it: id, date, starred, tags and text, sorted by id.
    func snapshot(_ n: Int, env: [String: String] = [:]) throws -> [String] {
        let result = try machines[n].run(["show", "-n", "100000", "--json", "--no-pager"], env: env)
        if result.status != 0, result.stderr.contains("no entries") { return [] }
        XCTAssertEqual(result.status, 0, result.stderr)
        guard !result.out.isEmpty,
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        else { return [] }
        return parsed.map { e in
            let tags = (e["tags"] as? [String] ?? []).joined(separator: ",")
            return "\(e["id"] ?? "") \(e["date"] ?? "") \(e["starred"] ?? "") [\(tags)] \(e["text"] ?? "")"
        }.sorted()
    }

    /// `list` as machine `n` prints it into a pipe.
    func list(_ n: Int) throws -> String { try machines[n].ok(["list"]).stdout }

    /// The ids of the conflicts machine `n` sees.
    func conflicts(_ n: Int) throws -> [[String: Any]] {
        let result = try machines[n].ok(["conflicts", "--json"])
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    /// Every byte the remote holds: the files of every folder, or every git object, decompressed.
    func remoteBytes() throws -> Data {
        var all = Data()
        switch kind {
        case .git:
            all.append(
                Data(
                    try Self.git(["--git-dir", remoteRepository.path, "cat-file", "--batch-all-objects", "--batch"])
                        .utf8))
            all.append(
                try Self.gitRaw(["--git-dir", remoteRepository.path, "cat-file", "--batch-all-objects", "--batch"]))
        case .folder:
            for n in machines.indices {
                let fm = FileManager.default
                guard let walker = fm.enumerator(atPath: folder(n).path) else { continue }
                while let relative = walker.nextObject() as? String {
                    if let bytes = try? Data(contentsOf: folder(n).appendingPathComponent(relative)) {
                        all.append(bytes)
                    }
                }
            }
        }
        return all
    }

    /// The newest header the git remote publishes for `store`: that of the newest statement
    /// that published one (`keys/<machine>-<statement seq>.<store>`).
    func publishedHeader(store: String) throws -> [UInt8] {
        let gitDir = "--git-dir=\(remoteRepository.path)"
        let names = try Self.git([gitDir, "ls-tree", "--name-only", "main", "keys/"])
            .split(separator: "\n").filter { $0.hasSuffix(".\(store)") }
        let newest = names.max { $0.split(separator: "-").last! < $1.split(separator: "-").last! }
        XCTAssertNotNil(newest, "\(names)")
        return Array(try Self.gitRaw([gitDir, "show", "main:\(newest ?? "")"]))
    }

    /// `$XDG_STATE_HOME/diary` of machine `n` (its default, under its HOME).
    func stateDirectory(_ n: Int) -> URL {
        machines[n].root.appendingPathComponent("home/.local/state/diary", isDirectory: true)
    }

    /// The file named `name` (`state`, `git`, …) in machine `n`'s sync state of its vault.
    func syncStateItem(_ n: Int, named name: String) throws -> URL {
        let found =
            FileManager.default.enumerator(
                at: stateDirectory(n).appendingPathComponent("sync"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent == name } ?? []
        XCTAssertEqual(found.count, 1, "\(found)")
        return try XCTUnwrap(found.first)
    }

    /// A working copy of the bare remote, for tests that play the hostile host.
    func hostileCheckout() throws -> URL {
        let dir = scratch.appendingPathComponent("host-\(UUID().uuidString.prefix(6))")
        try Self.git(["clone", "--quiet", "--branch", "main", remoteRepository.path, dir.path])
        try Self.git(["-C", dir.path, "config", "user.name", "host"])
        try Self.git(["-C", dir.path, "config", "user.email", "host@invalid"])
        return dir
    }

    @discardableResult
    static func git(_ args: [String]) throws -> String {
        String(decoding: try gitRaw(args), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func gitRaw(_ args: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + args
        var env = ProcessInfo.processInfo.environment
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(
                domain: "git", code: Int(process.terminationStatus),
                userInfo: [NSLocalizedDescriptionKey: "git \(args.joined(separator: " ")) failed"])
        }
        return data
    }
}
