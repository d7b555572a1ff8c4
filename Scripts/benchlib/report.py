"""Tables and the target check, as Markdown (docs/BENCHMARKS.md holds the latest output)."""

OP_NAMES = {"add": "add one entry", "list10": "list last 10", "list": "list all", "show": "show one",
            "search": "search rare word", "search_absent": "search absent word",
            "search_after_edit": "search absent word, first after a same-size edit (a segment of entries.pack emptied)",
            "search_rewrite": "search absent word, no entries.pack (writes it)", "tag": "list by tag",
            "export": "export JSON", "passwd": "passwd", "rekey": "rekey", "backup": "backup", "verify": "verify",
            "restore": "restore", "import": "import (diary JSON, new vault)", "rekey_interactive": "rekey (interactive KDF)"}


def _fmt_s(x):
    return "—" if x is None else (f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s")


def _ratio(theirs, ours):
    return "—" if theirs is None or ours is None else f"{theirs / ours:.0f}×" if theirs / ours >= 10 else f"{theirs / ours:.1f}×"


def diary_tables(res, sizes, ops):
    out = []
    for store in res["diary"]:
        out.append(f"\n### diary, {store} store (median wall time; peak memory)\n")
        head = "| operation | " + " | ".join(f"N={n:,} unlocked | N={n:,} passphrase" for n in sizes) + " |"
        out += [head, "|---" * (1 + 2 * len(sizes)) + "|"]
        for op in ops:
            cells = []
            for n in sizes:
                for mode in ("unlocked", "passphrase"):
                    s = res["diary"][store].get(str(n), {}).get(mode, {}).get(op)
                    cells.append("—" if s is None else f"{_fmt_s(s['median_s'])}; {s['peak_mb']:.0f} MB")
            out.append(f"| {OP_NAMES[op]} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def peer_table(res, n, ops):
    if not res.get("peers", {}).get(str(n)):
        return ""
    peers = res["peers"][str(n)]
    stores = list(res["diary"])
    out = [f"\n### N={n:,}: diary (unlocked session) beside jrnl and pass\n"]
    head = "| operation | " + " | ".join(f"diary {s}" for s in stores)
    for peer in ("jrnl", "pass"):
        if peer in peers:
            head += f" | {peer} | " + " | ".join(f"{peer} ÷ {s}" for s in stores)
    out += [head + " |", "|---" * head.count("|") + "|"]
    for op in ops:
        ours = [res["diary"][s].get(str(n), {}).get("unlocked", {}).get(op) for s in stores]
        ours_t = [o["median_s"] if o else None for o in ours]
        row = f"| {OP_NAMES[op]} | " + " | ".join(_fmt_s(t) for t in ours_t)
        for peer in ("jrnl", "pass"):
            if peer in peers:
                theirs = peers[peer].get(op)
                t = theirs["median_s"] if theirs else None
                row += f" | {_fmt_s(t)}" + (f", {theirs['peak_mb']:.0f} MB" if theirs else "") + " | " + \
                       " | ".join(_ratio(t, o) for o in ours_t)
        out.append(row + " |")
    return "\n".join(out)


def throughput_table(res):
    raw = res["aead"]["bytes_per_s"]
    out = [f"\n### Search throughput against raw XChaCha20-Poly1305 open "
           f"({raw / 1e6:.0f} MB/s for {res['aead']['size']}-byte messages, one core)\n",
           "| store | N | text | CLI search | CLI MB/s | of raw | in-process search | in-process MB/s | of raw | of raw, CPU time |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for store, by_n in res["diary"].items():
        for n, r in by_n.items():
            ip = r["inprocess_search"]
            cli_t = r["unlocked"]["search"]["median_s"]
            cli_bps = ip["text_bytes"] / cli_t
            out.append(f"| {store} | {int(n):,} | {ip['text_bytes'] / 1e6:.1f} MB | {_fmt_s(cli_t)} | {cli_bps / 1e6:.0f} | "
                       f"{cli_bps / raw:.0%} | {_fmt_s(ip['search_s'])} | {ip['bytes_per_s'] / 1e6:.0f} | "
                       f"{ip['bytes_per_s'] / raw:.0%} | {ip['cpu_bytes_per_s'] / res['aead']['cpu_bytes_per_s']:.0%} |")
    return "\n".join(out)


def targets(res):
    """[(target, value text, met: bool|None)] for the targets of issue 6."""
    rows = []

    def t(store, n, op, mode="unlocked"):
        s = res["diary"].get(store, {}).get(str(n), {}).get(mode, {}).get(op)
        return s and s["median_s"]

    def peer(name, n, op):
        s = res.get("peers", {}).get(str(n), {}).get(name, {}).get(op)
        return s and s["median_s"]

    for store in res["diary"]:
        for op, want in (("add", 100), ("list10", 60), ("search", 30)):
            ours, theirs = t(store, 10000, op), peer("jrnl", 10000, op)
            if ours and theirs:
                rows.append((f"{store}: {OP_NAMES[op]} ≥ {want}× faster than jrnl (N=10,000)",
                             f"{theirs / ours:.1f}×", theirs / ours >= want))
        a, b = t(store, 1000, "passwd"), t(store, 100000, "passwd")
        if a and b:
            rows.append((f"{store}: passwd within 1.2× between 1,000 and 100,000", f"{b / a:.2f}×",
                         max(a, b) / min(a, b) <= 1.2))
        ours, theirs = t(store, 1000, "search"), peer("pass", 1000, "search")
        if ours and theirs:
            rows.append((f"{store}: search ≥ 500× faster than pass grep (N=1,000)", f"{theirs / ours:.0f}×",
                         theirs / ours >= 500))
        for op in ("add", "show"):
            a, b = t(store, 1000, op), t(store, 100000, op)
            if a and b:
                rows.append((f"{store}: {OP_NAMES[op]} at 100,000 within 1.5× of 1,000", f"{b / a:.2f}×", b / a <= 1.5))
        r = res["diary"][store].get("10000")
        if r:
            raw = res["aead"]["bytes_per_s"]
            cli = r["inprocess_search"]["text_bytes"] / r["unlocked"]["search"]["median_s"] / raw
            inproc = r["inprocess_search"]["bytes_per_s"] / raw
            cpu = r["inprocess_search"]["cpu_bytes_per_s"] / res["aead"]["cpu_bytes_per_s"]
            rows.append((f"{store}: search throughput ≥ 50% of raw open (N=10,000)",
                         f"CLI {cli:.0%}; in process {inproc:.0%} (CPU time {cpu:.0%})", cli >= 0.5))
            for op in ("list10", "search"):
                mb = r["unlocked"][op]["peak_mb"]
                rows.append((f"{store}: peak memory of {OP_NAMES[op]} ≤ 64 MB (N=10,000)", f"{mb:.0f} MB", mb <= 64))
    return rows


def target_table(res):
    out = ["\n### Targets (issue 6)\n", "| target | measured | met |", "|---|---|---|"]
    for name, value, met in targets(res):
        out.append(f"| {name} | {value} | {'yes' if met else '**no**'} |")
    return "\n".join(out)


def _outside(row, commands):
    """Median over the runs of the command's time minus the named git commands' time in that run."""
    runs = row.get("git_runs", {})
    out = []
    for i, t in enumerate(row["times"]):
        spent = sum(runs[c][i] for c in commands if c in runs and i < len(runs[c]))
        out.append(t - spent)
    return sorted(out)[len(out) // 2] if out else None


TRANSFER = ("fetch", "push")


def sync_rows(res):
    """[(store, remote, n, row)]"""
    return [(store, remote, int(n), r) for store, by_n in res.get("sync", {}).items()
            for n, by_remote in by_n.items() for remote, r in by_remote.items()]


def sync_tables(res):
    out = []
    rows = sync_rows(res)
    if rows:
        out += ["\n### Sync (issue 14): `diary sync` in an unlocked session (median wall time; peak memory)\n",
                "Git times are the git processes diary started (GIT_TRACE2_EVENT exit times; transfer = "
                "`git fetch` + `git push` to the local bare repository). *Outside transfer* and *outside git* are "
                "per-run differences, then the median.\n",
                "| store | remote | N | one new entry | in git (fetch + push; all git) | outside transfer | outside git "
                "| nothing new | outside transfer | sync init (untimed) | records |",
                "|---" * 11 + "|"]
        for store, remote, n, r in rows:
            one, none = r["one_new"], r["nothing_new"]
            g = one.get("git", {})
            git_cell = "—" if remote != "git" else \
                f"{_fmt_s(sum(g.get(c, 0) for c in TRANSFER))}; {_fmt_s(g.get('_total', 0))}"
            out.append(f"| {store} | {remote} | {n:,} | {_fmt_s(one['median_s'])}; {one['peak_mb']:.0f} MB | {git_cell} | "
                       f"{_fmt_s(_outside(one, TRANSFER))} | {_fmt_s(_outside(one, ('_total',)))} | "
                       f"{_fmt_s(none['median_s'])} | {_fmt_s(_outside(none, TRANSFER))} | "
                       f"{_fmt_s(r['init_s'])}; {r['init_peak_mb']:.0f} MB | {r['records']} |")
        out += ["\n### Target (issue 14): `diary sync` after one new entry, largest N against smallest\n",
                "| store | remote | sizes | whole command | outside transfer | outside git | within 1.5× (outside transfer) |",
                "|---|---|---|---|---|---|---|"]
        by = {}
        for store, remote, n, r in rows:
            by.setdefault((store, remote), {})[n] = r
        for (store, remote), sizes in by.items():
            if len(sizes) < 2:
                continue
            lo, hi = min(sizes), max(sizes)
            a, b = sizes[lo]["one_new"], sizes[hi]["one_new"]
            whole = b["median_s"] / a["median_s"]
            excl = _outside(b, TRANSFER) / _outside(a, TRANSFER)
            nogit = _outside(b, ("_total",)) / _outside(a, ("_total",))
            out.append(f"| {store} | {remote} | {hi:,} ÷ {lo:,} | {whole:.2f}× | {excl:.2f}× | {nogit:.2f}× | "
                       f"{'yes' if excl <= 1.5 else '**no**'} |")
        out.append("\nThe folder rows show diary's own work alone; the git rows add about ten git processes per sync, "
                   "a fixed cost.")
    for n, j in res.get("sync_join", {}).items():
        out += [f"\n### Sync (issue 14): `diary sync join` of {int(n):,} entries (median wall time; peak memory)\n",
                f"With `--passphrase-file` and the real default KDF (Argon2id *moderate*): one derivation, about "
                f"{_fmt_s(j['kdf_s'])} here (`list -n 1` with the passphrase, {_fmt_s(j['list_passphrase']['median_s'])}, "
                f"minus unlocked, {_fmt_s(j['list_unlocked']['median_s'])}).\n",
                "| remote | local store | join | in git | without the KDF |", "|---|---|---|---|---|"]
        for remote in ("git", "folder"):
            for store, s in j.get(remote, {}).items():
                g = s.get("git", {}).get("_total")
                out.append(f"| {remote} | {store} | {_fmt_s(s['median_s'])}; {s['peak_mb']:.0f} MB | "
                           f"{_fmt_s(g) if remote == 'git' else '—'} | {_fmt_s(s['median_s'] - j['kdf_s'])} |")
    return "\n".join(out)
