"""The sync rows of Scripts/bench (issue 14): `diary sync` after one new entry, and `diary sync join`.

For each local store and size N: a vault of N corpus entries (diary-bench load), an unlocked
session, then for each remote kind (a local bare git repository, a plain folder) `diary sync init`
once (untimed: it publishes every entry), then `diary sync` timed after adding one new entry
(`diary new`, untimed, before each run), and `diary sync` with nothing new. The folder remote
syncs a copy of the vault directory (a copy is another place, so it has its own sync state).

Every timed sync runs with GIT_TRACE2_EVENT pointing at a file; the exit events of the git
processes diary started (session ids without a '/': not their children) give how long each git
command took, so the time outside git, and outside the transfer (fetch and push), can be stated.

`sync join` of `join_size` entries: from the bare repository and from the folder, into a fresh
vault of each store (fresh XDG_STATE_HOME each run), with --passphrase-file and the real default
KDF (the join derives the key once; the KDF's cost on this machine is measured separately as
`list -n 1` with --passphrase-file minus the same unlocked).
"""
import json
import os
import shutil
import statistics
import subprocess

from .measure import Sample, run, CommandFailed


def _git_times(trace):
    """{git subcommand: seconds} for the top-level git processes in a GIT_TRACE2_EVENT file."""
    out = {}
    if not os.path.exists(trace):
        return out
    names = {}
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            sid = ev.get("sid", "")
            if "/" in sid:
                continue  # a child of a git process: already inside its parent's time
            if ev.get("event") == "start":
                argv = ev.get("argv", [])
                names[sid] = argv[1] if len(argv) > 1 else "git"
            elif ev.get("event") == "exit" and sid in names:
                out[names[sid]] = out.get(names[sid], 0.0) + float(ev.get("t_abs", 0.0))
    return out


class SyncBench:
    def __init__(self, diary, bench, work, runs, log):
        self.diary, self.bench, self.work, self.runs, self.log = diary, bench, work, runs, log

    def _env(self, root, vault):
        for sub in ("run", "state", "home"):
            os.makedirs(os.path.join(root, sub), mode=0o700, exist_ok=True)
        env = dict(os.environ, DIARY_VAULT=vault, XDG_RUNTIME_DIR=os.path.join(root, "run"),
                   XDG_STATE_HOME=os.path.join(root, "state"), HOME=os.path.join(root, "home"), NO_COLOR="1")
        for k in ("DIARY_PASSPHRASE_FILE", "DIARY_NEW_PASSPHRASE_FILE", "GIT_TRACE2_EVENT", "GIT_TRACE_PERFORMANCE"):
            env.pop(k, None)
        return env

    def _load(self, store, n, corpus_file, passphrase, root):
        vault = os.path.join(root, "vault")
        _, _, out = run([self.bench, "load", "--vault", vault, "--store", store, "--passphrase-file", passphrase,
                         "--corpus", corpus_file, "--count", str(n), "--kdf", "moderate"], dict(os.environ))
        self.log(f"  loaded {store} N={n:,}: import {json.loads(out)['import_s']:.1f}s")
        return vault

    def _timed_sync(self, env, trace, sample, git, name_check=None):
        if os.path.exists(trace):
            os.remove(trace)
        t, peak, _ = run([self.diary, "sync"], dict(env, GIT_TRACE2_EVENT=trace))
        sample.add(t, peak)
        g = _git_times(trace)
        for k, v in g.items():
            git.setdefault(k, []).append(v)
        git.setdefault("_total", []).append(sum(g.values()))

    def measure_sync(self, store, n, corpus_file, passphrase):
        """{remote: {"one_new": {...}, "nothing_new": {...}, "init_s": s}} for remote in git, folder."""
        d = self.diary
        base = os.path.join(self.work, f"sync-{store}-{n}")
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
        src = os.path.join(base, "git")
        vault = self._load(store, n, corpus_file, passphrase, src)
        # The folder remote's vault: a copy made before anything else touched the vault.
        folder_root = os.path.join(base, "folder")
        os.makedirs(folder_root)
        subprocess.run(["cp", "-a", vault, os.path.join(folder_root, "vault")], check=True)
        result = {}
        for kind, root in (("git", src), ("folder", folder_root)):
            v = os.path.join(root, "vault")
            env = self._env(root, v)
            remote = os.path.join(base, f"remote-{kind}")
            if kind == "git":
                subprocess.run(["git", "init", "--quiet", "--bare", "-b", "main", remote], check=True)
                target = [remote]
            else:
                os.makedirs(remote)
                target = ["--folder", remote]
            try:
                run([d, "unlock", "--timeout", "3h", "--max", "8h", "--passphrase-file", passphrase], env)
                t_init, peak_init, _ = run([d, "sync", "init"] + target + ["--name", f"bench-{kind}",
                                                                          "--passphrase-file", passphrase], env)
                self.log(f"  {store} N={n:,} {kind}: sync init {t_init:.1f}s, {peak_init / 1024:.0f} MB")
                trace = os.path.join(root, "trace2.json")
                one, one_git = Sample(), {}
                for i in range(self.runs):
                    run([d, "new", f"Sync bench entry {i}. Written on the first machine.", "--tag", "bench"], env)
                    self._timed_sync(env, trace, one, one_git)
                nothing, nothing_git = Sample(), {}
                for i in range(self.runs):
                    self._timed_sync(env, trace, nothing, nothing_git)
                # Every timed run with a new entry must have published exactly one record.
                if kind == "git":
                    commits = int(subprocess.run(["git", "--git-dir", remote, "rev-list", "--count", "main"],
                                                 check=True, capture_output=True, text=True).stdout)
                    published = commits
                    tree = subprocess.run(["git", "--git-dir", remote, "ls-tree", "-r", "--name-only", "main"],
                                          check=True, capture_output=True, text=True).stdout.splitlines()
                    records = sum(1 for p in tree if p.startswith("log/"))
                else:
                    published = None
                    records = sum(len(fs) for _, _, fs in os.walk(os.path.join(remote, "log")))
                result[kind] = {
                    "init_s": t_init, "init_peak_mb": peak_init / 1024, "records": records, "commits": published,
                    "one_new": dict(one.as_dict(), git={k: statistics.median(v) for k, v in one_git.items()},
                                    times=one.times, git_runs=one_git),
                    "nothing_new": dict(nothing.as_dict(), git={k: statistics.median(v) for k, v in nothing_git.items()},
                                        times=nothing.times, git_runs=nothing_git),
                }
                r = result[kind]
                self.log(f"  {store} N={n:,} {kind}: one new {r['one_new']['median_s'] * 1000:.0f} ms "
                         f"(git {r['one_new']['git'].get('_total', 0) * 1000:.0f} ms), nothing new "
                         f"{r['nothing_new']['median_s'] * 1000:.0f} ms; {records} records")
            finally:
                run([d, "lock"], env, check=False)
        shutil.rmtree(base, ignore_errors=True)
        return result

    def measure_join(self, stores, n, corpus_file, passphrase):
        """{remote: {store: sample dict}} for `diary sync join` of n entries, plus the KDF's cost."""
        d = self.diary
        base = os.path.join(self.work, f"join-{n}")
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
        src = os.path.join(base, "src")
        vault = self._load("sqlite", n, corpus_file, passphrase, src)
        env = self._env(src, vault)
        bare, folder = os.path.join(base, "remote-git"), os.path.join(base, "remote-folder")
        subprocess.run(["git", "init", "--quiet", "--bare", "-b", "main", bare], check=True)
        run([d, "sync", "init", bare, "--name", "source", "--passphrase-file", passphrase], env)
        # The folder remote: the same tree as the git remote's main (what a folder sync writes).
        subprocess.run(["git", "clone", "--quiet", bare, folder], check=True)
        shutil.rmtree(os.path.join(folder, ".git"))
        # The KDF's share: the same small command with and without it.
        kdf = Sample()
        unlocked = Sample()
        run([d, "unlock", "--passphrase-file", passphrase], env)
        for _ in range(self.runs):
            unlocked.add(*run([d, "list", "-n", "1"], env)[:2])
        run([d, "lock"], env, check=False)
        for _ in range(self.runs):
            kdf.add(*run([d, "list", "-n", "1", "--passphrase-file", passphrase], env)[:2])
        result = {"kdf_s": kdf.median - unlocked.median, "list_passphrase": kdf.as_dict(),
                  "list_unlocked": unlocked.as_dict()}
        for kind, target in (("git", [bare]), ("folder", ["--folder", folder])):
            for store in stores:
                sample, git = Sample(), {}
                for i in range(self.runs):
                    root = os.path.join(base, f"join-{kind}-{store}-{i}")
                    jenv = self._env(root, os.path.join(root, "vault"))
                    trace = os.path.join(root, "trace2.json")
                    t, peak, _ = run([d, "sync", "join"] + target + ["--to", os.path.join(root, "vault"), "--store", store,
                                                                     "--name", "joiner", "--passphrase-file", passphrase],
                                     dict(jenv, GIT_TRACE2_EVENT=trace))
                    sample.add(t, peak)
                    g = _git_times(trace)
                    for k, v in g.items():
                        git.setdefault(k, []).append(v)
                    git.setdefault("_total", []).append(sum(g.values()))
                    out = run([d, "list", "-n", str(n + 10), "--passphrase-file", passphrase], jenv)[2]
                    got = len([l for l in out.splitlines() if l.strip()])
                    if got != n:
                        raise CommandFailed(f"join {kind} {store}: {got} entries listed, expected {n}")
                    shutil.rmtree(root, ignore_errors=True)
                result.setdefault(kind, {})[store] = dict(sample.as_dict(), times=sample.times,
                                                          git={k: statistics.median(v) for k, v in git.items()})
                self.log(f"  join {n:,} from {kind} into {store}: {sample.median:.2f} s, {sample.peak_mb:.0f} MB")
        shutil.rmtree(base, ignore_errors=True)
        return result
