"""The targets of issue 23, each measured in the run that prints it (docs/BENCHMARKS.md explains the rows).

The search floor is measured by the bench itself, per store and size: process start (the median
wall time of `diary --version`) plus `diary-bench floor`, libsodium opening the same number of
sealed bytes, in messages of the same sizes, on every core (Scripts/Bench/Floor.swift).
"""

MEMORY_OPS = ("verify", "backup", "restore", "rekey_interactive", "export", "import")
MEMORY_NAMES = {"verify": "verify", "backup": "backup", "restore": "restore", "rekey_interactive":
                "rekey (interactive KDF)", "export": "export JSON", "import": "import (diary JSON)"}
SEARCH_WANT = {"sqlite": 2.0, "files": 3.0}


def _sample(res, store, n, op, mode="unlocked"):
    return res["diary"].get(store, {}).get(str(n), {}).get(mode, {}).get(op)


def _median(res, store, n, op):
    s = _sample(res, store, n, op)
    return s and s["median_s"]


def _ms(x):
    return "—" if x is None else (f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s")


def _floor_figures(res, store, n, op=None):
    """{start, floor} for `op`: the floor measured run by run beside that row when there is one
    (`PairedFloor`), else the block's, measured after its rows."""
    measured = res["diary"].get(store, {}).get(str(n), {}).get("inprocess_search", {})
    paired = measured.get("paired_floor", {}).get(op) if op else None
    return paired or measured


def floor_s(res, store, n, op=None):
    """Process start plus the all-core open of the vault's sealed bytes, or None."""
    measured = _floor_figures(res, store, n, op)
    f = measured.get("floor")
    # The start measured beside this floor when there is one, else the run's.
    start = measured.get("start", res.get("start", {})).get("median_s")
    return None if not f or start is None else start + f["open_s"]


def _floor_text(res, store, n, op=None):
    measured = _floor_figures(res, store, n, op)
    start = measured.get("start", res.get("start", {})).get("median_s")
    beside = ", beside each run" if measured is not res["diary"][store][str(n)]["inprocess_search"] else ""
    return (f"floor {_ms(floor_s(res, store, n, op))} (start {_ms(start)} + open {_ms(measured['floor']['open_s'])}"
            f"{beside})")


def pair(sizes):
    """(small, large) for the flatness rows: 10,000 and 100,000 when both ran, else the ends."""
    if 10000 in sizes and 100000 in sizes:
        return 10000, 100000
    ordered = sorted(sizes)
    return (ordered[0], ordered[-1]) if len(ordered) > 1 else (None, None)


def _at(sizes, want):
    """`want` when it ran, else the nearest size that did (the row then says which)."""
    return want if want in sizes else min(sizes, key=lambda n: abs(n - want))


def _jrnl(res, op):
    s = res.get("peers", {}).get("10000", {}).get("jrnl", {}).get(op)
    return s and s["median_s"]


def _flat_rows(res, sizes, flat_sizes):
    """list -n 10, show and add at each --flat-sizes N against the smallest main size: within 1.5x at 1,000,000."""
    out = []
    lo = min(sizes) if sizes else None
    for store, failed in res.get("flat_failed", {}).items():
        for n in failed:
            out.append((f"{store}: list -n 10, show and add at N={n:,} ≤ 1.5×", "the vault could not be built (see the "
                        "bench's log)", "—", False))
    for store, by_n in res.get("flat", {}).items():
        for n in flat_sizes:
            for op, name in (("list10", "list -n 10"), ("show", "show"), ("add", "add")):
                a, s = _median(res, store, lo, op) if lo else None, by_n.get(str(n), {}).get(op)
                if a and s:
                    b = s["median_s"]
                    judged = lo == 10000 and n >= 1000000
                    out.append((f"{store}: {name} at N={n:,} ÷ N={lo:,} ≤ 1.5×", f"{_ms(a)} → {_ms(b)}", f"{b / a:.2f}×",
                                b / a <= 1.5 if judged else None))
    return out


# A row's verdict for a figure shown beside the targets but not one of them.
SHOWN = "shown"


def rows(res, sizes, flat_sizes=()):
    """[(target, measured, ratio text, met: True|False|None|SHOWN)]; None: not judged at these sizes."""
    out = []
    stores = list(res["diary"])
    for store in stores:
        for n in sizes:
            want = SEARCH_WANT.get(store, 2.0)
            t, f = _median(res, store, n, "search_absent"), floor_s(res, store, n, "search_absent")
            if t and f:
                out.append((f"{store}: search for an absent word ≤ {want:.0f}× the floor (N={n:,})",
                            f"{_ms(t)} vs {_floor_text(res, store, n, 'search_absent')}", f"{t / f:.2f}×",
                            t / f <= want))
            t, f = _median(res, store, n, "search_after_edit"), floor_s(res, store, n, "search_after_edit")
            if t and f:
                # The files store's first search after an edit that kept the entry's size, which
                # emptied a segment of the scan copy.
                out.append((f"{store}: the same, first search after a same-size edit ≤ {want:.0f}× the floor (N={n:,})",
                            f"{_ms(t)} vs {_floor_text(res, store, n, 'search_after_edit')}", f"{t / f:.2f}×",
                            t / f <= want))
            t, f = _median(res, store, n, "search_rewrite"), floor_s(res, store, n)
            if t and f:
                # Without a copy (after a delete, a resizing edit, a key rotation or a change of more
                # than 16 segments): it is written again. Shown, not judged: the target is the
                # search a diarist repeats.
                out.append((f"{store}: the same, first search without entries.pack, after a delete or a "
                            f"resizing edit (writes it; N={n:,})",
                            f"{_ms(t)} vs {_floor_text(res, store, n)}", f"{t / f:.2f}×", SHOWN))
    lo, hi = pair(sizes)
    for store in stores:
        # The two vaults timed side by side, runs alternated, when the bench did (`measure_side_by_side`);
        # else the main blocks' figures, measured minutes apart.
        side = res.get("flat_pair", {}).get(store)
        for op, name in (("list10", "list -n 10"), ("show", "show"), ("add", "add")):
            if side:
                a, b = (side.get(str(n), {}).get(op, {}).get("median_s") for n in (lo, hi))
            else:
                a, b = (_median(res, store, lo, op), _median(res, store, hi, op)) if lo else (None, None)
            if a and b:
                how = ", alternated" if side else ""
                out.append((f"{store}: {name} flat, N={hi:,} ÷ N={lo:,} ≤ 1.2×", f"{_ms(a)} → {_ms(b)}{how}",
                            f"{b / a:.2f}×", b / a <= 1.2))
    out += _flat_rows(res, sizes, flat_sizes)
    n = _at(sizes, 10000)
    for store in stores:
        t, f = _median(res, store, n, "export"), floor_s(res, store, n, "export")
        if t and f:
            out.append((f"{store}: export JSON ≤ 8× the floor (N={n:,})",
                        f"{_ms(t)} vs {_floor_text(res, store, n, 'export')}", f"{t / f:.1f}×", t / f <= 8))
    big = max(sizes)
    judged = big >= 100000
    for store in stores:
        for op in MEMORY_OPS:
            s = _sample(res, store, big, op)
            if s:
                out.append((f"{store}: peak memory of {MEMORY_NAMES[op]} ≤ 96 MiB (N={big:,})", f"{s['peak_mb']:.0f} MiB",
                            f"{s['peak_mb'] / 96:.2f}× the target", s["peak_mb"] <= 96 if judged else None))
    t = _median(res, "sqlite", big, "import")
    if t:
        scaled = t * 100000 / big
        out.append((f"sqlite: import of 100,000 entries ≤ 15 s (N={big:,})", _ms(t),
                    f"{scaled / 15:.2f}× the target" + ("" if judged else " (scaled to 100,000)"),
                    t <= 15 if judged else None))
    # Both vaults side by side, runs alternated, when the bench did (`measure_side_by_side`).
    side = res.get("rekey_pair", {})
    if side.get("n") == big and "sqlite" in side and "files" in side:
        a, b, how = side["sqlite"]["median_s"], side["files"]["median_s"], ", alternated"
    else:
        a, b, how = _median(res, "sqlite", big, "rekey"), _median(res, "files", big, "rekey"), ""
    if a and b:
        out.append((f"files-store rekey ≤ 2× sqlite's (N={big:,})", f"{_ms(b)} vs {_ms(a)}{how}", f"{b / a:.2f}×",
                    b / a <= 2 if judged else None))
    for store in stores:
        for n in sizes:
            t, full = _median(res, store, n, "tag"), _median(res, store, n, "list")
            if t and full:
                out.append((f"{store}: list --tag no slower than the whole list (N={n:,}; tags folded once each)",
                            f"{_ms(t)} vs {_ms(full)}", f"{t / full:.2f}×", t <= full))
    return out


def table(res, sizes, flat_sizes=()):
    """The targets as Markdown, with jrnl's time beside the rows it has at N=10,000."""
    jrnl_op = {"search for an absent word": "search", "export JSON": "export", "list --tag": "tag",
               "list -n 10": "list10", "show flat": "show", "add flat": "add", "show at": "show", "add at": "add"}
    out = ["\n### Targets of issue 23 (measured in this run)\n",
           f"Floor: process start (`diary --version`: {_ms(res.get('start', {}).get('median_s'))} at the start of the "
           "run, measured again beside each floor) plus libsodium opening the vault's sealed bytes on every core "
           "(`diary-bench floor`). A row judged against the floor has its own, measured after each of its runs "
           "(\"beside each run\"); the others use the one measured after their vault's rows.\n",
           "| target | measured | ratio | met | jrnl, N=10,000 |", "|---|---|---|---|---|"]
    for name, value, ratio, met in rows(res, sizes, flat_sizes):
        op = next((o for key, o in jrnl_op.items() if key in name), None)
        peer = _jrnl(res, op) if op else None
        verdict = ("shown, not a target" if met == SHOWN else
                   "not judged (needs N=100,000; flat rows: N=10,000 and 1,000,000)" if met is None else
                   "met" if met else "**not met**")
        out.append(f"| {name} | {value} | {ratio} | {verdict} | {_ms(peer)} |")
    return "\n".join(out)
