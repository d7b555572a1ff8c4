import Foundation

/// Drives the `git` program for a git remote: a clone of it in this machine's sync state
/// directory is the tree records are read from and written to.
///
/// Commits carry a neutral author and a fixed date, so the remote learns nothing from them
/// beyond what the files show (docs/SECURITY.md, the observer table). Records are write-once
/// files with one writer each, so a merge only ever adds files: git never has a conflict to ask
/// about.
struct GitRemote {
    static let branch = "main"
    static let neutralName = "diary"
    static let neutralEmail = "diary@invalid"
    static let neutralDate = "2001-01-01T00:00:00Z"

    let url: String
    let tree: URL

    /// Clones the remote (or starts a first commit when it is empty).
    func cloneIfNeeded() throws {
        if FileManager.default.fileExists(atPath: tree.appendingPathComponent(".git").path) {
            try recoverFromAnInterruptedSync()
            return
        }
        try? FileManager.default.removeItem(at: tree)
        try Self.run(["clone", "--quiet", "--no-checkout", "--", url, tree.path], in: nil)
        for (key, value) in [
            ("user.name", Self.neutralName), ("user.email", Self.neutralEmail), ("commit.gpgsign", "false"),
            ("core.hooksPath", "/dev/null"), ("gc.auto", "0"),
        ] {
            try git(["config", key, value])
        }
        if (try? git(["rev-parse", "--verify", "-q", "refs/remotes/origin/\(Self.branch)"])) != nil {
            try git(["checkout", "--quiet", "-B", Self.branch, "refs/remotes/origin/\(Self.branch)"])
        } else {
            try git(["checkout", "--quiet", "--orphan", Self.branch])
        }
    }

    /// Fetches and checks that the remote only moved forward from `last` (the commit this
    /// machine last fetched or pushed) by adding files. Returns what contradicts that, then
    /// merges (a fast-forward or a union of new files).
    func fetchAndMerge(last: String) throws -> (findings: [RemoteFinding], head: String?) {
        try git(["fetch", "--quiet", "origin"])
        let remote = try? git(["rev-parse", "--verify", "-q", "refs/remotes/origin/\(Self.branch)"])
        guard let remote, !remote.isEmpty else {
            return (last.isEmpty ? [] : [.branchGone(branch: Self.branch, lastSeenCommit: last)], nil)
        }
        if !last.isEmpty {
            if (try? git(["merge-base", "--is-ancestor", last, remote])) == nil {
                return ([.rewound(head: remote, lastSeenCommit: last)], remote)
            }
            let findings = try git(["diff", "--name-status", "--no-renames", last, remote])
                .split(separator: "\n").compactMap(Self.rewrite)
            if !findings.isEmpty { return (findings, remote) }
        }
        let head = try? git(["rev-parse", "--verify", "-q", "HEAD"])
        if head == nil || head!.isEmpty {
            try git(["checkout", "--quiet", "-B", Self.branch, remote])
        } else {
            do {
                try git(["merge", "--quiet", "--no-edit", "-m", "sync", remote], neutral: true)
            } catch {
                // Records never collide, so this is not a conflict to resolve by hand: leave the
                // clone as it was and say what git said.
                _ = try? git(["merge", "--abort"])
                throw error
            }
        }
        return ([], remote)
    }

    /// A line of `git diff --name-status` that is not allowed: records are never rewritten; a
    /// published header is removed once a newer key change replaces it (it proves nothing on
    /// its own: records authenticate it).
    static func rewrite(_ line: Substring) -> RemoteFinding? {
        guard !line.hasPrefix("A"), !line.hasPrefix("D\t\(RemoteLayout.keysDirectory)/") else { return nil }
        let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        return .fileRewritten(status: String(parts[0]), path: parts.count > 1 ? String(parts[1]) : "")
    }

    /// Commits whatever is new in the tree and pushes it. Returns the pushed commit, or nil
    /// when someone else pushed first (fetch, check and merge again, then retry).
    func commitAndPush() throws -> String? {
        try commitWhatIsNew()
        guard let head = try? git(["rev-parse", "--verify", "-q", "HEAD"]), !head.isEmpty else { return "" }
        do {
            try git(["push", "--quiet", "origin", "HEAD:refs/heads/\(Self.branch)"])
        } catch SyncError.remoteUnusable(.gitFailed(_, let message?, _))
            where message.contains("rejected") || message.contains("fetch first")
        {
            return nil
        }
        return head
    }

    /// A sync cut short can leave the clone mid-merge, with the merged files written but not
    /// committed (a later merge then refuses to overwrite them), or with this machine's new
    /// records written but not committed. Everything in the tree belongs in it: any merge
    /// in progress is abandoned and what is there is committed; the next merge, of the same
    /// files, is clean.
    private func recoverFromAnInterruptedSync() throws {
        removeStaleLocks()
        if FileManager.default.fileExists(atPath: tree.appendingPathComponent(".git/MERGE_HEAD").path) {
            _ = try? git(["merge", "--quit"])
        }
        try commitWhatIsNew()
    }

    /// Commits whatever is new in the tree (a neutral commit); false when nothing was.
    @discardableResult
    private func commitWhatIsNew() throws -> Bool {
        try git(["add", "-A", "--", "."])
        guard (try? git(["diff", "--cached", "--quiet"])) == nil else { return false }
        try git(["commit", "--quiet", "-m", "sync"], neutral: true)
        return true
    }

    /// A git killed mid-way (Ctrl-C during a sync) leaves `index.lock`, `HEAD.lock` or a ref's
    /// `.lock` behind, and every later git command then refuses. Only diary, under its sync
    /// lock, uses this clone, so a lock found now is stale. (Objects are not walked: their
    /// number grows with the history.)
    private func removeStaleLocks() {
        let fm = FileManager.default
        let gitDirectory = tree.appendingPathComponent(".git")
        var locks = RemoteTree.names(in: gitDirectory)
            .filter { $0.hasSuffix(".lock") }.map { gitDirectory.appendingPathComponent($0) }
        if let refs = fm.enumerator(at: gitDirectory.appendingPathComponent("refs"), includingPropertiesForKeys: nil) {
            locks += refs.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(".lock") }
        }
        for lock in locks { try? fm.removeItem(at: lock) }
    }

    @discardableResult
    func git(_ args: [String], neutral: Bool = false) throws -> String {
        try Self.run(args, in: tree, neutral: neutral)
    }

    /// Runs git and returns its stdout, trimmed. A failure throws `remoteUnusable` with git's
    /// own words (they name the remote and the reason), without its advice.
    @discardableResult
    static func run(_ args: [String], in directory: URL?, neutral: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + args
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["LC_ALL"] = "C"
        // Neither the user's nor the system's git configuration may sign, hook or rewrite.
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        if neutral {
            env["GIT_AUTHOR_NAME"] = neutralName
            env["GIT_AUTHOR_EMAIL"] = neutralEmail
            env["GIT_COMMITTER_NAME"] = neutralName
            env["GIT_COMMITTER_EMAIL"] = neutralEmail
            env["GIT_AUTHOR_DATE"] = neutralDate
            env["GIT_COMMITTER_DATE"] = neutralDate
        }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Foundation's waitUntilExit looks for the child's exit only every 50 ms, which made
        // every git command cost about 50 ms more than git itself (11 of them per sync):
        // the termination handler is called as soon as the child is reaped.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw SyncError.remoteUnusable(.gitNotRunnable(reason: error.localizedDescription))
        }
        // stdout first, to its end, then stderr: with --quiet git writes little to stderr
        // (far below a pipe's 64 KiB), so it cannot block while stdout is read.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        guard process.terminationStatus == 0 else {
            // One line: git's own, without its advice ("hint: …").
            let message = String(decoding: errData, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("hint:") }
                .joined(separator: "; ")
            throw SyncError.remoteUnusable(
                .gitFailed(
                    command: args.first ?? "", message: message.isEmpty ? nil : message,
                    status: process.terminationStatus))
        }
        return String(decoding: outData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
