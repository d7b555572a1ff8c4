"""The diary side: build a vault of N corpus entries and time the everyday commands on it."""
import json
import os
import shutil
import subprocess

from . import corpus
from .measure import READ_WARMUP, PairedFloor, Sample, repeat, run, CommandFailed

OPS = ["add", "list10", "list", "show", "search", "search_absent", "search_after_edit", "search_rewrite", "tag", "export", "passwd", "rekey", "backup", "verify"]
# Measured once per store and size in the unlocked session, after the two modes (issue 23):
# restore of the backup, import of the JSON export into a new vault, and rekey under the
# interactive KDF (rekey always derives a key: with the default KDF its 256 MiB would be the
# peak whatever rekey itself holds).
EXTRA_OPS = ["restore", "import", "rekey_interactive"]
# A files-store search makes its scan copy, entries.pack, from this many entries (`EntryPack.minimumEntries`).
PACK_MINIMUM_ENTRIES = 1024
# passwd and rekey always need the current passphrase, even while unlocked (issue 4), so they
# are the same command in both modes and are measured once.
PASSPHRASE_ONLY = {"passwd", "rekey"}


def settle():
    """Writes back what the bench itself left dirty before timing, so that the fsyncs of the first timed
    commands (add is first) never wait behind the kernel's writeback of the setup (a load writes 40 MB to
    400 MB)."""
    os.sync()


def _lines(count, at_least=False):
    """A check that the output has `count` non-blank lines (or at least `count`)."""
    def check(out):
        got = len([l for l in out.splitlines() if l.strip()])
        if got < count if at_least else got != count:
            raise CommandFailed(f"expected {'at least ' if at_least else ''}{count} lines, got {got}")
    return check


def _nonempty(out):
    if not out.strip():
        raise CommandFailed("expected output, got none")


class DiaryBench:
    def __init__(self, diary, bench, work, runs, log):
        self.diary, self.bench, self.work, self.runs, self.log = diary, bench, work, runs, log
        listing = subprocess.run([diary, "--help"], capture_output=True, text=True).stdout
        self.has_export = any(line.split()[:1] == ["export"] for line in listing.splitlines())

    def runs_for(self, op, n):
        heavy = op in ("rekey", "backup", "verify", "export", "restore", "import")
        return max(1, min(self.runs, 3)) if heavy and n >= 100_000 else self.runs

    def setup(self, store, n, corpus_file, passphrases):
        """A fresh vault of the first n corpus entries, built in process (diary-bench load)."""
        root = os.path.join(self.work, f"diary-{store}-{n}")
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(root, "run"), mode=0o700)
        vault = os.path.join(root, "vault")
        _, _, out = run([self.bench, "load", "--vault", vault, "--store", store, "--passphrase-file", passphrases[0],
                         "--corpus", corpus_file, "--count", str(n), "--kdf", "moderate"], dict(os.environ))
        loaded = json.loads(out)
        self.log(f"  loaded {store} N={n}: import {loaded['import_s']:.1f}s")
        settle()
        # The witness's copy of the index (as large as the index) lives with the vault and goes with it.
        env = dict(os.environ, DIARY_VAULT=vault, XDG_RUNTIME_DIR=os.path.join(root, "run"),
                   XDG_STATE_HOME=os.path.join(root, "state"), NO_COLOR="1")
        for k in ("DIARY_PASSPHRASE_FILE", "DIARY_NEW_PASSPHRASE_FILE"):
            env.pop(k, None)
        return root, vault, env

    def _flat_commands(self, pick_id):
        """{op: (make(i) -> argv, output check)} for the flatness rows: add, list -n 10 and show `pick_id`."""
        d = self.diary
        return {
            "add": (lambda i: [d, "new", f"Bench entry {i}\nAdded by Scripts/bench.", "--tag", "bench"], None),
            "list10": (lambda i: [d, "list", "-n", "10"], _lines(10)),
            "show": (lambda i: [d, "show", pick_id], _nonempty),
        }

    def measure_flat(self, store, n, corpus_file, pick_id, passphrases):
        """{op: Sample} for add, list -n 10 and show alone, in the unlocked session: the flatness rows at a
        size too large for the whole set (issue 23: within 1.5x at 1,000,000)."""
        root, vault, env = self.setup(store, n, corpus_file, passphrases)
        d, r = self.diary, {}
        try:
            run([d, "unlock", "--timeout", "3h", "--max", "8h", "--passphrase-file", passphrases[0]], env)
            self.log(f"  {store} N={n} flat rows (add, list -n 10, show)")
            for op, (make, check) in self._flat_commands(pick_id).items():
                r[op] = repeat(self.runs, make, env, check_out=check, warmup=0 if op == "add" else READ_WARMUP)
        finally:
            run([d, "lock"], env, check=False)
            shutil.rmtree(root, ignore_errors=True)
        return r

    def measure_side_by_side(self, stores, sizes, corpus_file, pick_ids, passphrases):
        """Issue 23's rows that compare two vaults, timed with both built and unlocked at once and their
        runs alternated: add, list -n 10 and show at the two `sizes` of each store (flatness), and
        `rekey` of the larger size in each store (the files store against sqlite). The main blocks time
        those vaults minutes apart; two runs on 2026-11-29 each had one block about a third slower than
        the rest, which alone made such a row miss or pass.
        Returns ({store: {str(n): {op: Sample}}}, {store: Sample of rekey at the larger size})."""
        d = self.diary
        built = {}
        flat = {store: {str(n): {op: Sample() for op in ("add", "list10", "show")} for n in sizes} for store in stores}
        rekey = {store: Sample() for store in ("sqlite", "files") if store in stores}
        try:
            for store in stores:
                for n in sizes:
                    built[(store, n)] = self.setup(store, n, corpus_file, passphrases)
            for _, _, env in built.values():
                run([d, "unlock", "--timeout", "3h", "--max", "8h", "--passphrase-file", passphrases[0]], env)
            commands = {n: self._flat_commands(pick_ids[n]) for n in sizes}
            for store in stores:
                self.log(f"  {store} N={' and '.join(f'{n:,}' for n in sizes)} flat rows, alternated")
                for op, (_, check) in commands[sizes[0]].items():
                    make = lambda n, i, op=op: commands[n][op][0](i)  # noqa: E731
                    self._alternate([(built[(store, n)][2], n) for n in sizes], make, flat[store], op,
                                    warm_each=True, check_out=check)
            if len(rekey) == 2:
                self.log(f"  rekey at N={sizes[-1]:,}, sqlite and files alternated")
                make_rekey = lambda store, i: [d, "rekey", "--passphrase-file", passphrases[0]]  # noqa: E731
                self._alternate([(built[(store, sizes[-1])][2], store) for store in rekey], make_rekey,
                                {store: {"rekey": rekey[store]} for store in rekey}, "rekey",
                                runs=self.runs_for("rekey", sizes[-1]))
        finally:
            for root, _, env in built.values():
                run([d, "lock"], env, check=False)
                shutil.rmtree(root, ignore_errors=True)
        # Only both stores make the rekey row (the files store against sqlite).
        return flat, (rekey if len(rekey) == 2 else {})

    def _alternate(self, targets, make, samples, op, warm_each=False, check_out=None, runs=None):
        """`make(key, i)` on each (env, key) of `targets` in turn, `runs` rounds, each key first in every
        other round; times go to samples[str(key)][op].

        With `warm_each`, each timed run follows an untimed run of the same command on the same vault
        (A′ A B′ B …): a command's first run after another vault's pays for what that one left (the
        6–10 ms the main blocks' warm-up is for), and that cost is not the same in both directions."""
        for i in range(runs or self.runs):
            for env, key in (targets if i % 2 == 0 else targets[::-1]):
                if warm_each:
                    run(make(key, i), env, check=False)
                t, peak, out = run(make(key, i), env)
                if check_out:
                    check_out(out)
                samples[str(key)][op].add(t, peak)

    def measure(self, store, n, entries, corpus_file, passphrases):
        """{mode: {op: Sample}} for mode in unlocked, passphrase."""
        root, vault, env = self.setup(store, n, corpus_file, passphrases)
        stats = corpus.stats(entries)
        current = [passphrases[0], passphrases[1]]  # [current, other]
        pick = entries[n // 2]
        # Entries edited (starred, untimed) before each "first search after an edit": not starred
        # yet, so the star re-seals each one (at the same size: a flag bit of its plaintext).
        edits = [e["id"] for e in entries[n // 3:] if not e["starred"]][:2 * self.runs]
        paired = {}
        try:
            results = self._measure_modes(store, n, root, env, stats, current, pick, edits, paired)
        finally:
            # Never leave an agent behind, even when a command failed.
            run([self.diary, "lock"], env, check=False)
        inproc = json.loads(run([self.bench, "search", "--vault", vault, "--passphrase-file", current[0],
                                 "--query", corpus.RARE_WORD, "--runs", "3"], dict(os.environ))[2])
        # The floor's process start, measured beside its libsodium part (the same load).
        inproc["start"] = repeat(max(self.runs, 5), lambda i: [self.diary, "--version"], dict(os.environ)).as_dict()
        inproc["floor"] = json.loads(run([self.bench, "floor", "--vault", vault, "--runs", str(max(self.runs, 5))],
                                         dict(os.environ))[2])
        # Each judged row's own floor, measured run by run beside it (`PairedFloor`).
        inproc["paired_floor"] = paired
        try:
            results["unlocked"].update(self._measure_extra(store, n, root, env, current))
        finally:
            run([self.diary, "lock", "--all"], env, check=False)
        shutil.rmtree(root, ignore_errors=True)
        return results, inproc

    def _measure_extra(self, store, n, root, env, current):
        """restore, import and rekey under the interactive KDF, in the unlocked session."""
        d, r = self.diary, {}
        run([d, "unlock", "--timeout", "3h", "--max", "8h", "--passphrase-file", current[0]], env)
        bak = os.path.join(root, "backup.diarybak")
        restored = os.path.join(root, "restored")

        def clear_restored(i):
            # Not `lock`: the restored vault has the source's id, so that would end the
            # source's agent too.
            shutil.rmtree(restored, ignore_errors=True)
        r["restore"] = repeat(self.runs_for("restore", n), lambda i: [d, "restore", bak, "--to", restored], env,
                              before=clear_restored, after=clear_restored)
        exported = os.path.join(root, "export.json")
        run([d, "export", "--yes", "-o", exported], env)
        target = os.path.join(root, "imported")
        ienv = dict(env, DIARY_VAULT=target)

        def new_vault(i):
            shutil.rmtree(target, ignore_errors=True)
            run([d, "init", "--store", store, "--kdf", "interactive", "--new-passphrase-file", current[0]], ienv)
            run([d, "unlock", "--passphrase-file", current[0]], ienv)

        def drop_vault(i):
            run([d, "lock"], ienv, check=False)
            shutil.rmtree(target, ignore_errors=True)
        r["import"] = repeat(self.runs_for("import", n), lambda i: [d, "import", "--from", "diary", exported], ienv,
                             before=new_vault, after=drop_vault)
        os.remove(exported)
        run([d, "passwd", "--kdf", "interactive", "--passphrase-file", current[0], "--new-passphrase-file",
             current[1]], env)
        current.reverse()
        r["rekey_interactive"] = repeat(1, lambda i: [d, "rekey", "--passphrase-file", current[0]], env)
        return r

    def _measure_modes(self, store, n, root, env, stats, current, pick, edits, paired):
        """`paired` is given the floor measured beside each row judged against it (unlocked)."""
        d = self.diary

        def judged(op, mode, measure):
            """`measure(after)` with a floor sample after each run, in the unlocked session."""
            if mode != "unlocked":
                return measure(None)
            floor = PairedFloor(d, self.bench, env["DIARY_VAULT"])
            try:
                return measure(floor.sample)
            finally:
                figures = floor.finish()
                if figures:
                    paired[op] = figures
                elif floor.failure:
                    self.log(f"  {store} N={n} {op}: the floor beside it failed ({floor.failure[-200:]}); "
                             "the block's floor is used")

        def pp():
            return ["--passphrase-file", current[0]]

        results = {}
        for mode in ("unlocked", "passphrase"):
            if mode == "unlocked":
                run([d, "unlock", "--timeout", "3h", "--max", "8h"] + pp(), env)
            else:
                run([d, "lock"], env, check=False)
            a = (lambda: []) if mode == "unlocked" else pp
            r = {}
            self.log(f"  {store} N={n} {mode}")
            r["add"] = repeat(self.runs_for("add", n), lambda i: [d, "new", f"Bench entry {i}\nAdded by Scripts/bench.",
                                                                  "--tag", "bench"] + a(), env)
            r["list10"] = repeat(self.runs, lambda i: [d, "list", "-n", "10"] + a(), env, check_out=_lines(10),
                                 warmup=READ_WARMUP)
            r["list"] = repeat(self.runs, lambda i: [d, "list"] + a(), env, check_out=_lines(n, at_least=True),
                               warmup=READ_WARMUP)
            r["show"] = repeat(self.runs, lambda i: [d, "show", pick["id"]] + a(), env, warmup=READ_WARMUP)
            # The files store's first search writes entries.pack: the warm-up run does, and the
            # search without a copy has a row of its own (search_rewrite).
            r["search"] = repeat(self.runs, lambda i: [d, "search", corpus.RARE_WORD] + a(), env,
                                 check_out=_lines(stats["rare_hits"]), warmup=READ_WARMUP)
            # Exit status 1: no match, as documented.
            r["search_absent"] = judged("search_absent", mode, lambda after: repeat(
                self.runs, lambda i: [d, "search", corpus.ABSENT_WORD] + a(), env,
                check_out=_lines(0), ok=(1,), warmup=READ_WARMUP, after=after, warm_each=after is not None))
            pack = os.path.join(env["DIARY_VAULT"], "entries.pack")
            # Below 1,024 entries a search makes no scan copy (`EntryPack.minimumEntries`): no row.
            # At or above, a missing copy fails the row (`star_keeping_copy`) rather than hiding it.
            if store == "files" and n >= PACK_MINIMUM_ENTRIES:
                # The first search after an edit that keeps the entry's sealed size (a star set,
                # untimed): it emptied the segment of the scan copy (entries.pack) holding the
                # entry, and this search reads the rest of the copy and that segment's files.
                base = 0 if mode == "unlocked" else self.runs

                def star_keeping_copy(entry):
                    run([d, "star", entry] + a(), env)
                    # The row measures a search that reads an emptied copy: a star re-seals
                    # at the same size, so the copy must still be there.
                    if not os.path.exists(pack):
                        raise RuntimeError(f"`diary star {entry}` removed entries.pack")

                r["search_after_edit"] = judged("search_after_edit", mode, lambda after: repeat(
                    self.runs, lambda i: [d, "search", corpus.ABSENT_WORD] + a(), env,
                    before=lambda i: star_keeping_copy(edits[base + i]),
                    check_out=_lines(0), ok=(1,), after=after, warm_each=after is not None))
                # The first search without a copy (after a delete, an edit that changes an
                # entry's size, a key rotation or a change of more than 16 segments, which
                # remove it): it reads every entry file and writes the copy again.
                r["search_rewrite"] = repeat(self.runs, lambda i: [d, "search", corpus.ABSENT_WORD] + a(), env,
                                             before=lambda i: os.path.exists(pack) and os.remove(pack),
                                             check_out=_lines(0), ok=(1,))
            r["tag"] = repeat(self.runs, lambda i: [d, "list", "--tag", corpus.TAG_FOR_LISTING] + a(), env,
                              check_out=_lines(stats["tag_hits"]), warmup=READ_WARMUP)
            if self.has_export:
                r["export"] = judged("export", mode, lambda after: repeat(
                    self.runs_for("export", n), lambda i: [d, "export", "--yes"] + a(), env, after=after,
                    warm_each=after is not None))
            bak = os.path.join(root, "backup.diarybak")
            r["backup"] = repeat(self.runs_for("backup", n), lambda i: [d, "backup", bak] + a(), env,
                                 before=lambda i: os.path.exists(bak) and os.remove(bak))
            r["verify"] = repeat(self.runs_for("verify", n), lambda i: [d, "verify"] + a(), env)
            if mode == "unlocked":
                def swap(i):
                    current.reverse()
                r["passwd"] = repeat(self.runs_for("passwd", n), lambda i: [d, "passwd", "--passphrase-file", current[0],
                                                                        "--new-passphrase-file", current[1]], env,
                                     after=swap)
                r["rekey"] = repeat(self.runs_for("rekey", n), lambda i: [d, "rekey"] + pp(), env)
                # The session must have survived the rekey with the new key.
                run([d, "list", "-n", "1"], env)
            else:
                r["passwd"] = results["unlocked"]["passwd"]
                r["rekey"] = results["unlocked"]["rekey"]
            results[mode] = r
        return results
