import DiaryStore
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

    /// Clones the remote (or starts a first commit when it is empty). The tree of what is
    /// checked out is checked first: a remote that holds anything but plain files is refused
    /// (`untrustedRemote`) and no clone is left.
    func cloneIfNeeded() throws {
        if FileManager.default.fileExists(atPath: tree.appendingPathComponent(".git").path) {
            try recoverFromAnInterruptedSync()
            return
        }
        try? FileManager.default.removeItem(at: tree)
        try Self.run(["clone", "--quiet", "--no-checkout", "--", url, tree.path], in: nil)
        for (key, value) in [
            ("user.name", Self.neutralName), ("user.email", Self.neutralEmail), ("commit.gpgsign", "false"),
            ("core.hooksPath", "/dev/null"), ("gc.auto", "0"), ("core.symlinks", "false"),
        ] {
            try git(["config", key, value])
        }
        let remote = "refs/remotes/origin/\(Self.branch)"
        if (try? git(["rev-parse", "--verify", "-q", remote])) != nil {
            let refused = try refusedEntries(of: remote)
            guard refused.isEmpty else {
                try? FileManager.default.removeItem(at: tree)
                throw SyncError.untrustedRemote(refused)
            }
            try git(["checkout", "--quiet", "-B", Self.branch, remote])
        } else {
            try git(["checkout", "--quiet", "--orphan", Self.branch])
        }
    }

    /// Fetches and checks that the remote only moved forward from `last` (the commit this
    /// machine last fetched or pushed) by adding files, and that its tree holds plain files
    /// only. Returns what contradicts that, then merges (a fast-forward or a union of new
    /// files).
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
        let refused = try refusedEntries(of: remote)
        if !refused.isEmpty { return (refused, remote) }
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
        pointLocalBareHeadAtBranch()
        return head
    }

    /// The entries of `commit`'s tree diary never writes: anything but a plain file (mode
    /// 100644), such as a symbolic link, a submodule or an executable, and the files git itself
    /// obeys (`.gitattributes`, `.gitignore`, `.gitmodules`, at any depth). Checked before a
    /// commit is checked out or merged; each is a finding naming its path.
    func refusedEntries(of commit: String) throws -> [RemoteFinding] {
        try git(["ls-tree", "-r", "-z", "--full-tree", commit]).split(separator: "\0").compactMap(Self.refusedEntry)
    }

    /// A line of `git ls-tree -r -z` (`<mode> <type> <object>\t<path>`) that is refused, or nil.
    static func refusedEntry(_ line: Substring) -> RemoteFinding? {
        guard let tab = line.firstIndex(of: "\t") else { return .treeEntryRefused(path: String(line), mode: "") }
        let fields = line[..<tab].split(separator: " ")
        let path = String(line[line.index(after: tab)...])
        let obeyedByGit = path.split(separator: "/").contains { $0.lowercased().hasPrefix(".git") }
        guard fields.count != 3 || fields[0] != "100644" || fields[1] != "blob" || obeyedByGit else { return nil }
        return .treeEntryRefused(path: path, mode: fields.first.map(String.init) ?? "")
    }

    /// A bare repository made by a plain `git init --bare` keeps HEAD on `master` (or whatever
    /// `init.defaultBranch` names) while diary pushes `main`, so a `git clone` of it shows
    /// nothing. After a push to a local one (a path or a `file://` address), its HEAD is
    /// pointed at diary's branch when it names a branch that does not exist: a HEAD someone
    /// pointed at a real branch is left alone. Other hosts are not asked (git cannot set
    /// another host's HEAD); diary's own clones never rely on it. Best effort: the push itself
    /// has succeeded.
    func pointLocalBareHeadAtBranch() {
        guard let repository = Self.localPath(url),
            let bytes = try? DurableFile.read(
                URL(fileURLWithPath: repository).appendingPathComponent("HEAD"), limit: 4096)
        else { return }
        let head = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let wanted = "refs/heads/\(Self.branch)"
        guard head.hasPrefix("ref: "), head != "ref: \(wanted)" else { return }
        let gitDirectory = ["--git-dir", repository]
        if (try? Self.run(gitDirectory + ["rev-parse", "--verify", "-q", String(head.dropFirst(5))], in: nil)) != nil {
            return
        }
        _ = try? Self.run(gitDirectory + ["symbolic-ref", "HEAD", wanted], in: nil)
    }

    /// The path of a local repository address: an absolute path (`sync init` makes a local
    /// path absolute) or a `file://` URL; nil for any other address.
    static func localPath(_ url: String) -> String? {
        if url.hasPrefix("/") { return url }
        if url.hasPrefix("file://"), let parsed = URL(string: url), parsed.isFileURL, !parsed.path.isEmpty {
            return parsed.path
        }
        return nil
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

    /// Runs git (`GitProcess.run`: a time limit, only the transports a remote needs).
    @discardableResult
    static func run(_ args: [String], in directory: URL?, neutral: Bool = false) throws -> String {
        try GitProcess.run(args, in: directory, neutral: neutral)
    }
}
