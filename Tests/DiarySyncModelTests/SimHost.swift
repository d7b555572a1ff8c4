import Foundation

/// One file of the remote tree as the host holds it.
enum SimFile: Equatable {
    case bytes([UInt8])
    case link(String)
}

/// A remote tree: path (relative, `/`-separated) to file.
typealias SimTree = [String: SimFile]

/// What one machine is shown instead of the remote as it is, until the host heals.
enum SimView: Equatable {
    /// The remote without this file (the newest record of a log).
    case withhold(String)
    /// A copy of the remote of its own, taken when the fork began: this machine's writes go
    /// there only.
    case fork(SimTree)
}

/// The host of the remote: a folder (as a file-sync tool replicates it) or a bare git repository
/// on this disk, and the host's powers over it. It keeps the honest tree (every file a machine
/// wrote, as that machine wrote it) apart from the tree it serves, so that it can turn honest
/// again (`heal`). Everything here is files and the `git` program: no call into diary's API.
final class SimHost {
    enum Kind: String, CaseIterable { case folder, git }

    let kind: Kind
    let root: URL
    private let folder: URL
    private let bare: URL
    private let work: URL
    /// Every file a machine wrote (and did not remove), as it wrote it.
    private(set) var honest: SimTree = [:]
    /// The trees served after each step (folder) or their commits (git), for rewinds.
    private var pastTrees: [SimTree] = []
    private var pastCommits: [String] = []
    private(set) var views: [String: SimView] = [:]
    /// The commit each machine last fetched or pushed (git): healing descends from all of them.
    private var lastSeen: [String: String] = [:]
    private var treeCache: [String: SimTree] = [:]

    /// `existing`: `root` already holds a host's files (a copy of a set-up run): what it serves
    /// now is taken as honest, and as what every machine last saw.
    init(kind: Kind, root: URL, existing: [String] = []) throws {
        self.kind = kind
        self.root = root
        folder = root.appendingPathComponent("remote-folder", isDirectory: true)
        bare = root.appendingPathComponent("remote.git", isDirectory: true)
        work = root.appendingPathComponent("host-work", isDirectory: true)
        guard existing.isEmpty else {
            honest = try currentTree()
            if kind == .git, let commit = try head() { for machine in existing { lastSeen[machine] = commit } }
            return
        }
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
        try Data("outside the remote\n".utf8).write(to: root.appendingPathComponent("outside/secret"))
        switch kind {
        case .folder:
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        case .git:
            try Self.git(["init", "--quiet", "--bare", "-b", "main", bare.path], in: nil)
            try Self.git(["init", "--quiet", "-b", "main", work.path], in: nil)
            try git(["remote", "add", "origin", bare.path])
            try git(["config", "user.name", "host"])
            try git(["config", "user.email", "host@invalid"])
            try git(["config", "commit.gpgsign", "false"])
        }
    }

    var remote: SimRemote { kind == .folder ? .folder(folder) : .git(bare) }

    // MARK: Serving a machine

    /// Before `machine` syncs: its view, if the host gives it one. Returns what it is served.
    func beforeSync(_ machine: String) throws -> (served: SimTree, truth: SimTree, truthCommit: String?) {
        let truthCommit = kind == .git ? try head() : nil
        let truth = try currentTree()
        guard let view = views[machine] else { return (truth, truth, truthCommit) }
        let served = apply(view, to: truth)
        try serve(served, to: machine, truthCommit: truthCommit)
        return (served, truth, truthCommit)
    }

    /// After `machine` synced: what it wrote is kept as honest, and a machine with a view has its
    /// writes folded into the tree the others see (a fork keeps them to itself).
    func afterSync(_ machine: String, before: (served: SimTree, truth: SimTree, truthCommit: String?)) throws {
        let after = try currentTree()
        if kind == .git, let commit = try head() { lastSeen[machine] = commit }
        let delta = Self.delta(from: before.served, to: after)
        honest = Self.applying(delta, to: honest)
        guard let view = views[machine] else { return }
        var truth = before.truth
        switch view {
        case .withhold: truth = Self.applying(delta, to: truth)
        case .fork(let own): views[machine] = .fork(Self.applying(delta, to: own))
        }
        try publish(truth, keepingCommitsOf: [machine])
    }

    /// The host turns honest: it serves every file the machines wrote, and nothing else.
    func heal() throws {
        views = [:]
        try publish(honest, keepingCommitsOf: Array(lastSeen.keys))
    }

    /// Keeps the tree served now, for a later rewind.
    func remember() throws {
        switch kind {
        case .folder: pastTrees.append(try currentTree())
        case .git: if let commit = try head() { pastCommits.append(commit) }
        }
    }

    // MARK: Hostile acts (on the tree served to everyone)

    /// Serves an older state: `back` remembered states ago. False when there is none.
    func rewind(back: Int) throws -> Bool {
        switch kind {
        case .folder:
            guard pastTrees.count > back else { return false }
            try write(pastTrees[pastTrees.count - 1 - back])
        case .git:
            guard pastCommits.count > back else { return false }
            try git(["fetch", "--quiet", "origin"])
            try git([
                "push", "--quiet", "--force", "origin", "\(pastCommits[pastCommits.count - 1 - back]):refs/heads/main",
            ])
        }
        return true
    }

    /// Changes the tree served to everyone (a file dropped, cut, copied, planted or forged).
    func alter(_ change: (inout SimTree) throws -> Void) throws {
        var tree = try currentTree()
        try change(&tree)
        try publish(tree, keepingCommitsOf: [])
    }

    /// Gives `machine` a view of its own until the host heals.
    func setView(_ view: SimView, for machine: String) { views[machine] = view }

    /// The tree as served to everyone now, written out in a scratch directory (for crafting).
    func materialize() throws -> URL {
        let scratch = root.appendingPathComponent("attacker-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try Self.write(try currentTree(), into: scratch)
        return scratch
    }

    /// Where a planted link points: a file outside the remote.
    var outsideFile: String { root.appendingPathComponent("outside/secret").path }

    // MARK: Trees

    /// The tree served to everyone now.
    func currentTree() throws -> SimTree {
        switch kind {
        case .folder:
            return try Self.read(folder)
        case .git:
            guard let commit = try head() else { return [:] }
            if let cached = treeCache[commit] { return cached }
            try git(["fetch", "--quiet", "origin"])
            try git(["checkout", "--quiet", "--force", "--detach", commit])
            try git(["clean", "--quiet", "-fdx"])
            let tree = try Self.read(work).filter { !$0.key.hasPrefix(".git/") && $0.key != ".git" }
            treeCache[commit] = tree
            return tree
        }
    }

    private func head() throws -> String? {
        let out = try? Self.git(["rev-parse", "--verify", "-q", "refs/heads/main"], in: bare)
        return out.flatMap { $0.isEmpty ? nil : $0 }
    }

    private func apply(_ view: SimView, to truth: SimTree) -> SimTree {
        switch view {
        case .withhold(let path):
            var tree = truth
            tree[path] = nil
            return tree
        case .fork(let own):
            return own
        }
    }

    /// Serves `tree` to one machine: a commit that descends from what that machine saw, so that
    /// only what the tree itself shows can give the host away.
    private func serve(_ tree: SimTree, to machine: String, truthCommit: String?) throws {
        switch kind {
        case .folder: try write(tree)
        case .git:
            let parents = [truthCommit, lastSeen[machine]].compactMap { $0 }
            try setHead(try commit(tree, parents: Array(Set(parents)).sorted()))
        }
    }

    /// Serves `tree` to everyone, as a commit on top of the current one (and of the commits the
    /// named machines last saw).
    private func publish(_ tree: SimTree, keepingCommitsOf machines: [String]) throws {
        switch kind {
        case .folder: try write(tree)
        case .git:
            var parents = Set(machines.compactMap { lastSeen[$0] })
            if let current = try head() { parents.insert(current) }
            try setHead(try commit(tree, parents: parents.sorted()))
        }
    }

    private func write(_ tree: SimTree) throws { try Self.write(tree, into: folder) }

    private func commit(_ tree: SimTree, parents: [String]) throws -> String {
        try git(["fetch", "--quiet", "origin"])
        for name in try FileManager.default.contentsOfDirectory(atPath: work.path) where name != ".git" {
            try FileManager.default.removeItem(at: work.appendingPathComponent(name))
        }
        try Self.write(tree, into: work)
        try git(["add", "-A", "--", "."])
        let treeID = try git(["write-tree"])
        return try git(["commit-tree", treeID, "-m", "host"] + parents.flatMap { ["-p", $0] })
    }

    private func setHead(_ commit: String) throws {
        try git(["push", "--quiet", "--force", "origin", "\(commit):refs/heads/main"])
    }

    // MARK: Files

    static func read(_ directory: URL) throws -> SimTree {
        var tree: SimTree = [:]
        let fm = FileManager.default
        func walk(_ relative: String) throws {
            let url = relative.isEmpty ? directory : directory.appendingPathComponent(relative)
            for name in try fm.contentsOfDirectory(atPath: url.path) {
                let path = relative.isEmpty ? name : relative + "/" + name
                if relative.isEmpty, name == ".git" { continue }
                let full = directory.appendingPathComponent(path)
                let type = try fm.attributesOfItem(atPath: full.path)[.type] as? FileAttributeType
                if type == .typeSymbolicLink {
                    tree[path] = .link(try fm.destinationOfSymbolicLink(atPath: full.path))
                } else if type == .typeDirectory {
                    try walk(path)
                } else {
                    tree[path] = .bytes([UInt8](try Data(contentsOf: full)))
                }
            }
        }
        if fm.fileExists(atPath: directory.path) { try walk("") }
        return tree
    }

    /// Makes `directory` hold `tree`: only what differs is written or removed (a file-sync tool
    /// changes what changed).
    static func write(_ tree: SimTree, into directory: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        let now = try read(directory)
        for (path, _) in now where tree[path] == nil {
            try fm.removeItem(at: directory.appendingPathComponent(path))
        }
        for (path, file) in tree where now[path] != file {
            let url = directory.appendingPathComponent(path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if now[path] != nil { try fm.removeItem(at: url) }
            switch file {
            case .bytes(let bytes): try Data(bytes).write(to: url)
            case .link(let target): try fm.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            }
        }
    }

    /// What changed from one tree to another: new or changed files, and removed paths (nil).
    static func delta(from old: SimTree, to new: SimTree) -> [String: SimFile?] {
        var delta: [String: SimFile?] = [:]
        for (path, file) in new where old[path] != file { delta[path] = .some(file) }
        for path in old.keys where new[path] == nil { delta[path] = .some(nil) }
        return delta
    }

    static func applying(_ delta: [String: SimFile?], to tree: SimTree) -> SimTree {
        var result = tree
        for (path, file) in delta { result[path] = file }
        return result
    }

    // MARK: git

    /// git in the host's own clone.
    @discardableResult
    private func git(_ args: [String]) throws -> String { try Self.git(args, in: work) }

    @discardableResult
    static func git(_ args: [String], in directory: URL?) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + args
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["LC_ALL"] = "C"
        env["GIT_AUTHOR_NAME"] = "host"
        env["GIT_AUTHOR_EMAIL"] = "host@invalid"
        env["GIT_COMMITTER_NAME"] = "host"
        env["GIT_COMMITTER_EMAIL"] = "host@invalid"
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // As GitRemote: the termination handler hears of the exit at once, where
        // waitUntilExit polls every 50 ms.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        for handle in [
            out.fileHandleForReading, out.fileHandleForWriting, err.fileHandleForReading, err.fileHandleForWriting,
        ] {
            try? handle.close()
        }
        exited.wait()
        try? out.fileHandleForReading.close()
        try? err.fileHandleForReading.close()
        guard process.terminationStatus == 0 else {
            throw SimFailure("git \(args.joined(separator: " ")): \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: outData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
