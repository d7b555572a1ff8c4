"""Runs a command once and reports its wall time and peak memory.

Each command runs in a new session (no controlling terminal), so nothing can prompt on the
terminal: diary must use its passphrase file or agent, and Python's getpass (jrnl) falls back
to reading stdin. Peak memory is GNU time's %M (the command's ru_maxrss, which covers every
descendant it waited for: for pass, the gpg processes). Not wait4 in this script: Python starts
children with vfork, so their ru_maxrss would include this script's own memory (the corpus).
"""
import json
import os
import statistics
import subprocess
import tempfile
import time


# GNU time (Debian package `time`).
TIME = "/usr/bin/time"


# Untimed runs before the timed ones of each row that changes nothing (list, show, search,
# list --tag; jrnl's and pass's as diary's): see `repeat`. Rows that write, or whose first run
# is the point (the first search after an edit, or without entries.pack), have none.
READ_WARMUP = 1


class CommandFailed(Exception):
    pass


def run(cmd, env, stdin_text=None, check=True, cwd=None, ok=(0,)):
    """Returns (seconds, peak_kib, stdout_text); `ok` lists the exit statuses that are not failures."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp, \
            tempfile.NamedTemporaryFile("r") as peak:
        cmd = [TIME, "-f", "%M", "-o", peak.name] + list(cmd)
        if stdin_text is not None:
            inp.write(stdin_text.encode())
            inp.seek(0)
        start = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, stdin=inp if stdin_text is not None else subprocess.DEVNULL,
                             stdout=out, stderr=err, start_new_session=True, cwd=cwd)
        _, status, _ = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - start
        lines = peak.read().split()
        peak_kib = int(lines[-1]) if lines and lines[-1].isdigit() else 0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text = out.read().decode(errors="replace")
        if check and p.returncode not in ok:
            raise CommandFailed(f"{' '.join(cmd)} exited {p.returncode}: {err.read().decode(errors='replace')[-800:]}")
        return elapsed, peak_kib, text


class Sample:
    """Several runs of one operation: the median wall time and the largest peak memory."""

    def __init__(self):
        self.times, self.peaks = [], []

    def add(self, seconds, peak_kib):
        self.times.append(seconds)
        self.peaks.append(peak_kib)

    @property
    def median(self):
        return statistics.median(self.times)

    @property
    def peak_mb(self):
        return max(self.peaks) / 1024

    def as_dict(self):
        return {"median_s": self.median, "peak_mb": self.peak_mb, "runs": len(self.times),
                "min_s": min(self.times), "max_s": max(self.times)}


def repeat(runs, make_cmd, env, stdin_text=None, before=None, after=None, check_out=None, ok=(0,), warmup=0,
           warm_each=False):
    """Runs `make_cmd(i)` `runs` times; `before`/`after` run untimed around each run.

    With `warm_each`, each timed run follows an untimed run of the same command (before `before`),
    for a row whose `after` does heavy work between its runs: a row judged against the floor beside
    it (`PairedFloor`), whose floor is measured warm, the second of two.

    `warmup` runs of `make_cmd(0)` first, untimed and unchecked (as hyperfine's --warmup), for
    commands that change nothing: a command's first run paid for what the command before it
    left (a `show` right after a `list` of 100,000 entries, 107 MB, took 6-10 ms longer, for
    builds before and after issue 23's changes alike), which a median of three cannot absorb.
    """
    for _ in range(warmup):
        run(make_cmd(0), env, stdin_text(0) if callable(stdin_text) else stdin_text, check=False)
    sample = Sample()
    for i in range(runs):
        if warm_each:
            run(make_cmd(i), env, stdin_text(i) if callable(stdin_text) else stdin_text, check=False)
        if before:
            before(i)
        t, peak, out = run(make_cmd(i), env, stdin_text(i) if callable(stdin_text) else stdin_text, ok=ok)
        if check_out:
            check_out(out)
        sample.add(t, peak)
        if after:
            after(i)
    return sample


class PairedFloor:
    """The search floor measured beside one row, run by run (issue 23's ratios).

    After each of the row's runs (untimed for the row): `diary --version`, timed as the row's
    commands are, and an all-core open of the vault's sealed bytes by a `diary-bench floor
    --passes-from stdin` set up once for the row (it has closed the vault by then); each twice,
    the second one kept. The row and its floor then see the same load: on a shared machine a slow
    minute lasts longer than a row, and a floor measured minutes away from its row moved the
    ratio by a third either way (two runs on 2026-11-29).

    A floor that fails (its process dies or answers nonsense) stops sampling and says why in
    `failure`; the row goes on, and `finish` gives None, so the block's floor is used.
    """

    def __init__(self, diary, bench, vault):
        self.diary = diary
        self.start = Sample()
        self.opens, self.open_cpus = [], []
        self.failure = None
        self.proc = subprocess.Popen([bench, "floor", "--vault", vault, "--passes-from", "stdin"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        try:
            self.vault = self._answer()
        except CommandFailed as failure:
            self.failure = str(failure)

    def _answer(self):
        line = self.proc.stdout.readline()
        try:
            return json.loads(line)
        except ValueError:
            raise CommandFailed(f"diary-bench floor answered {line[:80]!r} (exit status {self.proc.poll()})")

    def sample(self, _i=None):
        if self.failure:
            return
        try:
            # Each part twice, the second timed: warm, as the block's floor (five in a row) is, so
            # that the caches the row's command just used cannot make the floor slower. The row's
            # command is warmed the same way (`repeat(warm_each=True)`): right after a floor pass, a
            # search of 10,000 entries took 44.3 ms against 35.1 ms right after another search.
            for timed in (False, True):
                t, peak, _ = run([self.diary, "--version"], dict(os.environ))
                if timed:
                    self.start.add(t, peak)
            for timed in (False, True):
                self.proc.stdin.write("\n")
                self.proc.stdin.flush()
                passed = self._answer()
                if timed:
                    self.opens.append(passed["open_s"])
                    self.open_cpus.append(passed["open_cpu_s"])
        except (OSError, KeyError, CommandFailed) as failure:
            self.failure = str(failure) or type(failure).__name__

    def finish(self):
        """{start, floor} shaped as the block's `inprocess_search` figures, for `targets23`; None when
        the floor failed or the row ended before its first run did."""
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        if self.failure or not self.opens:
            return None
        floor = dict(self.vault, open_s=statistics.median(self.opens), open_cpu_s=statistics.median(self.open_cpus),
                     passes=len(self.opens))
        return {"start": self.start.as_dict(), "floor": floor}
