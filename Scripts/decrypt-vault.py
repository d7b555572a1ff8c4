#!/usr/bin/env python3
"""An independent reader of the diary vault format, written from docs/FORMAT.md alone.

It uses PyNaCl (libsodium) and nothing from diary's Swift code, and proves the spec is
complete: it decrypts every entry of a `files` vault, or of a backup file, and prints the
intermediate values of docs/FORMAT.md §11 as Markdown. Given a sync remote in format 2 (§12: a
synced folder, a git working tree, or a bare git repository, which it clones into a temporary
directory with `git`), it verifies everything a reader must (§12.7): the marker; the membership
chain (the genesis signed by its sole member, every later statement by a member of the one it
follows, each kind's rules, retired keys against their keyed key ids, forks refused unless
settled); every record's Ed25519 signature under its machine's key from the chain, removal cuts,
each log's previous-hash chain, lamports, epochs and version vectors against what it read. Then
it builds each entry's heads and prints every entry (shown, deleted or in conflict).

A files vault's `entries.pack` (§2.2, a cache) is never read for entries; it is checked against the
entry files, and what breaks its rules is a `decrypt-vault: warning: entries.pack: …` line on stderr.
A files vault left in the middle of a change (a valid `vault.journal`, §2.1) is read as diary would
open it, the journal applied in memory (nothing is written); a torn journal is ignored. Each is a
`decrypt-vault: note: …` line on stderr.

    pip install pynacl            # or: apt-get install python3-nacl
    Scripts/decrypt-vault.py docs/format-example/vault 'correct horse battery staple'
    Scripts/decrypt-vault.py my.diarybak  # passphrase asked on the terminal
    Scripts/decrypt-vault.py ~/Sync/diary # a folder remote; or a bare git repository

Usage: Scripts/decrypt-vault.py [--recovery-key-file FILE | --share-file FILE...] VAULT-DIR | BACKUP-FILE |
       SYNC-REMOTE [PASSPHRASE]

With --recovery-key-file (a file `diary recovery-key create --output` wrote), a vault or a backup is
opened with the recovery key instead of the passphrase (FORMAT.md §4). With --share-file, repeated
(files `diary recovery-key create --shares N --threshold K --output DIR` wrote), the recovery key is
first rebuilt from K or more shares (FORMAT.md §14).

Exit status: 0 when everything read was authentic (pending records are listed, not errors),
2 when a sync remote breaks a rule FORMAT.md §12.7 says a reader MUST refuse, or is a format-1
remote (upgrade it with `diary sync upgrade`); a warning about `entries.pack` does not change it.

Never run it on a real diary where the printed keys could be seen: it prints key material.
"""
import bisect
import datetime
import errno
import getpass
import hashlib
import hmac
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import unicodedata
import uuid

import nacl.exceptions
from nacl import bindings as b
from nacl import pwhash
from nacl import signing


def h(x: bytes) -> bytes:
    return hashlib.blake2b(x, digest_size=32).digest()


def kdf(key: bytes, subkey_id: int, ctx: bytes) -> bytes:
    # crypto_kdf_derive_from_key is BLAKE2b(key=key, salt=LE64(id)||0*8, person=ctx||0*8).
    return hashlib.blake2b(b"", digest_size=32, key=key,
                           salt=struct.pack("<Q", subkey_id) + bytes(8),
                           person=ctx + bytes(8)).digest()


def unpad(x: bytes) -> bytes:
    stripped = x.rstrip(b"\x00")
    if not stripped or stripped[-1] != 0x80:
        raise ValueError("bad padding")
    return stripped[:-1]


def open_sealed(sealed: bytes, kind: int, object_id: bytes, vault_id: bytes, keys: dict) -> bytes:
    version, k = sealed[0], sealed[1]
    gen = struct.unpack(">I", sealed[2:6])[0]
    assert version == 1 and k == kind, "wrong envelope"
    ad = b"diary.v1" + vault_id + sealed[0:6] + object_id
    key = keys[gen][0 if kind == 1 else 1]  # the index root (2), pages (3), directories (5) use IK
    padded = b.crypto_aead_xchacha20poly1305_ietf_decrypt(sealed[30:], ad, sealed[6:30], key)
    return unpad(padded)


def parse_template(p: bytes) -> dict:
    """A template (FORMAT.md §7.5): entry plaintext version 2, with every check a reader MUST make."""
    r = Reader(p)
    assert r.u8() == 2 and r.u8() == 1, "not a template plaintext (version 2, kind 1)"
    created, modified = struct.unpack(">qq", r.take(16))
    name = r.str16()
    assert name and len(name.encode()) <= 200 and name == name.strip(), "template name"
    assert not any(unicodedata.category(c) == "Cc" for c in name), "template name"
    count = r.u8()
    assert count <= 16, "more than 16 remembered prompts"
    prompts = [r.str16() for _ in range(count)]
    for prompt in prompts:
        assert prompt.strip() and len(prompt.encode()) <= 1024, "prompt"
        assert not any(unicodedata.category(c) == "Cc" and c != "\t" for c in prompt), "prompt"
    text = r.take(r.u32()).decode()
    assert text.strip() and len(text.encode()) <= 8 << 20, "template text"
    r.end()
    lo, hi = -62135596800000, 253402300799999
    assert lo <= created <= hi and lo <= modified <= hi, "template times"
    return dict(template=True, device=False, name=name, prompts=prompts, created=created, modified=modified,
                text=text)


TIME_RANGE = (-62135596800000, 253402300799999)  # §1: 0001-01-01 … 9999-12-31, in Unix milliseconds
MAX_COUNTER, MAX_COUNTER_INTERVALS = 1 << 62, 65_536  # §7.7: capture counters 1…2^62, at most 65536 intervals
MEDIA_TYPE_CHARACTERS = set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-")


def is_end_space(c: str) -> bool:
    return unicodedata.category(c) in ("Zs", "Zl", "Zp") or c in "\t\n\v\f\r\x85"


def attachment_name_ok(name: str) -> bool:
    """§7.6: 1…255 bytes of UTF-8, a base name, no character of category Cc or Cf, no white space at either end."""
    return (0 < len(name.encode()) <= 255 and name not in (".", "..") and "/" not in name
            and not any(unicodedata.category(c) in ("Cc", "Cf") for c in name)
            and not is_end_space(name[0]) and not is_end_space(name[-1]))


def media_type_ok(media_type: str) -> bool:
    parts = media_type.split("/")
    return len(media_type) <= 127 and len(parts) == 2 and all(p and set(p) <= MEDIA_TYPE_CHARACTERS for p in parts)


def check_attachment(length: int, generation: int, name: str, seen: set) -> None:
    """The rules an entry's attachment record and an index row's attachment share (§7.6)."""
    assert 1 <= length <= 4 << 30, "attachment length"
    assert generation >= 1, "attachment generation"
    assert attachment_name_ok(name), f"attachment name {name!r}"
    # Unicode's canonical caseless match: `Été.jpg` and `e\u0301te\u0301.JPG` are one name.
    key = unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).casefold())
    assert key not in seen, f"two attachments named {name!r}"
    seen.add(key)


def parse_records(r) -> list:
    """The attachment records of an entry plaintext of version 3 (§7.6), with every check a reader MUST make."""
    count, records, seen = r.u8(), [], set()
    assert count >= 1, "attachment count 0"
    for _ in range(count):
        object_id, key, length, stored_hash = r.take(16), r.take(32), r.u64(), r.take(32)
        generation, dedup_hash, added = r.u32(), r.take(32), struct.unpack(">q", r.take(8))[0]
        name, media_type = r.str16(), r.str16()
        check_attachment(length, generation, name, seen)
        assert TIME_RANGE[0] <= added <= TIME_RANGE[1], "attachment time"
        assert media_type_ok(media_type), f"media type {media_type!r}"
        records.append(dict(object=object_id, key=key, length=length, stored_hash=stored_hash,
                            generation=generation, dedup=dedup_hash, added=added, name=name, type=media_type))
    return records


def name_ok(name: str, limit: int) -> bool:
    """A one-line name: 1…limit bytes, no control character, no white space at either end."""
    return bool(name) and len(name.encode()) <= limit and name == name.strip() and \
        not any(unicodedata.category(c) == "Cc" for c in name)


def parse_device(p: bytes) -> dict:
    """A capture device's record (FORMAT.md §7.7): entry plaintext version 4, every check a reader MUST make."""
    r = Reader(p)
    assert r.u8() == 4, "not a device record (version 4)"
    device_id = r.take(16)
    name = r.str16()
    assert name_ok(name, 64), "device name"
    enrolled, revoked = struct.unpack(">qq", r.take(16))
    lo, hi = TIME_RANGE
    assert lo <= enrolled <= hi and (revoked == 0 or lo <= revoked <= hi), "device times"
    device_public, inbox_secret = r.take(32), r.take(32)
    count = r.u32()
    assert count <= MAX_COUNTER_INTERVALS, "too many counter intervals"
    intervals, least = [], 1
    for _ in range(count):
        first, last = r.u64(), r.u64()
        # Normalised (§7.7): 1 ≤ first ≤ last ≤ 2^62, each interval at least 2 past the one before.
        assert least <= first <= last <= MAX_COUNTER, "counter intervals not normalised"
        intervals.append((first, last))
        least = last + 2
    r.end()
    return dict(template=False, device=True, id=device_id, name=name, enrolled=enrolled, revoked=revoked,
                device_public=device_public, inbox_secret=inbox_secret, intervals=intervals)


def counters_text(intervals: list) -> str:
    """A device's counters taken in, as `first…last` intervals (§7.7)."""
    return ", ".join(f"{a}…{b}" for a, b in intervals) or "none"


def counter_taken(intervals: list, counter: int) -> bool:
    """True when an interval of the sorted list holds `counter`."""
    i = bisect.bisect_right(intervals, (counter, MAX_COUNTER + 1))
    return i > 0 and intervals[i - 1][0] <= counter <= intervals[i - 1][1]


def parse_entry(p: bytes) -> dict:
    """An entry plaintext: version 1, version 3 (with attachment records, §7.6), a template (version 2)
    or a capture device's record (version 4, §7.7)."""
    if p[0] == 2:
        return parse_template(p)
    if p[0] == 4:
        return parse_device(p)
    assert p[0] in (1, 3), f"entry plaintext version {p[0]}"
    r = Reader(p)
    version = r.u8()
    date, created, modified = struct.unpack(">qqq", r.take(24))
    flags, ntags = r.u8(), r.u8()
    tags = [r.str16() for _ in range(ntags)]
    source = r.str16()
    attachments = parse_records(r) if version == 3 else []
    text = r.take(r.u32()).decode()
    r.end()
    return dict(
        template=False, device=False, date=date, created=created, modified=modified, starred=bool(flags & 1),
        tags=tags, source=source, text=text, attachments=attachments)


def page_heads(number: int, version: int) -> range:
    """The 16-bit id heads a page covers (FORMAT.md §7): version 2 pages by the top six bits,
    version 3 pages by their prefix of `depth` bits, numbered `1 << depth | prefix`."""
    if version == 2:
        return range(number << 10, (number + 1) << 10)
    depth = number.bit_length() - 1
    assert 6 <= depth <= 16, f"page {number}: depth {depth} out of bounds"
    prefix = number ^ (1 << depth)
    return range(prefix << (16 - depth), (prefix + 1) << (16 - depth))


def parse_row_attachments(p: bytes, off: int) -> tuple:
    """The attachment list of an index row with flags bit 2 (§7.6): (list, offset after it)."""
    r = Reader(p)
    r.off = off
    count, listed, seen = r.u8(), [], set()
    assert count >= 1, "attachment count 0 in a row"
    for _ in range(count):
        object_id, length, dedup_hash, generation = r.take(16), r.u64(), r.take(32), r.u32()
        name = r.str16()
        check_attachment(length, generation, name, seen)
        listed.append(dict(object=object_id, length=length, dedup=dedup_hash, generation=generation, name=name))
    return listed, r.off


def parse_page(p: bytes, number: int, version: int, listed: dict) -> dict:
    """An index page (FORMAT.md §7): {entry id: seal tag}; the attachments of rows with flags bit 2 go
    into `listed` (§7.6)."""
    if version == 2:
        assert p[0] == 2 and p[1] == number
        off = 2
    else:
        assert p[0] == 3 and struct.unpack(">I", p[1:5])[0] == number
        off = 5
    count = struct.unpack(">I", p[off:off + 4])[0]
    off, rows, heads = off + 4, {}, page_heads(number, version)
    for _ in range(count):
        rid = p[off:off + 16]
        assert (rid[0] << 8 | rid[1]) in heads, "row on the wrong page"
        tag, flags = p[off + 45:off + 61], p[off + 40]
        assert flags & ~15 == 0, "row flags"
        off += 61
        off += 2 + struct.unpack(">H", p[off:off + 2])[0]  # title (a template's name)
        ntags = p[off]
        off += 1
        for _ in range(ntags):
            off += 2 + struct.unpack(">H", p[off:off + 2])[0]
        source_length = struct.unpack(">H", p[off:off + 2])[0]
        off += 2 + source_length
        # A template's row (§7.5): flags exactly 2 (so never bit 2), no tags, no source.
        assert not flags & 2 or (flags == 2 and ntags == 0 and source_length == 0), "template row"
        # A capture device's row (§7.7): flags exactly 8, no tags, no source.
        assert not flags & 8 or (flags == 8 and ntags == 0 and source_length == 0), "device row"
        rows[str(uuid.UUID(bytes=rid))] = tag
        if flags & 4:
            listed[str(uuid.UUID(bytes=rid))], off = parse_row_attachments(p, off)
    assert off == len(p), "trailing bytes"
    return rows


def read_index(root: bytes, pages: dict, vault_id: bytes, keys: dict):
    """(generation, {entry id: seal tag}, page of each entry, {entry id: its row's attachments}, recovery) from
    the root and its pages: version 5 (directories naming the pages), 3 or 4 (a page directory that must
    partition the ids exactly) or version 2 (64 pages)."""
    r = open_sealed(root, 2, bytes(16), vault_id, keys)
    version, generation = r[0], struct.unpack(">Q", r[1:9])[0]
    recovery, directories = (0, ZERO32), []
    if version == 4:  # version 3 with the recovery epoch u32 and public key 32 after the generation (§7)
        recovery = (struct.unpack(">I", r[9:13])[0], r[13:45])
        assert recovery[0] >= 1, "a root of version 4 with recovery epoch 0"
        r, version = r[:9] + r[45:], 3
    if version == 2:
        assert struct.unpack(">H", r[9:11])[0] == 64 and len(r) == 11 + 64 * 36
        # rows u32 | newest date i64 | newest created i64 | tag 16
        directory = [(n, r[11 + 36 * n:47 + 36 * n]) for n in range(64)]
    elif version == 5:
        recovery, directories, directory = read_directories(r, pages, vault_id, keys)
        version = 3  # its pages are those of version 3
    else:
        assert version == 3, f"index version {version}"
        count = struct.unpack(">I", r[9:13])[0]
        assert 64 <= count <= 1 << 16 and len(r) == 13 + 40 * count
        directory = page_records(r[13:], count)
    rows, where, listed, next_head = {}, {}, {}, 0
    for n, rec in directory:
        heads = page_heads(n, version)
        assert heads.start == next_head, f"page {n}: the pages do not partition the ids"
        next_head = heads.stop
        count, tag = struct.unpack(">I", rec[:4])[0], rec[20:36]
        # §7: no page holds more rows than 64 MiB of 70-byte rows; an empty page's newest key is 0.
        assert version == 2 or (count <= MAX_PAGE_ROWS and (count or rec[4:20] == bytes(16))), f"page {n}: record"
        sealed = pages[n]
        assert sealed[-16:] == tag, f"page {n} is not the copy the root names"
        # The page's object id: 12 zero bytes and its number as a big-endian u32.
        page = parse_page(open_sealed(sealed, 3, bytes(12) + struct.pack(">I", n), vault_id, keys), n, version,
                          listed)
        assert len(page) == count
        rows.update(page)
        where.update({rid: n for rid in page})
    assert next_head == 1 << 16, "the pages do not cover every id"
    named = {n for n, _ in directory} | {DIRECTORY_BASE + m for m in directories}
    assert set(pages) == named, "a stored page the root does not name"
    return generation, rows, where, listed, recovery


def page_records(data: bytes, count: int) -> list:
    """`count` records of page u32 | rows u32 | newest date i64 | newest created i64 | tag 16, in head order
    (a version-3 root's, or a version-5 directory's): [(page number, the 36 bytes after it)]."""
    return [(struct.unpack(">I", data[40 * i:40 * i + 4])[0], data[40 * i + 4:40 * i + 40]) for i in range(count)]


MAX_PAGE_ROWS = (64 << 20) // 70

# A directory m (1 ... 511) of an index of version 5 is stored as the page numbered 2^24 + m (§7).
DIRECTORY_BASE = 1 << 24


def directory_heads(m: int) -> range:
    """The heads directory m covers: its prefix of `depth` bits, depth 0 ... 8, numbered 1 << depth | prefix."""
    depth = m.bit_length() - 1
    assert 0 <= depth <= 8, f"directory {m}: depth out of bounds"
    prefix = m ^ (1 << depth)
    return range(prefix << (16 - depth), (prefix + 1) << (16 - depth))


def newest_key(rec: bytes) -> tuple:
    """(rows, (newest date, newest created)) of a page or directory record's rows u32|u64 and two i64."""
    if len(rec) == 36:  # a page record: rows u32
        return struct.unpack(">I", rec[:4])[0], struct.unpack(">qq", rec[4:20])
    return struct.unpack(">Q", rec[:8])[0], struct.unpack(">qq", rec[8:24])


def read_directories(r: bytes, pages: dict, vault_id: bytes, keys: dict) -> tuple:
    """A root of version 5 (§7): (recovery, directory numbers, every page record of its directories in head
    order), each directory opened, matched against its record's tag, count, rows and newest key."""
    rd = Reader(r)
    rd.take(9)  # version, generation
    recovery = (rd.u32(), rd.take(32))
    assert recovery[0] >= 1 or recovery[1] == ZERO32, "a root of version 5 with epoch 0 and a recovery key"
    count = rd.u32()
    assert 1 <= count <= 256 and len(r) == 49 + 48 * count, "directory count"
    directories, records, next_head = [], [], 0
    for _ in range(count):
        m, pcount, rec = rd.u32(), rd.u32(), rd.take(40)
        heads = directory_heads(m)
        assert heads.start == next_head, f"directory {m}: the directories do not partition the ids"
        next_head = heads.stop
        assert 1 <= pcount <= len(heads), f"directory {m}: page count {pcount}"
        rows, newest = newest_key(rec)
        assert rows <= pcount * MAX_PAGE_ROWS, f"directory {m}: rows"
        assert rows > 0 or newest == (0, 0), f"directory {m}: a newest key with no rows"
        directories.append(m)
        records += read_directory(m, pcount, rec, pages, vault_id, keys)
    assert next_head == 1 << 16, "the directories do not cover every id"
    assert len(records) >= 64, "fewer than 64 pages"
    return recovery, directories, records


def read_directory(m: int, pcount: int, rec: bytes, pages: dict, vault_id: bytes, keys: dict) -> list:
    """Directory m's page records, checked against its root record rec (rows u64 | newest i64 i64 | tag 16)."""
    sealed = pages.get(DIRECTORY_BASE + m)
    assert sealed is not None, f"directory {m} is missing"
    assert sealed[-16:] == rec[24:40], f"directory {m} is not the copy the root names"
    d = open_sealed(sealed, 5, bytes(12) + struct.pack(">I", DIRECTORY_BASE + m), vault_id, keys)
    assert d[0] == 5 and struct.unpack(">I", d[1:5])[0] == m, f"directory {m}: version or number"
    assert struct.unpack(">I", d[5:9])[0] == pcount and len(d) == 9 + 40 * pcount, f"directory {m}: page count"
    records, heads, keys_seen = page_records(d[9:], pcount), directory_heads(m), []
    next_head = heads.start
    for n, prec in records:
        ph = page_heads(n, 3)
        assert ph.start == next_head, f"directory {m}: its pages do not partition its ids (page {n})"
        next_head = ph.stop
        keys_seen.append(newest_key(prec))
    assert next_head == heads.stop, f"directory {m}: its pages do not cover its ids"
    rows, newest = newest_key(rec)
    # The directory's newest key is the greatest of its pages' that hold rows, both 0 when none does.
    greatest = max((k for n, k in keys_seen if n > 0), default=(0, 0))
    assert sum(n for n, _ in keys_seen) == rows and greatest == newest, f"directory {m}: rows or newest key"
    return records


def read_backup(path: str):
    """(header, index, pages, entries, attachment objects) of a backup (§10); objects maps an
    object id to its pieces, checked as §10 says for records of type 6."""
    data = open(path, "rb").read()
    assert data[:8] == b"DIARYBAK" and struct.unpack(">H", data[8:10])[0] == 1
    off, header, index, pages, entries, count = 10, None, None, {}, {}, 0
    objects, last = {}, None  # last: (object id, piece number) of the record before, if type 6
    while True:
        start = off
        t = data[off]
        n = struct.unpack(">I", data[off + 1:off + 5])[0]
        payload = data[off + 5:off + 5 + n]
        off += 5 + n
        if last is not None and t != 6:  # the object before ended: its pieces must make a whole object
            assert stored_len_is_valid(sum(map(len, objects[last[0]]))), "an object of a length no file gives"
            last = None
        if t == 255:
            assert struct.unpack(">Q", payload[:8])[0] == count and payload[8:] == h(data[:start]) and off == len(data)
            return header, index, pages, entries, objects
        count += 1
        if t == 6:  # a piece of an attachment object: object id ‖ u32 piece ‖ bytes
            oid, piece, part = payload[:16], struct.unpack(">I", payload[16:20])[0], payload[20:]
            if piece == 0:
                assert oid not in objects and len(part) == 26 and part[:2] == b"\x01\x04", "an object's piece 0"
                objects[oid] = [part]
            else:
                assert last == (oid, piece - 1), f"piece {piece} does not follow piece {piece - 1} of its object"
                assert piece == 1 or len(objects[oid][-1]) == 65536 + 17, "a short piece before the last"
                assert 18 <= len(part) <= 65536 + 17, "a piece of a size no chunk has"
                objects[oid].append(part)
            last = (oid, piece)
            continue
        if t == 1:
            header = payload
        elif t == 2:
            index = payload
        elif t == 3:
            entries[str(uuid.UUID(bytes=payload[:16]))] = payload[16:]
        elif t == 4:  # a page of an index of version 2: page u8
            pages[payload[0]] = payload[1:]
        elif t == 5:  # a page of an index of version 3 (or a directory of version 5, 2^24 + m): page u32
            pages[struct.unpack(">I", payload[:4])[0]] = payload[4:]
        else:
            raise AssertionError(f"unknown record type {t}")


def read_files_vault(path: str):
    header = open(os.path.join(path, "vault.header"), "rb").read()
    index = open(os.path.join(path, "vault.index"), "rb").read()
    # Pages 0...63 (index version 2) are named by two hex digits, pages from 64 by eight, as are the
    # directories of version 5 (2^24 + m: 01000001 ... 010001ff).
    pages = {int(name, 16): open(os.path.join(path, "index", name), "rb").read()
             for name in os.listdir(os.path.join(path, "index")) if not name.startswith(".tmp-")}
    entries = {}
    for name in sorted(os.listdir(os.path.join(path, "entries"))):
        entries[name] = open(os.path.join(path, "entries", name), "rb").read()
    journal = read_journal(path)
    if journal is not None:
        # An interrupted change (§2.1): what diary would do on opening the vault, done here in memory.
        print(f"decrypt-vault: note: {JOURNAL_NAME} holds an interrupted change of {len(journal)} operations, "
              "applied here in memory (diary finishes it when it next opens the vault)", file=sys.stderr)
        for name, blob in journal:
            kind, _, rest = name.partition("/")
            if kind == "attachments":
                continue  # a delete only; the index this journal writes no longer names the object
            files = {"index": pages, "entries": entries}.get(kind)
            if files is None:
                header, index = (blob, index) if name == "vault.header" else (header, blob)
                continue
            key = int(rest, 16) if kind == "index" else rest
            if blob is None:
                files.pop(key, None)
            else:
                files[key] = blob
        entries = dict(sorted(entries.items()))
    return header, index, pages, entries, None


# ---------------------------------------------------------------------------------------------
# The files store's journal, vault.journal (FORMAT.md §2.1)

JOURNAL_NAME, JOURNAL_MAGIC, JOURNAL_MAX = "vault.journal", b"DIARYJNL", 512 << 20
UUID_NAME = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def journal_target_ok(name: str, put: bool) -> bool:
    """A name a journal may touch (§2.1): the header, the index root, a page under the one name
    §2 gives its number, an entry; an attachment object only in a delete."""
    if name in ("vault.header", "vault.index"):
        return True
    kind, _, rest = name.partition("/")
    if kind == "index":
        if len(rest) not in (2, 8) or not re.fullmatch(r"[0-9a-f]+", rest):
            return False
        return (int(rest, 16) < 64) == (len(rest) == 2)
    return (kind == "entries" or (kind == "attachments" and not put)) and UUID_NAME.fullmatch(rest) is not None


def read_journal(path: str):
    """The operations [(name, blob, or None for a delete)] of the vault's journal, or None when
    there is none, or it is torn or damaged: such a journal was never acted upon and is ignored
    (§2.1), as diary discards it. One over the size limit is refused, as diary refuses it."""
    where = os.path.join(path, JOURNAL_NAME)
    try:
        mode = os.lstat(where).st_mode
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(mode):
        raise RecoveryInputError(f"{where} is not a regular file")
    if os.path.getsize(where) > JOURNAL_MAX:
        raise RecoveryInputError(f"{where} is larger than {JOURNAL_MAX} bytes")
    data = open(where, "rb").read()
    body, checksum = data[:-32], data[-32:]
    ignored = f"decrypt-vault: note: {JOURNAL_NAME} is torn or damaged: ignored (it was never acted upon)"
    if len(data) < len(JOURNAL_MAGIC) + 1 + 4 + 32 or not hmac.compare_digest(h(body), checksum):
        print(ignored, file=sys.stderr)
        return None
    try:
        r = Reader(body)
        if r.take(len(JOURNAL_MAGIC)) != JOURNAL_MAGIC or r.u8() != 1:
            raise ValueError("not a journal of version 1")
        operations, seen = [], set()
        for _ in range(r.u32()):
            kind, name = r.u8(), r.str16()
            if kind not in (1, 2) or not journal_target_ok(name, kind == 1) or name in seen:
                raise ValueError(name)
            seen.add(name)
            operations.append((name, r.take(r.u32()) if kind == 1 else None))
        r.end()
    except ValueError:  # UnicodeDecodeError among them
        print(ignored, file=sys.stderr)
        return None
    return operations


# ---------------------------------------------------------------------------------------------
# The files store's scan copy, entries.pack (FORMAT.md §2.2)

PACK_NAME, PACK_MAGIC, PACK_VERSIONS = "entries.pack", b"DIARYPAK", (1, 3)  # 2 is refused (§2.2)
PACK_MAX_SEGMENTS, PACK_MAX_RECORD = 1 << 20, 16 << 20
PACK_MAX_SEGMENT = (1 << 20) + 20 + PACK_MAX_RECORD  # a full segment (under 1 MiB) plus the largest record
PACK_NAMED = 10  # records named per kind of finding; the rest are counted


def parse_pack(read, size: int, zeros=None) -> tuple:
    """The records of a scan copy of `size` bytes, read through read(offset, count), as (id,
    sealed bytes) in id order, and how many segments are emptied (version 3). Raises ValueError naming the
    first rule of §2.2 it breaks: a reader then refuses the whole copy. zeros(offset, count) says
    whether those bytes are all zero (by default it reads them; check_pack reads only the data of
    a sparse file, so that terabytes of holes cost nothing)."""
    zeros = zeros or (lambda offset, count: not any(read(offset, count)))
    if size < 9 + 4 + 16:
        raise ValueError(f"{size} bytes: shorter than a copy without segments")
    head, tail = read(0, 9), read(size - 16, 16)
    if head[:8] != PACK_MAGIC or tail[8:] != PACK_MAGIC:
        raise ValueError("does not start and end with the magic DIARYPAK")
    if head[8] not in PACK_VERSIONS:
        raise ValueError(f"version {head[8]}, not 1 or 3")
    version, emptied = head[8], 0
    t = struct.unpack(">Q", tail[:8])[0]
    if not 9 <= t <= size - 20:
        raise ValueError(f"its trailer offset {t} is outside the file")
    count = struct.unpack(">I", read(t, 4))[0]
    if count > PACK_MAX_SEGMENTS or t + 4 + 48 * count + 16 != size:
        raise ValueError(f"a trailer of {count} segments at offset {t} does not end the file")
    table, records, last_before, spans = Reader(read(t + 4, 48 * count)), [], None, []
    for i in range(count):
        offset, length, n = table.u64(), table.u32(), table.u32()
        first, last = table.take(16), table.take(16)
        spans.append((offset, length))
        if offset < 9 or offset + length > t or length > PACK_MAX_SEGMENT or length < 1 or (n < 1 and version < 3):
            raise ValueError(f"segment {i} (offset {offset}, {length} bytes, {n} records) is out of bounds")
        if first > last or (last_before is not None and last_before >= first):
            raise ValueError(f"segment {i} is out of id order")  # bytes compare as 16 unsigned bytes
        last_before = last
        if n == 0:  # an emptied segment (version 3): zeros only
            if not zeros(offset, length):
                raise ValueError(f"segment {i} is emptied but not zeros")
            emptied += 1
            continue
        r, ids = Reader(read(offset, length)), []
        try:
            while r.off < length:
                rid, rlen = r.take(16), r.u32()
                if not 1 <= rlen <= PACK_MAX_RECORD:
                    raise ValueError(f"a record of {rlen} bytes")
                if ids and ids[-1] >= rid:
                    raise ValueError("records out of id order")
                ids.append(rid)
                records.append((rid, r.take(rlen)))
        except ValueError as error:
            raise ValueError(f"segment {i} does not parse: {error}") from None
        if not ids:
            raise ValueError(f"segment {i} is empty")
        if len(ids) != n or ids[0] != first or ids[-1] != last:
            raise ValueError(f"segment {i} holds {len(ids)} records from {uuid.UUID(bytes=ids[0])} to "
                             f"{uuid.UUID(bytes=ids[-1])}, not the {n} its trailer record names")
    end = 9  # back to back from byte 9 to the trailer: no byte lies in no segment
    for offset, length in sorted(spans):
        if offset != end:
            raise ValueError(f"bytes {end}…{offset - 1} lie in no segment")
        end += length
    if end != t:
        raise ValueError(f"bytes {end}…{t - 1} lie in no segment")
    return records, emptied


def check_pack(vault: str, entries: dict) -> tuple:
    """(a line for the table, or None without a copy; the findings) for a files vault's
    entries.pack, checked as `diary verify` does: every record must be the bytes of its entry's
    file. Why check it: only a diary that does not know the copy changes entries without removing
    it, and then the copy keeps an edited or deleted entry's old ciphertext. Why never use it: it
    is a cache no reader needs (§2.2), so every entry here comes from entries/ and nothing about
    the copy changes what is decrypted or the exit status."""
    path = os.path.join(vault, PACK_NAME)
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return "refused", ["refused (treated as absent): not a regular file"]
    except FileNotFoundError:
        return None, []
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "refused", ["refused (treated as absent): not a regular file"]

        def read(offset: int, count: int) -> bytes:
            data = os.pread(fd, count, offset)
            while len(data) < count:  # a regular file reads short only at its end
                more = os.pread(fd, count - len(data), offset + len(data))
                if not more:
                    raise ValueError("truncated")
                data += more
            return data

        def zeros(offset: int, count: int) -> bool:
            """Whether the bytes are zeros, reading only where the file holds data (a hole
            reads as zeros); without SEEK_DATA, everything."""
            at, end = offset, offset + count
            while at < end:
                try:
                    data = os.lseek(fd, at, getattr(os, "SEEK_DATA", -1))
                    hole = os.lseek(fd, data, os.SEEK_HOLE) if data < end else end
                except OSError as error:
                    if error.errno == errno.ENXIO:
                        return True  # no data from here to the end of the file
                    data, hole = at, end
                if data >= end:
                    return True
                for piece in range(data, min(hole, end), 1 << 20):
                    if any(read(piece, min(1 << 20, min(hole, end) - piece))):
                        return False
                at = min(hole, end)
            return True

        records, emptied = parse_pack(read, os.fstat(fd).st_size, zeros)
    except ValueError as why:
        return "refused", [f"refused (treated as absent): {why}"]
    finally:
        os.close(fd)
    differ, missing = [], []
    for rid, sealed in records:
        name = str(uuid.UUID(bytes=rid))
        if name not in entries:
            missing.append(name)
        elif entries[name] != sealed:
            differ.append(name)
    findings = [f"record {n} differs from entries/{n} (a stale copy: remove it)" for n in differ[:PACK_NAMED]]
    findings += [f"record {n} has no file entries/{n} (a stale copy: remove it)" for n in missing[:PACK_NAMED]]
    if len(differ) + len(missing) > len(findings):
        findings.append(f"{len(differ) + len(missing) - len(findings)} more records differ from their entry files "
                        "or have none")
    state = "each equal to its entry file" if not findings else \
        f"differing from their entry files: {len(differ)}, without one: {len(missing)}"
    dead = f" ({emptied} segment{'' if emptied == 1 else 's'} emptied)" if emptied else ""
    return f"{len(records)} records{dead}, {state}; not used", findings


# ---------------------------------------------------------------------------------------------
# Attachment objects (FORMAT.md §7.6)

ATTACHMENT_MAX, CHUNK = 4 << 30, 65536
TAG_MESSAGE, TAG_FINAL = 0, 3


def attachment_stored_len(length: int) -> int:
    """StoredLen(L) = 26 + PadLen(L) + 17·n, PadLen being §6's rule without its 64 MiB limit."""
    if not 1 <= length <= ATTACHMENT_MAX:
        raise ValueError(f"an attachment of {length} bytes is outside 1 … 4 GiB")
    padded = padded_size(length)
    return 26 + padded + 17 * -(-padded // CHUNK)


def stored_len_is_valid(total: int) -> bool:
    """Whether `total` stored bytes are StoredLen(L) for some L in 1 … 4 GiB (§10, type 6)."""
    chunks = -(-(total - 26) // (CHUNK + 17)) if total > 26 else 0
    padded = total - 26 - 17 * chunks
    longest = min(padded - 1, ATTACHMENT_MAX)  # the last bucket holds more than 4 GiB
    return chunks > 0 and padded > 0 and padded_size(longest) == padded and attachment_stored_len(longest) == total


class RecoveryInputError(ValueError):
    """A recovery key or share that cannot be used (mistyped, another vault's, too few): said on one line."""


class ObjectMissing(ValueError):
    """The store or backup holds no object of that id (one that sync has not fetched yet, say)."""


def attachment_source(vault, object_id: bytes):
    """(stored length, the stored bytes in order a piece at a time) of an object: the file
    attachments/<uuid> of a `files` vault, the `attachment_chunk` rows (0, 1, … without a gap)
    of a `sqlite` vault, or the type-6 records of a backup (`vault` is then `read_backup`'s
    objects). The length is known before a byte is read."""
    if isinstance(vault, dict):
        if object_id not in vault:
            raise ObjectMissing("the backup holds no such object")
        return sum(map(len, vault[object_id])), iter(vault[object_id])
    database = os.path.join(vault, "vault.sqlite")
    if not os.path.exists(database):
        path = os.path.join(vault, "attachments", str(uuid.UUID(bytes=object_id)))
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            raise ObjectMissing(f"no file {path}") from None
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path} is not a regular file")

        def read_file():
            with open(path, "rb") as f:
                while piece := f.read(1 << 20):
                    yield piece
        return info.st_size, read_file()
    import sqlite3
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    has_table = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'attachment_chunk'").fetchone()
    total = has_table and db.execute(
        "SELECT sum(length(sealed)) FROM attachment_chunk WHERE id = ?", (object_id,)).fetchone()[0]
    if not total:
        db.close()
        raise ObjectMissing("no rows of the object")

    def read_rows():
        try:
            rows = db.execute("SELECT chunk, sealed FROM attachment_chunk WHERE id = ? ORDER BY chunk", (object_id,))
            for expected, (chunk, sealed) in enumerate(rows):
                if chunk != expected or not isinstance(sealed, bytes):
                    raise ValueError("the object's rows are not pieces 0, 1, … of one object")
                yield sealed
        finally:
            db.close()
    return total or 0, read_rows()


def open_attachment(vault: str, vault_id: bytes, object_id: bytes, stream_key: bytes, length: int,
                    stored_hash: bytes, sink, source=None) -> None:
    """Checks an attachment object as §7.6 says a reader MUST and hands the file's bytes to
    `sink` a chunk at a time; raises ValueError on the first failure.
    What `sink` received is the file only if this returns. Memory holds one chunk.
    `source`: (stored length, pieces) read elsewhere (a sync remote's copy) instead of the vault's."""
    total, pieces = source if source is not None else attachment_source(vault, object_id)
    if total != attachment_stored_len(length):
        raise ValueError(f"the object is {total} bytes, not {attachment_stored_len(length)}")
    hasher = hashlib.blake2b(digest_size=32)  # H, fed every stored byte
    buffer = bytearray()

    def take(count: int) -> bytes:
        while len(buffer) < count:
            piece = next(pieces, None)
            if piece is None:
                raise ValueError("the object ended early")
            hasher.update(piece)
            buffer.extend(piece)
        out = bytes(buffer[:count])
        del buffer[:count]
        return out

    prefix = take(26)
    if prefix[0] != 1 or prefix[1] != 4:
        raise ValueError("not an attachment object of envelope version 1")
    state = b.crypto_secretstream_xchacha20poly1305_state()
    b.crypto_secretstream_xchacha20poly1305_init_pull(state, prefix[2:], stream_key)
    padded = padded_size(length)
    count = -(-padded // CHUNK)
    position = 0
    for i in range(count):
        sealed = take(min(CHUNK, padded - position) + 17)
        ad = b"diary.a1" + vault_id + object_id + struct.pack(">Q", i)
        try:
            message, tag = b.crypto_secretstream_xchacha20poly1305_pull(state, sealed, ad)
        except Exception as error:  # PyNaCl reports a chunk that fails as a RuntimeError
            raise ValueError(f"chunk {i} does not authenticate") from error
        if tag != (TAG_FINAL if i == count - 1 else TAG_MESSAGE):
            raise ValueError(f"chunk {i} has tag {tag}")
        own = max(0, min(len(message), length - position))
        # Canonical padding: the byte at position L of P is 0x80, every later one zero.
        expected = bytearray(len(message) - own)
        if expected and position + own == length:
            expected[0] = 0x80
        if message[own:] != bytes(expected):
            raise ValueError("the padding is not canonical")
        sink(message[:own])
        position += len(message)
    if buffer or next(pieces, None) is not None:
        raise ValueError("bytes after the FINAL chunk")
    if not hmac.compare_digest(hasher.digest(), stored_hash):
        raise ValueError("the object does not hash to the record's stored hash")


# ---------------------------------------------------------------------------------------------
# Sync remotes (FORMAT.md §12, sync format 2)

class Refused(Exception):
    """A rule FORMAT.md §12.7 says a reader MUST refuse on."""


BUCKET_FLOOR, MAX_PADDED_INPUT = 512, 64 << 20


def padded_size(length: int) -> int:
    needed = length + 1
    if needed <= BUCKET_FLOOR:
        return BUCKET_FLOOR
    step = 1 << (needed.bit_length() - 1 - 3)
    return (needed + step - 1) // step * step


def is_bucket(size: int) -> bool:
    if size < BUCKET_FLOOR or size > padded_size(MAX_PADDED_INPUT):
        return False
    return size == BUCKET_FLOOR or size % (1 << (size.bit_length() - 1 - 3)) == 0


def unpad_strict(x: bytes) -> bytes:
    """§6 Unpad: a bucket size, ISO 7816-4 padding, and the smallest bucket for the content."""
    content = unpad(x)
    if not is_bucket(len(x)) or padded_size(len(content)) != len(x):
        raise ValueError("padding is not canonical")
    return content


class Reader:
    """Reads the big-endian fields of §1, failing on a short read."""

    def __init__(self, data: bytes):
        self.data, self.off = data, 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.off + n > len(self.data):
            raise ValueError("truncated")
        self.off += n
        return self.data[self.off - n:self.off]

    def u8(self) -> int:
        return self.take(1)[0]

    def u16(self) -> int:
        return struct.unpack(">H", self.take(2))[0]

    def u32(self) -> int:
        return struct.unpack(">I", self.take(4))[0]

    def u64(self) -> int:
        return struct.unpack(">Q", self.take(8))[0]

    def str16(self) -> str:
        return self.take(self.u16()).decode("utf-8")

    def end(self) -> None:
        if self.off != len(self.data):
            raise ValueError("trailing bytes")


STORE_KINDS = {1: "sqlite", 2: "files"}
RECORD_MAGIC, STATEMENT_MAGIC = b"DSYNCREC", b"DSYNCSTM"
PREFIX_LEN, NONCE_LEN, TAG_LEN, SIG_LEN = 81, 24, 16, 64
OVERHEAD = PREFIX_LEN + NONCE_LEN + TAG_LEN + SIG_LEN  # 185: a file's length minus this is a bucket size
MAX_RECORD, MAX_STATEMENT, MAX_HEADER, MAX_MARKER = 64 << 20, 1 << 20, 64 << 10, 4096
# A put's plaintext (§12.2): the text, 70 000 bytes for version 1's other fields, and 255 attachment
# records of the longest name and media type (§7.6): 1 + 255 × (132 + 2 + 255 + 2 + 127) = 132 091 bytes.
MAX_PUT, MAX_LAMPORT, MAX_DERIVATIONS = (8 << 20) + 70_000 + 132_091, 1 << 62, 4
RECORD_CONTEXT, STATEMENT_CONTEXT = b"diary.sync.record.v2\0", b"diary.sync.statement.v2\0"
KIND_NAMES = {1: "genesis", 2: "rekey", 3: "passphrase", 4: "admit", 5: "remove", 6: "settle"}
NEW_KEY_KINDS = (2, 5, 6)
ZERO32 = bytes(32)


def parse_header(header: bytes) -> dict:
    """The checks of §3 that need no key; raises ValueError on any. Version 2 adds the recovery
    block (epoch, public key, tag) to the slots' associated data and a recovery slot per key slot."""
    if header[:8] != b"DIARYVLT":
        raise ValueError("not a vault header")
    if len(header) < 61 + 32 or header[-32:] != h(header[:-32]):
        raise ValueError("header checksum")
    version, store, alg = struct.unpack(">H", header[8:10])[0], header[10], header[11]
    ops, mem = struct.unpack(">QQ", header[28:44])
    prefix_len = 60 if version == 1 else 128
    if version not in (1, 2) or len(header) < prefix_len + 1 + 32:
        raise ValueError("header fields")
    recovery = None
    if version == 2:
        epoch, pk, tag = struct.unpack(">I", header[60:64])[0], header[64:96], header[96:128]
        if epoch < 1:
            raise ValueError("recovery epoch")
        recovery = dict(epoch=epoch, pk=pk, tag=tag, slots=[])
    n = header[prefix_len]
    recovery_slots = n if recovery and recovery["pk"] != ZERO32 else 0
    if store not in STORE_KINDS or alg != 1 or n not in (1, 2) or \
            len(header) != prefix_len + 1 + 76 * n + 104 * recovery_slots + 32:
        raise ValueError("header fields")
    if not (1 <= ops <= 4 and 8192 <= mem <= 1 << 30):
        raise ValueError("KDF parameters out of bounds")
    first = prefix_len + 1
    slots = [header[first + 76 * i:first + 76 * (i + 1)] for i in range(n)]
    gens = [struct.unpack(">I", s[:4])[0] for s in slots]
    if n == 2 and gens[1] <= gens[0]:
        raise ValueError("slot generations")
    for i in range(recovery_slots):
        slot = header[first + 76 * n + 104 * i:first + 76 * n + 104 * (i + 1)]
        if struct.unpack(">I", slot[:4])[0] != gens[i]:
            raise ValueError("recovery slot generation")
        recovery["slots"].append((gens[i], slot[4:]))
    return dict(vault_id=header[12:28], store=STORE_KINDS[store], ops=ops, mem=mem, salt=header[44:60], slots=slots,
                gens=gens, prefix=header[:prefix_len], recovery=recovery)


CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def gf32_mul(a: int, b: int) -> int:
    """a·b in GF(32) = GF(2)[x]/(x^5 + x^2 + 1)."""
    p = 0
    for i in range(5):
        if (b >> i) & 1:
            p ^= a
        a = ((a << 1) & 31) ^ (0b00101 if a & 16 else 0)
    return p


def checked_base32_decode(text: str, nbytes: int) -> bytes:
    """Checked base32 (FORMAT.md §14.1): Crockford digits (spaces, tabs, dashes and line breaks
    ignored, lower case read as upper, I and L as 1, O as 0), then two check digits such that
    Σ v_i = 0 and Σ α^i·v_i = 0 over GF(32), α = x."""
    values = []
    for c in text.upper():
        if c in " \t\r\n-":
            continue
        c = {"I": "1", "L": "1", "O": "0"}.get(c, c)
        if c not in CROCKFORD:
            raise RecoveryInputError(f"{c!r} is not a base32 digit")
        values.append(CROCKFORD.index(c))
    if len(values) != (nbytes * 8 + 4) // 5 + 2:
        raise RecoveryInputError("wrong length")
    s0, s1, a = 0, 0, 1
    for v in values:
        s0, s1, a = s0 ^ v, s1 ^ gf32_mul(a, v), gf32_mul(a, 2)
    if s0 or s1:
        raise RecoveryInputError("checksum mismatch")
    bits = "".join(f"{v:05b}" for v in values[:-2])
    if "1" in bits[nbytes * 8:]:
        raise RecoveryInputError("non-zero padding")
    return int(bits[:nbytes * 8], 2).to_bytes(nbytes, "big")


KEY_FILE_LIMIT = 64 * 1024  # read no further: a recovery key file is a few hundred bytes


def read_recovery_key_file(path: str) -> bytes:
    """R from a recovery key file: `#` comment lines and blank lines, and one line of text."""
    try:
        with open(path, "rb") as f:
            raw = f.read(KEY_FILE_LIMIT + 1)
    except OSError as error:
        raise RecoveryInputError(f"cannot read {path}: {error.strerror}") from None
    if len(raw) > KEY_FILE_LIMIT:
        raise RecoveryInputError(f"{path} is larger than {KEY_FILE_LIMIT} bytes: not a recovery key file")
    try:
        lines = [line.strip() for line in raw.decode("utf-8").splitlines()]
    except UnicodeDecodeError:
        raise RecoveryInputError(f"{path} is not a recovery key file") from None
    lines = [line for line in lines if line and not line.startswith("#")]
    if len(lines) != 1:
        raise RecoveryInputError(f"{path} is not a recovery key file")
    try:
        return checked_base32_decode(lines[0], 32)
    except ValueError as error:
        raise RecoveryInputError(f"{path} is mistyped: {error}") from None


def gf256_mul(a: int, b: int) -> int:
    """a·b in GF(2^8) = GF(2)[x]/(x^8 + x^4 + x^3 + x^2 + 1) (0x11D, libgfshare's field; §14.2)."""
    p = 0
    for i in range(8):
        if (b >> i) & 1:
            p ^= a
        a = ((a << 1) & 0xFF) ^ (0x1D if a & 0x80 else 0)
    return p


def read_share_file(path: str, vault_id: bytes) -> dict:
    """One share (§14.2, §14.3), checked alone: `#` lines and blank lines skipped, the other lines
    its text; version 1, 2 ≤ K ≤ N ≤ 16, 1 ≤ x ≤ N, and the vault's id."""
    try:
        with open(path, "rb") as f:
            raw = f.read(16 * 1024 + 1)
    except OSError as error:
        raise RecoveryInputError(f"cannot read {path}: {error.strerror}") from None
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise RecoveryInputError(f"{path} is not a share file")
    body = [line for line in lines if not line.startswith("#") and line.strip(" \t")]
    if len(raw) > 16 * 1024 or not body:
        raise RecoveryInputError(f"{path} is not a share file")
    try:
        data = checked_base32_decode("\n".join(body), 60)
    except ValueError as error:
        try:
            checked_base32_decode("\n".join(body), 32)
        except ValueError:
            raise RecoveryInputError(f"{path} is mistyped: {error}") from None
        raise RecoveryInputError(f"{path} holds a whole recovery key, not a share: use --recovery-key-file") from None
    if data[0] != 1:
        raise RecoveryInputError(f"{path} is a share of unknown version {data[0]}")
    k, n, x = data[25], data[26], data[27]
    if not (2 <= k <= n <= 16 and 1 <= x <= n):
        raise RecoveryInputError(f"{path} is not a share diary makes")
    if data[9:25] != vault_id:
        raise RecoveryInputError(f"{path} is a share of another vault")
    return dict(path=path, set=data[1:9], k=k, n=n, x=x, y=data[28:60])


def rebuild_from_shares(paths: list, vault_id: bytes) -> bytes:
    """R from share files (§14.2): each checked alone, then one share set, one K and N, no x twice,
    at least K; then R_p = Σ y_ip · L_i with L_i = Π_{j≠i} x_j / (x_j + x_i) over GF(2^8)."""
    shares = [read_share_file(path, vault_id) for path in paths]
    first, seen = shares[0], {}
    for share in shares:
        if share["set"] != first["set"]:
            raise RecoveryInputError(f"{share['path']} is of another share set than {first['path']}")
        if share["k"] != first["k"]:
            raise RecoveryInputError(f"{share['path']} and {first['path']} disagree on how many shares are needed")
        if share["n"] != first["n"]:
            raise RecoveryInputError(f"{share['path']} and {first['path']} disagree on how many shares were made")
        if share["x"] in seen:
            earlier = seen[share["x"]]
            if earlier["y"] != share["y"]:
                raise RecoveryInputError(f"{earlier['path']} and {share['path']} are two different shares numbered {share['x']}")
            raise RecoveryInputError(f"{share['path']} is the same share as {earlier['path']}")
        seen[share["x"]] = share
    if len(shares) < first["k"]:
        raise RecoveryInputError(f"{first['k']} shares are needed, {len(shares)} given")
    r = bytearray(32)
    for i, share in enumerate(shares):
        num, den = 1, 1
        for other in shares:
            if other is not share:
                num, den = gf256_mul(num, other["x"]), gf256_mul(den, other["x"] ^ share["x"])
        inverse = 1
        for _ in range(254):  # den^254 = den^-1
            inverse = gf256_mul(inverse, den)
        weight = gf256_mul(num, inverse)
        for p in range(32):
            r[p] ^= gf256_mul(share["y"][p], weight)
    return bytes(r)


def recovery_tag(vk: bytes, vault_id: bytes, epoch: int, pk: bytes) -> bytes:
    """§3: KH(key = RAK_g = KDF(VK_g, 1, "diaryrec"), "diary.recovery.tag.v1" ‖ vault id ‖ u32 epoch ‖ pk)."""
    rak = kdf(vk, 1, b"diaryrec")
    return hashlib.blake2b(b"diary.recovery.tag.v1" + vault_id + struct.pack(">I", epoch) + pk, digest_size=32,
                           key=rak).digest()


def open_with_recovery_key(hd: dict, r: bytes) -> dict:
    """{generation: VK} from the recovery slots (§4), every check a reader MUST make: the key's public
    half is the header's, each box's inside names this vault and its generation, the tag verifies."""
    rec = hd["recovery"]
    if rec is None or rec["pk"] == ZERO32:
        raise RecoveryInputError("the vault has no recovery key")
    pk, sk = b.crypto_box_seed_keypair(r)
    if pk != rec["pk"]:
        raise RecoveryInputError("the recovery key is not this vault's")
    vks = {}
    for gen, box in rec["slots"]:
        inside = b.crypto_box_seal_open(box, pk, sk)
        if len(inside) != 52 or inside[:20] != hd["vault_id"] + struct.pack(">I", gen):
            raise RecoveryInputError(f"the recovery slot of generation {gen} names another vault or generation")
        vks[gen] = inside[20:]
    if recovery_tag(vks[max(vks)], hd["vault_id"], rec["epoch"], pk) != rec["tag"]:
        raise RecoveryInputError("the recovery tag does not verify")
    return vks


def key_id(rk: bytes, vault_id: bytes) -> bytes:
    """§12.3: KID = BLAKE2b-256 keyed with the record key, of "diary.sync.key-id.v2" ‖ vault id."""
    return hashlib.blake2b(b"diary.sync.key-id.v2" + vault_id, digest_size=32, key=rk).digest()


def sync_key(vk, rk: bytes, gen: int, vault_id: bytes, source: str) -> dict:
    """One record key with its key id; `vk` is known only for keys a header gave (§12.3)."""
    return dict(gen=gen, vk=vk, rk=rk, kid=key_id(rk, vault_id), source=source)


def fingerprint(pk: bytes) -> str:
    """§12.3: the first 8 bytes of H(public key), as hex in four groups of four."""
    x = h(pk)[:8].hex()
    return " ".join(x[i:i + 4] for i in range(0, 16, 4))


def verify(pk: bytes, context: bytes, signed: bytes, signature: bytes) -> bool:
    try:
        signing.VerifyKey(pk).verify(context + signed, signature)
        return True
    except Exception:
        return False


def conflict_copy_original(name: str):
    """What a file-sync tool's conflict copy is a copy of (§12.7), or None."""
    i = name.find(".sync-conflict-")
    if i >= 0:
        rest = name[i + len(".sync-conflict-"):]
        dot = rest.find(".")
        return name[:i] + (rest[dot:] if dot >= 0 else "")
    start = name.find(" (")
    while start >= 0:
        depth, close = 0, -1
        for j in range(start + 1, len(name)):
            depth += {"(": 1, ")": -1}.get(name[j], 0)
            if depth == 0:
                close = j
                break
        if close >= 0:
            note = name[start + 2:close]
            if "conflict" in note.lower() or (note and note.isascii() and note.isdigit()):
                return name[:start] + name[close + 1:]
        start = name.find(" (", start + 1)
    return None


def seq_of(name: str, first: int = 1):
    if len(name) == 12 and name.isascii() and name.isdigit() and int(name) >= first:
        return int(name)
    return None


def machine_of(name: str):
    if len(name) == 32 and all(c in "0123456789abcdef" for c in name):
        return bytes.fromhex(name)
    return None


def hexid(machine: bytes) -> str:
    return machine.hex()


class Tree:
    """A remote's tree, read without following any link (§12.7): every directory and file is opened
    relative to its parent with O_NOFOLLOW, and only regular files within their limit are read."""

    def __init__(self, root: str):
        self.fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)

    def _dir(self, parts):
        fd = os.dup(self.fd)
        for part in parts:
            try:
                nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                os.close(fd)
                return None
            except OSError:
                os.close(fd)
                raise Refused(f"{'/'.join(parts)} is a link or not a directory: never followed")
            os.close(fd)
            fd = nxt
        return fd

    def listdir(self, *parts):
        fd = self._dir(parts)
        if fd is None:
            return []
        try:
            return sorted(os.listdir(fd))
        finally:
            os.close(fd)

    def read(self, parts, limit: int):
        """The bytes of a regular file, or None when absent; refuses a link, a non-file or a file over the limit."""
        fd = self._dir(parts[:-1])
        if fd is None:
            return None
        path = "/".join(parts)
        try:
            try:
                f = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
            except FileNotFoundError:
                return None
            except OSError:
                raise Refused(f"{path} is a link or cannot be opened: never followed")
            try:
                st = os.fstat(f)
                if not stat.S_ISREG(st.st_mode):
                    raise Refused(f"{path} is not a regular file")
                if st.st_size > limit:
                    raise Refused(f"{path} is over its limit of {limit} bytes")
                chunks, left = [], limit + 1
                while left > 0:
                    chunk = os.read(f, min(left, 1 << 20))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    left -= len(chunk)
                data = b"".join(chunks)
                if len(data) > limit:
                    raise Refused(f"{path} is over its limit of {limit} bytes")
                return data
            finally:
                os.close(f)
        finally:
            os.close(fd)


    def lstat(self, parts):
        """The stat data of parts[-1] itself (a link is not followed), or None when absent."""
        fd = self._dir(parts[:-1])
        if fd is None:
            return None
        try:
            return os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        finally:
            os.close(fd)

    def stream(self, parts, size: int):
        """(size, pieces of at most 1 MiB) of a regular file that is exactly `size` bytes, checked before a byte
        is read; None when absent. Refuses a link; raises ValueError for another size or a non-regular file."""
        fd = self._dir(parts[:-1])
        if fd is None:
            return None
        try:
            f = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
        except FileNotFoundError:
            return None
        except OSError:
            raise Refused(f"{'/'.join(parts)} is a link or cannot be opened: never followed")
        finally:
            os.close(fd)
        st = os.fstat(f)
        if not stat.S_ISREG(st.st_mode) or st.st_size != size:
            os.close(f)
            raise ValueError(f"the copy is {st.st_size} bytes, not {size}" if stat.S_ISREG(st.st_mode)
                             else "the copy is not a regular file")

        def pieces():
            try:
                left = size
                while left > 0:
                    piece = os.read(f, min(left, 1 << 20))
                    if not piece:
                        return
                    left -= len(piece)
                    yield piece
                if os.read(f, 1):
                    raise ValueError("the copy grew while it was read")
            finally:
                os.close(f)
        return size, pieces()


def is_object_name(name: str) -> bool:
    """attachments/<machine>/<object>: a lowercase UUID with dashes (§12.1)."""
    try:
        return len(name) == 36 and str(uuid.UUID(name)) == name
    except ValueError:
        return False


def check_prefix(data: bytes, magic: bytes, vault_id: bytes, place: tuple, path: str, git: bool):
    """The clear checks of a statement or record (§12.2, §12.4): None when fine, "partial" for a file a
    file-sync tool is still copying (a folder only); raises Refused otherwise. `place` is what the
    name says: (machine, seq) for a record, (seq, author) for a statement."""
    if len(data) < OVERHEAD + BUCKET_FLOOR or not is_bucket(len(data) - OVERHEAD):
        if not git and (len(data) == 0 or data.startswith(magic) or magic.startswith(data)):
            return "partial"
    if data[:8] != magic:
        raise Refused(f"{path}: not a {'record' if magic == RECORD_MAGIC else 'statement'} (magic)")
    if len(data) < PREFIX_LEN:
        raise Refused(f"{path}: length {len(data)} is not 185 + a bucket size")
    if data[8] != 2:
        raise Refused(f"{path}: version {data[8]}, not 2")
    if len(data) < OVERHEAD + BUCKET_FLOOR or not is_bucket(len(data) - OVERHEAD):
        raise Refused(f"{path}: length {len(data)} is not 185 + a bucket size")
    if data[9:25] != vault_id:
        raise Refused(f"{path}: belongs to another vault ({uuid.UUID(bytes=data[9:25])})")
    if magic == RECORD_MAGIC:
        found = (data[25:41], struct.unpack(">Q", data[41:49])[0])
    else:
        found = (struct.unpack(">Q", data[25:33])[0], data[33:49])
    if found != place:
        raise Refused(f"{path}: carries another name (wrong place)")
    return None


def open_sealed_file(data: bytes, rk: bytes) -> bytes:
    """The padded plaintext of a statement or record under `rk` (§12.2, §12.4); raises ValueError."""
    sealed_end = len(data) - SIG_LEN
    try:
        padded = b.crypto_aead_xchacha20poly1305_ietf_decrypt(
            data[PREFIX_LEN + NONCE_LEN:sealed_end], data[:PREFIX_LEN], data[PREFIX_LEN:PREFIX_LEN + NONCE_LEN], rk)
    except Exception:
        raise ValueError("does not authenticate")
    return unpad_strict(padded)


def signature_ok(data: bytes, pk: bytes, context: bytes) -> bool:
    return verify(pk, context, data[:-SIG_LEN], data[-SIG_LEN:])


def parse_marks(r: Reader, count: int, what: str, allow_zero: bool) -> list:
    """Sorted, unique (machine, seq, hash) triples: a version vector or the cuts of a statement."""
    marks = [(r.take(16), r.u64(), r.take(32)) for _ in range(count)]
    for i, (m, seq, hsh) in enumerate(marks):
        if i and marks[i - 1][0] >= m:
            raise ValueError(f"{what} not sorted or not unique")
        if seq == 0 and not (allow_zero and hsh == ZERO32):
            raise ValueError(f"{what} with seq 0")
    return marks


def parse_body(plain: bytes) -> dict:
    """A statement's body, version 1 (§12.4)."""
    r = Reader(plain)
    if r.u8() != 1:
        raise ValueError("body version")
    st = dict(previous=r.take(32), kind=r.u8(), gen=r.u32())
    if st["kind"] not in KIND_NAMES:
        raise ValueError(f"kind {st['kind']}")
    st["superseded"] = [r.take(32) for _ in range(r.u8())]
    members = []
    for _ in range(r.u16()):
        members.append((r.take(16), r.take(32), r.str16()))
    if not members or any(members[i - 1][0] >= members[i][0] for i in range(1, len(members))):
        raise ValueError("members empty, not sorted or not unique")
    st["members"] = members
    headers = [(r.str16(), r.take(32)) for _ in range(r.u8())]
    if [name for name, _ in headers] != ["files", "sqlite"]:
        raise ValueError("header hashes are not exactly files, sqlite")
    st["headers"] = dict(headers)
    st["cuts"] = parse_marks(r, r.u16(), "cut", allow_zero=True)
    st["retired"] = [(r.u32(), r.take(32), r.take(32)) for _ in range(r.u8())]
    if len({kid for _, kid, _ in st["retired"]}) != len(st["retired"]):
        raise ValueError("a retired key id twice")
    r.end()
    return st


def strict_entry(raw: bytes) -> dict:
    """§7's entry plaintext, with every check a reader MUST make."""
    e = parse_entry(raw)
    if e["template"] or e["device"]:
        return e  # parse_template and parse_device made every check of §7.5 and §7.7
    lo, hi = TIME_RANGE
    if raw[25] & ~1 or not all(lo <= e[k] <= hi for k in ("date", "created", "modified")):
        raise ValueError("entry fields")
    if len(e["text"].encode()) > 8 << 20:
        raise ValueError("text over 8 MiB")
    return e


def parse_record(plain: bytes, machine: bytes, seq: int) -> dict:
    """The plaintext of a record, version 2 (§12.2)."""
    r = Reader(plain)
    if r.u8() != 2:
        raise ValueError("record plaintext version")
    rec = dict(previous=r.take(32), lamport=r.u64(), written=r.u64(), name=r.str16(), epoch=(r.u64(), r.take(32)))
    rec["vector"] = parse_marks(r, r.u16(), "version vector entry", allow_zero=False)
    if any(m == machine for m, _, _ in rec["vector"]):
        raise ValueError("the version vector names the record's own log")
    rec["revisions"], rec["join"] = [], None
    count = r.u32()
    for _ in range(count):
        op = r.u8()
        if op in (1, 2):
            entry, rev = r.take(16), r.take(16)
            parents = [r.take(16) for _ in range(r.u16())]
            content, raw = None, None
            if op == 1:
                n = r.u32()
                if n > MAX_PUT:
                    raise ValueError("put too large")
                raw = r.take(n)
                content = strict_entry(raw)
            rec["revisions"].append(dict(entry=entry, id=rev, parents=parents, content=content, raw=raw))
        elif op == 4:
            if seq != 1 or count != 1:
                raise ValueError("a join that is not the only operation of record 1")
            rec["join"] = dict(pk=r.take(32), invite=r.take(8), proof=r.take(32))
        else:
            raise ValueError(f"operation {op}")
    r.end()
    return rec


class Remote:
    """Everything a reader verifies in a format-2 remote (FORMAT.md §12.7), in the order it is read."""

    def __init__(self, tree: Tree, passphrase: str, git: bool):
        self.tree, self.passphrase, self.git = tree, passphrase, git
        self.notes, self.out = [], []
        self.ring = {}  # key id -> key (decryption only; §12.7 "the keys")

    # --- the marker (§12.1) ---------------------------------------------------------------------

    def read_marker(self) -> None:
        marker = self.tree.read(["diary-sync"], MAX_MARKER)
        if marker is None:
            raise Refused("no diary-sync marker: not a sync remote")
        lines = [line for line in marker.decode("utf-8", "replace").split("\n") if line]
        if lines and lines[0] == "diary-sync 1":
            raise FormatOne()
        if len(lines) != 2 or lines[0] != "diary-sync 2":
            raise Refused("the diary-sync marker is not `diary-sync 2` and a vault id")
        try:
            self.vault_id = uuid.UUID(lines[1]).bytes
        except ValueError:
            raise Refused("the diary-sync marker does not name a vault id")
        if str(uuid.UUID(bytes=self.vault_id)) != lines[1]:
            raise Refused("the diary-sync marker's vault id is not a lowercase UUID with dashes")
        self.out.append(f"| vault id (marker) | `{lines[1]}` |")

    # --- the keys: published headers, then retired keys of statements (§12.7) ---------------------

    def published_headers(self) -> dict:
        """{(machine, seq, store): name} of every name in keys/ of the form of §12.1."""
        found = {}
        for name in self.tree.listdir("keys"):
            stem, dot, store = name.partition(".")
            m, dash, s = stem.partition("-")
            if name.startswith(".tmp-"):
                continue
            if not dot or not dash or store not in ("sqlite", "files") or machine_of(m) is None \
                    or seq_of(s, 0) is None:
                self.notes.append(f"unexpected entry in keys/, left alone: keys/{name}")
                continue
            found[(machine_of(m), seq_of(s, 0), store)] = name
        return found

    def open_headers(self) -> None:
        nfc = unicodedata.normalize("NFC", self.passphrase).encode()
        keks = {}
        for (machine, seq, store), name in sorted(self.headers.items(), key=lambda kv: -kv[0][1]):
            data = self.tree.read(["keys", name], MAX_HEADER) or b""
            try:
                hd = parse_header(data)
            except ValueError as why:
                self.notes.append(f"keys/{name}: not a valid header ({why}), skipped")
                continue
            if hd["vault_id"] != self.vault_id or hd["store"] != store:
                self.notes.append(f"keys/{name}: another vault or store kind, skipped")
                continue
            cost = (hd["salt"], hd["ops"], hd["mem"])
            if cost not in keks:
                if len(keks) == MAX_DERIVATIONS:
                    self.notes.append(f"keys/{name}: not tried (at most {MAX_DERIVATIONS} key derivations)")
                    continue
                keks[cost] = pwhash.argon2id.kdf(32, nfc, hd["salt"], opslimit=hd["ops"], memlimit=hd["mem"])
            opened = []
            for slot, gen in zip(hd["slots"], hd["gens"]):
                try:
                    vk = b.crypto_aead_xchacha20poly1305_ietf_decrypt(
                        slot[28:], hd["prefix"] + slot[:4], slot[4:28], keks[cost])
                except Exception:
                    continue
                key = sync_key(vk, kdf(vk, 1, b"diarysyn"), gen, self.vault_id, f"keys/{name}")
                opened.append(gen)
                self.ring.setdefault(key["kid"], key)
            self.out.append(f"| header `keys/{name}` | " + (
                f"opens: generation {', '.join(map(str, opened))}" if opened
                else "does not open with this passphrase") + " |")
        if not self.ring:
            raise Refused("wrong passphrase: no published header opens with it")

    # --- the chain (§12.4, §12.7) ----------------------------------------------------------------

    def read_statements(self) -> None:
        """Every chain file's clear checks; then opens each one the ring's keys open, adding the retired keys
        it lists, while that finds new keys."""
        self.statements = {}
        for name in self.tree.listdir("chain"):
            if name.startswith(".tmp-"):
                continue
            s, dash, m = name.partition("-")
            seq, author = seq_of(s, 0), machine_of(m)
            if not dash or seq is None or author is None:
                self.notes.append(f"unexpected entry in chain/, left alone: chain/{name}")
                continue
            data = self.tree.read(["chain", name], MAX_STATEMENT)
            if check_prefix(data, STATEMENT_MAGIC, self.vault_id, (seq, author), f"chain/{name}", self.git):
                self.notes.append(f"pending: chain/{name} is only partly there (still being copied)")
                continue
            self.statements[name] = dict(name=name, seq=seq, author=author, kid=data[49:81], data=data,
                                         hash=h(data), body=None)
        grew = True
        while grew:
            grew = False
            for st in self.statements.values():
                key = self.ring.get(st["kid"])
                if st["body"] is not None or key is None:
                    continue
                try:
                    st["body"] = parse_body(open_sealed_file(st["data"], key["rk"]))
                except (ValueError, UnicodeDecodeError) as why:
                    raise Refused(f"chain/{st['name']}: {why}: edited, forged or damaged")
                for gen, kid, rk in st["body"]["retired"]:
                    if key_id(rk, self.vault_id) == kid and kid not in self.ring:
                        self.ring[kid] = sync_key(None, rk, gen, self.vault_id, f"retired by chain/{st['name']}")
                        grew = True

    def accept_chain(self) -> None:
        sts = list(self.statements.values())
        geneses = [st for st in sts if st["seq"] == 0]
        if len(geneses) != 1:
            raise Refused(f"{len(geneses)} genesis statements in chain/ (there must be exactly one)")
        genesis = geneses[0]
        if genesis["body"] is None:
            raise Refused(f"chain/{genesis['name']}: the genesis does not open with the keys this passphrase gives")
        self.check_genesis(genesis)
        self.accepted = {genesis["hash"]: genesis}
        progress = True
        while progress:
            progress = False
            for st in sts:
                body = st["body"]
                if st["hash"] in self.accepted or body is None or body["previous"] not in self.accepted:
                    continue
                if any(x not in self.accepted for x in body["superseded"]):
                    continue  # a settle waits for the tips it names
                self.check_statement(st, self.accepted[body["previous"]])
                self.accepted[st["hash"]] = st
                progress = True
        self.pending_statements = [st for st in sts if st["hash"] not in self.accepted]
        self.check_strays()
        named = {st["body"]["previous"] for st in self.accepted.values()}
        named |= {x for st in self.accepted.values() for x in st["body"]["superseded"]}
        tips = [st for st in self.accepted.values() if st["hash"] not in named]
        if len(tips) != 1:
            names = {m: n for st in self.accepted.values() for m, _, n in st["body"]["members"]}
            who = ", ".join(f"chain/{st['name']} by {names.get(st['author'], 'machine ' + hexid(st['author']))!r}"
                            for st in sorted(tips, key=lambda st: st["name"]))
            raise Refused(f"the chain is forked ({who}): no settle statement ends it")
        self.head = tips[0]
        self.public_keys = {}
        for st in sorted(self.accepted.values(), key=lambda st: st["seq"]):
            for machine, pk, name in st["body"]["members"]:
                if self.public_keys.setdefault(machine, pk) != pk:
                    raise Refused(f"machine {hexid(machine)} has two public keys in the chain")
        self.epochs = {st["kid"]: self.ring[st["kid"]] for st in self.accepted.values()}
        self.cuts = {}
        for st in self.accepted.values():
            if st["body"]["kind"] == 5:
                before = self.accepted[st["body"]["previous"]]["body"]["members"]
                gone = {m for m, _, _ in before} - {m for m, _, _ in st["body"]["members"]}
                for m, seq, hsh in st["body"]["cuts"]:
                    if m in gone:
                        self.cuts[m] = (seq, hsh, st)
        self.check_published_headers()

    def check_strays(self) -> None:
        """Statements not accepted (§12.7): forged when their author's key from the chain does not verify them;
        in git, refused when they cannot be placed; otherwise pending."""
        keys = {}
        for st in self.statements.values():
            if st["body"] is not None:
                for m, pk, _ in st["body"]["members"]:
                    keys.setdefault(m, pk)
        for m, pk in self.public_keys_so_far().items():
            keys[m] = pk
        hashes = {st["hash"] for st in self.statements.values()}
        for st in self.pending_statements:
            where = f"chain/{st['name']}"
            pk = keys.get(st["author"])
            if pk is not None and not signature_ok(st["data"], pk, STATEMENT_CONTEXT):
                raise Refused(f"{where}: the signature does not verify under its author's key: forged")
            if st["body"] is None:
                if pk is None and self.git:
                    raise Refused(f"{where}: its author has no key in the chain: forged")
                self.notes.append(f"pending: {where} does not open with the keys this passphrase gives")
            elif st["body"]["previous"] in hashes:
                self.notes.append(f"pending: {where} follows a statement that is not accepted yet")
            elif self.git:
                raise Refused(f"{where} follows no statement of the git tree: off the chain (an old fork's, or forged)")
            else:
                self.notes.append(f"pending: {where} follows a statement that has not arrived")

    def public_keys_so_far(self) -> dict:
        keys = {}
        for st in sorted(self.accepted.values(), key=lambda st: st["seq"]):
            for m, pk, _ in st["body"]["members"]:
                keys.setdefault(m, pk)
        return keys

    def check_genesis(self, st) -> None:
        body, where = st["body"], f"chain/{st['name']}"
        members = body["members"]
        if body["kind"] != 1 or body["previous"] != ZERO32 or body["superseded"] or body["retired"]:
            raise Refused(f"{where}: not a valid genesis (kind, previous or retired keys)")
        if len(members) != 1 or members[0][0] != st["author"]:
            raise Refused(f"{where}: a genesis's only member is its author")
        if not signature_ok(st["data"], members[0][1], STATEMENT_CONTEXT):
            raise Refused(f"{where}: the genesis is not signed by its member: forged")

    def check_statement(self, st, prev) -> None:
        """Validity of `st` against its predecessor `prev` (§12.4): raises Refused naming a forged statement."""
        body, pbody, where = st["body"], prev["body"], f"chain/{st['name']}"

        def fail(why):
            raise Refused(f"{where}: {why}: forged or invalid statement")

        authors = {m: pk for m, pk, _ in pbody["members"]}
        if st["author"] not in authors:
            fail("its author is not a member of the statement it follows")
        if not signature_ok(st["data"], authors[st["author"]], STATEMENT_CONTEXT):
            fail("the signature does not verify under its author's key")
        kind = body["kind"]
        tips = [self.accepted[x] for x in body["superseded"]]
        if kind == 1:
            fail("a second genesis")
        if (kind == 6) != bool(tips) or len(set(body["superseded"])) != len(tips) or prev["hash"] in body["superseded"]:
            fail("superseded tips are only for a settle, at least one, none twice, not its predecessor")
        if st["seq"] != 1 + max([prev["seq"]] + [t["seq"] for t in tips]):
            fail(f"seq {st['seq']} does not follow its predecessor")
        for gen, kid, rk in body["retired"]:
            if key_id(rk, self.vault_id) != kid:
                fail("a retired key does not match its key id")
        retired = {kid for _, kid, _ in body["retired"]}
        members, pmembers = body["members"], pbody["members"]
        if kind in NEW_KEY_KINDS:
            if any(other["kid"] == st["kid"] for other in self.accepted.values()):
                fail("a key change to a key id used before")
            if body["gen"] <= max([pbody["gen"]] + [t["body"]["gen"] for t in tips]):
                fail("a generation that is not above the key it replaces")
            if not {prev["kid"]} | {t["kid"] for t in tips} <= retired:
                fail("does not retire the record key it replaces")
        else:
            if st["kid"] != prev["kid"] or body["gen"] != pbody["gen"] or body["retired"]:
                fail("a passphrase change or admit that changes the key")
        if kind in (2, 3, 6) and members != pmembers:
            fail("changes the members")
        if kind == 3 and body["headers"] == pbody["headers"]:
            fail("a passphrase change that publishes no new header")
        if kind == 4:
            ever = {m for other in self.accepted.values() for m, _, _ in other["body"]["members"]}
            added = [x for x in members if x not in pmembers]
            if len(added) != 1 or len(members) != len(pmembers) + 1 or added[0][0] in ever:
                fail("an admit must add exactly one machine that was never a member")
            if body["headers"] != pbody["headers"]:
                fail("an admit that changes the headers")
        if kind == 5:
            removed = [x for x in pmembers if x not in members]
            if len(removed) != 1 or len(members) != len(pmembers) - 1 or removed[0][0] == st["author"]:
                fail("a remove must remove exactly one machine, not its author")
            if removed[0][0] not in {m for m, _, _ in body["cuts"]}:
                fail("a remove without a cut for the removed machine")

    def check_published_headers(self) -> None:
        for st in self.accepted.values():
            if st["body"]["kind"] == 4:
                continue
            for store in ("files", "sqlite"):
                name = self.headers.get((st["author"], st["seq"], store))
                if name is None:
                    continue
                data = self.tree.read(["keys", name], MAX_HEADER) or b""
                if h(data) != st["body"]["headers"][store]:
                    raise Refused(f"keys/{name} is not the header chain/{st['name']} published (replaced)")
                try:
                    hd = parse_header(data)
                except ValueError as why:
                    raise Refused(f"keys/{name}: {why}")
                if len(hd["gens"]) != 1 or hd["gens"][0] != st["body"]["gen"] or hd["store"] != store:
                    raise Refused(f"keys/{name}: not one slot of generation {st['body']['gen']} for {store}")
                opened = [k for k in self.ring.values() if k["source"] == f"keys/{name}"]
                if any(k["kid"] != st["kid"] for k in opened):
                    raise Refused(f"keys/{name} wraps another key than the one chain/{st['name']} names")
        for key in self.ring.values():
            if key["vk"] is not None and key["kid"] not in self.epochs:
                self.notes.append(f"{key['source']} wraps a key no accepted statement names, not used")

    # --- the logs (§12.7) ------------------------------------------------------------------------

    def list_logs(self) -> None:
        self.logs = {}
        for name in self.tree.listdir("log"):
            if name.startswith(".tmp-"):
                continue
            machine = machine_of(name)
            if machine is None:
                self.notes.append(f"unexpected entry in the remote, left alone: log/{name}")
                continue
            files, copies = {}, {}
            for f in self.tree.listdir("log", name):
                if f.startswith(".tmp-"):
                    continue
                seq = seq_of(f)
                if seq is not None:
                    files[seq] = f
                    continue
                original = conflict_copy_original(f)
                if original is None or seq_of(original) is None:
                    self.notes.append(f"unexpected file in the remote, left alone: log/{name}/{f}")
                else:
                    copies.setdefault(seq_of(original), []).append(f)
            self.logs[machine] = dict(hex=name, files=files, copies=copies, records=[], read={}, previous=ZERO32,
                                      next=1, lamport=0, epoch_seq=0, pending=None, name=None, joining=False)

    def candidates(self, log, seq):
        """The bytes that stand as record `seq`: the file, or (§12.7) a conflict copy of a missing one."""
        if seq in log["files"]:
            return [(log["files"][seq], self.tree.read(["log", log["hex"], log["files"][seq]], MAX_RECORD))]
        return [(copy, self.tree.read(["log", log["hex"], copy], MAX_RECORD))
                for copy in sorted(log["copies"].get(seq, []))]

    def read_record(self, machine: bytes, log: dict, seq: int, data: bytes, path: str):
        """Record `seq` of `machine`'s log (§12.7, checks 1-8 and 10): the record, or a string saying why it is
        pending. Raises Refused."""
        if check_prefix(data, RECORD_MAGIC, self.vault_id, (machine, seq), path, self.git):
            return f"{path} is only partly there (still being copied)"
        pk = self.public_keys.get(machine)
        if pk is not None and not signature_ok(data, pk, RECORD_CONTEXT):
            raise Refused(f"{path}: the signature does not verify under its machine's key from the chain: forged")
        kid = data[49:81]
        key = self.epochs.get(kid)
        if key is None:
            return f"{path} is sealed under key id {kid.hex()[:16]}…, which no accepted statement names"
        try:
            rec = parse_record(open_sealed_file(data, key["rk"]), machine, seq)
        except (ValueError, AssertionError, UnicodeDecodeError, struct.error) as why:
            raise Refused(f"{path}: {why}: edited, swapped or damaged")
        if pk is None:
            if rec["join"] is not None and signature_ok(data, rec["join"]["pk"], RECORD_CONTEXT):
                log["joining"], log["name"] = True, rec["name"]
                return f"{path} asks to join (not yet admitted)"
            raise Refused(f"{path}: a log of a machine that is not a member, without a join request: unvouched")
        if rec["join"] is not None and rec["join"]["pk"] != pk:
            raise Refused(f"{path}: a join record whose key is not the one the chain admitted")
        if rec["previous"] != log["previous"]:
            raise Refused(f"{path} does not follow record {seq - 1} of its machine "
                          "(a replaced, removed or reordered record)")
        if not log["lamport"] < rec["lamport"] <= MAX_LAMPORT:
            raise Refused(f"{path}: lamport {rec['lamport']} is out of range or not above the record before it")
        return rec if rec["join"] is not None else self.check_epoch(machine, log, rec, kid, path)

    def check_epoch(self, machine, log, rec, kid, path):
        seq, hsh = rec["epoch"]
        st = self.accepted.get(hsh)
        if st is None or st["seq"] != seq:
            if seq > self.head["seq"]:
                return f"{path} names statement {seq}, not accepted yet"
            raise Refused(f"{path}: its epoch names no accepted statement of the chain")
        if st["kid"] != kid:
            raise Refused(f"{path}: sealed under another key than its epoch's")
        if machine not in {m for m, _, _ in st["body"]["members"]}:
            raise Refused(f"{path}: its machine is not a member at its epoch")
        if seq < log["epoch_seq"]:
            raise Refused(f"{path}: names an older epoch than the record before it")
        return rec

    def read_log(self, machine: bytes, log: dict) -> None:
        cut = self.cuts.get(machine)
        while True:
            seq = log["next"]
            if cut is not None and seq > cut[0]:
                for s, f in log["files"].items():
                    if s > cut[0]:
                        log["read"][s] = h(self.tree.read(["log", log["hex"], f], MAX_RECORD) or b"")
                if any(s > cut[0] for s in log["files"]):
                    self.notes.append(f"ignored: the records of log/{log['hex']} after {cut[0]}, where "
                                      f"chain/{cut[2]['name']} removed its machine")
                return
            found = self.candidates(log, seq)
            if not found:
                later = [s for s in list(log["files"]) + list(log["copies"]) if s > seq]
                log["pending"] = f"record {seq} has not arrived yet (record {min(later)} has)" if later else None
                return
            opened = None
            for shown, data in found:
                path = f"log/{log['hex']}/{shown}"
                try:
                    result = self.read_record(machine, log, seq, data, path)
                except Refused:
                    if shown == log["files"].get(seq):
                        raise
                    self.notes.append(f"conflict copy that is not an authentic record, left alone: {path}")
                    continue
                if isinstance(result, str):
                    log["pending"] = result
                    continue
                opened = (shown, data, result)
                break
            if opened is None:
                return
            shown, data, rec = opened
            if shown == log["files"].get(seq):
                self.check_copies(machine, log, seq, data)
            else:
                self.notes.append(f"record {seq} read from the authentic conflict copy {shown} (its record is missing)")
            rec["seq"], rec["hash"], rec["size"], rec["kid"] = seq, h(data), len(data), data[49:81]
            if cut is not None and seq == cut[0] and rec["hash"] != cut[1]:
                raise Refused(f"log/{log['hex']}/{shown} is not the record chain/{cut[2]['name']} cut its log at")
            log["records"].append(rec)
            log["read"][seq] = rec["hash"]
            log["previous"], log["next"], log["lamport"] = rec["hash"], seq + 1, rec["lamport"]
            if rec["join"] is None:
                log["epoch_seq"] = rec["epoch"][0]
            log["name"], log["pending"] = rec["name"], None

    def check_copies(self, machine, log, seq, data) -> None:
        """Conflict copies of a record that is present: identical ones are ignored, an authentic different one
        refused (§12.7)."""
        for copy in sorted(log["copies"].get(seq, [])):
            path = f"log/{log['hex']}/{copy}"
            other = self.tree.read(["log", log["hex"], copy], MAX_RECORD)
            if other == data:
                self.notes.append(f"conflict copy identical to its record: {path}")
                continue
            pk = self.public_keys.get(machine)
            authentic = False
            try:
                authentic = not check_prefix(other or b"", RECORD_MAGIC, self.vault_id, (machine, seq), path,
                                             self.git) and pk is not None and signature_ok(other, pk, RECORD_CONTEXT)
            except Refused:
                pass
            if authentic:
                raise Refused(f"machine {hexid(machine)} signed two different records {seq} ({path}): "
                              "a copied machine")
            self.notes.append(f"conflict copy that is not an authentic record, left alone: {path}")

    def check_marks(self) -> None:
        """Version vectors and cuts against what this reader read (§12.7, check 9)."""
        def mark(L, s, hsh, where):
            if L in self.cuts and s > self.cuts[L][0]:
                return None  # past a removed machine's cut: its writer may not have known (§12.7, 9)
            got = self.logs[L]["read"].get(s) if L in self.logs else None
            if got is not None:
                if got != hsh:
                    raise Refused(f"{where} names record {s} of log/{hexid(L)} with another hash: "
                                  "the host showed machines different logs")
                return None
            present = L in self.logs and s in self.logs[L]["files"]
            if self.git and not present:
                raise Refused(f"{where} names record {s} of log/{hexid(L)}, which the git tree does not hold: "
                              "the host showed machines different logs")
            return f"{where} names record {s} of log/{hexid(L)}, not read yet"

        for st in self.accepted.values():
            for L, s, hsh in st["body"]["cuts"]:
                if s:
                    mark(L, s, hsh, f"chain/{st['name']}")
        for machine, log in self.logs.items():
            for i, rec in enumerate(log["records"]):
                why = None
                for L, s, hsh in rec["vector"]:
                    why = why or mark(L, s, hsh, f"log/{log['hex']}/{rec['seq']:012d}")
                if why:
                    log["records"], log["pending"] = log["records"][:i], why
                    break

    def attachment_copies(self) -> dict:
        """{object id: [path parts]} of every attachments/<machine>/<object> (§12.1). A link or a special file in
        attachments/ or a machine folder there is refused (§12.7); other names are not objects."""
        copies = {}
        for folder in self.tree.listdir("attachments"):
            st = self.tree.lstat(["attachments", folder])
            if st is None or not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                raise Refused(f"attachments/{folder} is a link or a special file: never followed")
            if not stat.S_ISDIR(st.st_mode) or machine_of(folder) is None:
                continue
            for name in self.tree.listdir("attachments", folder):
                st = self.tree.lstat(["attachments", folder, name])
                if st is None or not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                    raise Refused(f"attachments/{folder}/{name} is a link or a special file: never followed")
                if stat.S_ISREG(st.st_mode) and is_object_name(name):
                    copies.setdefault(uuid.UUID(name).bytes, []).append(["attachments", folder, name])
        return copies

    def check_object(self, a: dict) -> str:
        """What the remote holds of an attachment record's object (§12.7): the first copy of the right length
        whose every check of §7.6 passes, else why each copy was refused, else pending."""
        said = []
        for parts in self.copies.get(a["object"], []):
            where = "/".join(parts)
            try:
                source = self.tree.stream(parts, attachment_stored_len(a["length"]))
                if source is None:
                    continue
                got = [0]
                open_attachment(None, self.vault_id, a["object"], a["key"], a["length"], a["stored_hash"],
                                lambda m: got.__setitem__(0, got[0] + len(m)), source=source)
                return f"`{where}`: checked (§7.6), {got[0]} bytes"
            except ValueError as why:
                said.append(f"`{where}` refused: {why}")
        return "; ".join(said + ["pending: no copy taken"]) if said else "pending: not on the remote"

    def read(self) -> None:
        self.read_marker()
        self.headers = self.published_headers()
        self.open_headers()
        self.read_statements()
        self.accept_chain()
        self.list_logs()
        for machine in sorted(self.logs):
            self.read_log(machine, self.logs[machine])
        self.check_marks()
        self.copies = self.attachment_copies()

    # --- what it found ---------------------------------------------------------------------------

    def print_chain(self) -> None:
        for key in sorted(self.ring.values(), key=lambda k: (k["gen"], k["kid"])):
            g = key["gen"]
            if key["vk"] is not None:
                self.out.append(f"| VK_{g} (from `{key['source']}`) | `{key['vk'].hex()}` |")
            self.out.append(f"| RK_{g} = KDF(VK_{g}, 1, \"diarysyn\") | `{key['rk'].hex()}` |")
            self.out.append(f"| KID_{g} = BLAKE2b-256(key RK_{g}, \"diary.sync.key-id.v2\" ‖ vault id) | "
                            f"`{key['kid'].hex()}` |")
        self.out.append(f"| head | `chain/{self.head['name']}`, H = `{self.head['hash'].hex()}` |")
        self.out.append(f"| machines | {len(self.logs)} |")
        print("| value | hex / text |\n|---|---|\n" + "\n".join(self.out) + "\n")
        print("### chain\n")
        print("| seq | author | kind | generation | key id | members | retired | H(file) |")
        print("|---|---|---|---|---|---|---|---|")
        for st in sorted(self.accepted.values(), key=lambda st: (st["seq"], st["name"])):
            body = st["body"]
            print(f"| {st['seq']} | `{hexid(st['author'])}` | {KIND_NAMES[body['kind']]} | {body['gen']} | "
                  f"`{st['kid'].hex()[:16]}…` | {len(body['members'])} | {len(body['retired'])} | "
                  f"`{st['hash'].hex()}` |")
        print("\n### members\n")
        for machine, pk, name in self.head["body"]["members"]:
            print(f"- `{hexid(machine)}` {name!r}: fingerprint {fingerprint(pk)}")
        print()

    def print_logs(self) -> None:
        for machine in sorted(self.logs):
            log = self.logs[machine]
            state = " (asks to join)" if log["joining"] else ""
            print(f"### machine `{hexid(machine)}` ({log['name']!r}){state}\n")
            print("| seq | lamport | written | epoch | operations | size | H(file) |\n|---|---|---|---|---|---|---|")
            for rec in log["records"]:
                puts = sum(1 for r in rec["revisions"] if r["content"] is not None)
                ops = ["join"] if rec["join"] else [f"{puts} put", f"{len(rec['revisions']) - puts} delete"]
                written = datetime.datetime.fromtimestamp(rec["written"], datetime.timezone.utc).strftime(
                    "%Y-%m-%dT%H:%M:%SZ") if rec["written"] < 253402300800 else str(rec["written"])
                print(f"| {rec['seq']} | {rec['lamport']} | {written} | {rec['epoch'][0]} | {', '.join(ops)} | "
                      f"{rec['size']} | `{rec['hash'].hex()}` |")
            print()
            if log["pending"]:
                print(f"- pending: {log['pending']}\n")
        for note in self.notes:
            print(f"- note: {note}")
        if self.notes:
            print()

    def print_entries(self) -> None:
        """The revision graph (§12.5): each entry's heads, and the one every machine shows."""
        revisions, parents = {}, {}
        for machine in sorted(self.logs):
            for rec in self.logs[machine]["records"]:
                for r in rec["revisions"]:
                    revisions.setdefault(r["entry"], {}).setdefault(
                        r["id"], dict(r, lamport=rec["lamport"], machine=machine))
                    parents.setdefault(r["entry"], set()).update(r["parents"])
        names = {m: self.logs[m]["name"] for m in self.logs}
        # What the inbox's items are read against (§12.11): the device records shown, the entries shown.
        self.devices, self.shown = {}, set()
        print("### entries\n")
        for entry in sorted(revisions, key=lambda e: uuid.UUID(bytes=e).hex):
            heads = [r for rid, r in revisions[entry].items() if rid not in parents.get(entry, set())]
            if not heads:
                continue
            digest = lambda r: hashlib.blake2b(r["raw"], digest_size=16).digest() if r["raw"] is not None \
                else bytes(16)
            conflict = len({digest(r) for r in heads}) > 1
            ordered = sorted(heads, key=lambda r: (r["content"] is not None, r["lamport"], r["machine"], r["id"]),
                             reverse=True)
            shown = ordered[0]
            state = "deleted" if shown["content"] is None else "shown"
            if conflict:
                state += f", in conflict ({len(heads)} heads)"
            print(f"#### entry {uuid.UUID(bytes=entry)}: {state}\n")
            if shown["content"] is not None:
                self.shown.add(uuid.UUID(bytes=entry))
                if shown["content"]["device"]:
                    self.devices[shown["content"]["id"]] = shown["content"]
            for head in ordered if conflict else [shown]:
                who = f"revision `{uuid.UUID(bytes=head['id'])}` by {names[head['machine']]!r}, " \
                      f"lamport {head['lamport']}"
                mark = "shown" if head is shown else "other head"
                e = head["content"]
                if e is None:
                    print(f"- {mark}: deleted ({who})\n")
                    continue
                print(f"- {mark}: {who}")
                if e["device"]:  # §7.7
                    print(f"- capture device {e['name']!r}, enrolled {ms_to_iso(e['enrolled'])}, revoked "
                          f"{ms_to_iso(e['revoked']) if e['revoked'] else 'no'}; taken in: "
                          f"{counters_text(e['intervals'])}\n")
                    continue
                if e["template"]:  # §7.5
                    print(f"- template {e['name']!r}, created {ms_to_iso(e['created'])}, "
                          f"modified {ms_to_iso(e['modified'])}; prompts used last: {e['prompts']}")
                    print("- text:\n\n```\n" + e["text"] + "\n```\n")
                    continue
                tags = " ".join("#" + t for t in e["tags"]) or "none"
                print(f"- title: {title_of(e['text'])}")
                print(f"- date {ms_to_iso(e['date'])}, created {ms_to_iso(e['created'])}, "
                      f"modified {ms_to_iso(e['modified'])}")
                print(f"- starred: {'yes' if e['starred'] else 'no'}; tags: {tags}"
                      + (f"; source: {e['source']}" if e["source"] else ""))
                print_attachments(e["attachments"])
                for a in e["attachments"]:
                    print(f"  - its object: {self.check_object(a)}")
                print("- text:\n\n```\n" + e["text"] + "\n```\n")


    def print_inbox(self) -> None:
        """The items waiting in a folder remote's inbox (§12.11), opened with the device records shown above; a
        git remote has none. The inbox is no part of the signed history: an item that does not pass is said, and
        the reading goes on (a machine's next sync moves it aside)."""
        names = [] if self.git else [n for n in self.tree.listdir("inbox") if not n.startswith(".")]
        if not names:
            return
        print("### inbox (§12.11)\n")
        for name in names:
            where = f"inbox/{name}"
            if name == "rejected":
                try:
                    print(f"- `{where}/`: {len(self.tree.listdir('inbox', name))} item(s) a machine refused, set aside")
                except Refused as why:
                    print(f"- `{where}`: {why}")
                continue
            match = re.fullmatch(r"([0-9a-f]{32})-([0-9]{20})\.dcap", name)
            if not match or int(match.group(2)) == 0:
                print(f"- `{where}`: not an item, left alone")
                continue
            try:
                data = self.tree.read(["inbox", name], ITEM_LIMIT)
                if data is None:
                    continue
                assert data[25:49] == bytes.fromhex(match.group(1)) + struct.pack(">Q", int(match.group(2))), \
                    "its name is another item's"
                item = open_item(data, self.vault_id, self.devices)
            except (Refused, AssertionError, ValueError, RuntimeError, struct.error,
                    nacl.exceptions.CryptoError) as why:
                print(f"- `{where}`: refused: {why}")
                continue
            state = "of a revoked device: refused" if item["revoked"] else \
                "taken in already: the next sync removes it" if item["entry_id"] in self.shown else \
                "a replay: refused" if item["taken_in"] else f"waits to be taken in, as entry {item['entry_id']}"
            print(f"- `{where}`: item {item['counter']} of {item['device']!r}, {state}")
            print(f"  - date {ms_to_iso(item['date'])}, captured {ms_to_iso(item['captured'])}, starred "
                  f"{'yes' if item['starred'] else 'no'}; tags: {' '.join('#' + t for t in item['tags']) or 'none'}")
            print("  - text:\n\n```\n" + item["text"] + "\n```\n")


ITEM_LIMIT = 49 + 32 + 24 + padded_size((8 << 20) + 70_000) + 16  # §13.1: the largest item


class FormatOne(Exception):
    """A format-1 remote (§12.10)."""


GIT_TIMEOUT = 120


def git(args: list, cwd=None) -> subprocess.CompletedProcess:
    """One git child, with the settings of §12.8 and a time limit."""
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_CONFIG_NOSYSTEM="1", LC_ALL="C")
    try:
        return subprocess.run(["git", "-c", "core.symlinks=false", "-c", "core.hooksPath=/dev/null"] + args,
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=GIT_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Refused(f"git {args[0]} did not finish in {GIT_TIMEOUT} s")


def git_tree(source: str, scratch: str) -> str:
    """A directory holding the tree at the tip of branch main of the git repository `source`, after checking
    that every entry of that tree is a directory or a mode-100644 blob (§12.8)."""
    tree = os.path.join(scratch, "tree")
    cloned = git(["clone", "--quiet", "--no-checkout", "--branch", "main", "--", source, tree])
    if cloned.returncode != 0:
        raise Refused(f"cannot clone branch main of {source}: {cloned.stderr.strip()}")
    listing = git(["ls-tree", "-r", "-t", "--full-tree", "-z", "HEAD"], cwd=tree)
    if listing.returncode != 0:
        raise Refused(f"cannot list the tree of main: {listing.stderr.strip()}")
    for line in filter(None, listing.stdout.split("\0")):
        mode, kind, _ = line.split(" ", 2)
        if (mode, kind) not in (("040000", "tree"), ("100644", "blob")):
            raise Refused(f"the tree of main holds {line.split(chr(9), 1)[-1]!r} with mode {mode} ({kind}): "
                          "only directories and mode-100644 files are accepted")
    checkout = git(["checkout", "--quiet", "HEAD", "--", "."], cwd=tree)
    if checkout.returncode != 0:
        raise Refused(f"cannot check out main: {checkout.stderr.strip()}")
    return tree


def read_remote(source: str, passphrase: str) -> None:
    is_bare_git = os.path.isfile(os.path.join(source, "HEAD")) and os.path.isdir(os.path.join(source, "objects"))
    scratch = tempfile.mkdtemp(prefix="decrypt-remote-")
    try:
        tree = git_tree(source, scratch) if is_bare_git else source
        remote = Remote(Tree(tree), passphrase, git=is_bare_git)
        remote.out.append(f"| remote | `{('git ' if is_bare_git else '') + source}` |")
        remote.read()
        remote.print_chain()
        remote.print_logs()
        remote.print_entries()
        remote.print_inbox()
    except FormatOne:
        print("decrypt-vault: format 1 remote: upgrade with `diary sync upgrade` (docs/FORMAT.md §12.10)",
              file=sys.stderr)
        sys.exit(2)
    except Refused as why:
        print(f"decrypt-vault: refused: {why}", file=sys.stderr)
        sys.exit(2)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def print_attachments(attachments: list) -> None:
    """One line per attachment record (§7.6); the objects themselves are not read here."""
    for a in attachments:
        dedup = "off" if a["dedup"] == bytes(32) else f"`{a['dedup'].hex()}`"
        print(f"- attachment {a['name']!r}: {a['type']}, {a['length']} bytes, added {ms_to_iso(a['added'])}, "
              f"object {uuid.UUID(bytes=a['object'])}, generation {a['generation']}, dedup hash {dedup}")


CAPTURE_CONTEXT, CAPTURE_ENTRY_CONTEXT = b"diary.capture.v1", b"diary.capture.entry.v1"


def x25519(secret: bytes, public: bytes) -> bytes:
    shared = b.crypto_scalarmult(secret, public)
    assert shared != bytes(32), "a low-order X25519 public key"  # §13.1
    return shared


def captured_entry_id(inbox_secret: bytes, device_id: bytes, counter: int) -> uuid.UUID:
    """The id a taken-in item's entry gets (§13.3): UUIDv8 of a keyed BLAKE2b."""
    raw = bytearray(hashlib.blake2b(CAPTURE_ENTRY_CONTEXT + device_id + struct.pack(">Q", counter),
                                    digest_size=32, key=inbox_secret).digest()[:16])
    raw[6], raw[8] = raw[6] & 0x0F | 0x80, raw[8] & 0x3F | 0x80
    return uuid.UUID(bytes=bytes(raw))


def open_item(data: bytes, vault_id: bytes, devices: dict) -> dict:
    """A captured item (FORMAT.md §13.1), opened with its device record's inbox key, every check made."""
    assert len(data) <= 49 + 32 + 24 + padded_size((8 << 20) + 70_000) + 16, "larger than any item"
    assert data[:8] == b"DIARYCAP" and len(data) >= 49 and data[8] == 1, "not an item of version 1"
    assert data[9:25] == vault_id, "an item of another vault"
    device_id, counter = data[25:41], struct.unpack(">Q", data[41:49])[0]
    assert 1 <= counter <= MAX_COUNTER, "an item counter outside 1…2^62"
    assert device_id in devices, "an item of a device this vault does not know"
    d = devices[device_id]
    e_pub, nonce, inbox_secret = data[49:81], data[81:105], d["inbox_secret"]
    inbox_public = b.crypto_scalarmult_base(inbox_secret)
    k = h(CAPTURE_CONTEXT + x25519(inbox_secret, e_pub) + x25519(inbox_secret, d["device_public"])
          + e_pub + d["device_public"] + inbox_public)
    r = Reader(unpad_strict(b.crypto_aead_xchacha20poly1305_ietf_decrypt(data[105:], data[:81], nonce, k)))
    assert r.u8() == 1, "item plaintext version"
    date, captured = struct.unpack(">qq", r.take(16))
    flags, ntags = r.u8(), r.u8()
    assert flags & ~1 == 0, "item flags"
    tags = [r.str16() for _ in range(ntags)]
    text = r.take(r.u32()).decode()
    r.end()
    lo, hi = TIME_RANGE
    assert lo <= date <= hi and lo <= captured <= hi and len(text.encode()) <= 8 << 20, "item fields"
    taken = counter_taken(d["intervals"], counter)
    return dict(device=d["name"], counter=counter, date=date, captured=captured, starred=bool(flags & 1),
                tags=tags, text=text, taken_in=taken, revoked=d["revoked"] != 0,
                entry_id=captured_entry_id(inbox_secret, device_id, counter))


def print_inbox(vault: str, vault_id: bytes, devices: dict, held: set) -> None:
    """Opens the items waiting in a vault directory's inbox (§13) with the devices' records: only names
    diary takes for items (lowercase hex, §13.1), only regular files, each checked as diary checks it."""
    inbox = os.path.join(vault, "inbox")
    if not os.path.isdir(inbox):
        return
    for name in sorted(os.listdir(inbox)):
        match = re.fullmatch(r"([0-9a-f]{32})-([0-9]{20})\.dcap", name)
        if not match:
            continue  # not an item: diary leaves it alone too
        path = os.path.join(inbox, name)
        try:
            info = os.lstat(path)
            assert stat.S_ISREG(info.st_mode), "not a regular file"
            assert info.st_size <= ITEM_LIMIT, "larger than any item"
            with open(path, "rb") as f:
                data = f.read(ITEM_LIMIT + 1)
            assert data[25:49] == bytes.fromhex(match.group(1)) + struct.pack(">Q", int(match.group(2))), \
                "its name is another item's"
            item = open_item(data, vault_id, devices)
        except (Refused, AssertionError, ValueError, RuntimeError, struct.error, OSError,
                nacl.exceptions.CryptoError) as why:
            if str(why) == "an item of a device this vault does not know":  # §13.3 step 2
                print(f"### inbox item {name}: {why}: it waits where the vault syncs, else diary sets it aside\n")
                continue
            print(f"### inbox item {name}: diary will set it aside ({why})\n")
            continue
        if not item["revoked"] and item["taken_in"] and item["entry_id"] in held:
            # A take-in stopped before removing it (§13.3): no replay, when the entry is what the item makes.
            print(f"### inbox item {name}: taken in already, as entry {item['entry_id']}: diary removes it if that "
                  "entry is unchanged, else sets it aside as a replay\n")
        elif item["revoked"] or item["taken_in"]:
            why = "its device is revoked" if item["revoked"] else "a replay of one whose entry is gone"
            print(f"### inbox item {name}: diary will set it aside ({why})\n")
        else:
            print(f"### inbox item {name}: waits to be taken in, as entry {item['entry_id']}\n")
        print(f"- device {item['device']!r}, number {item['counter']}")
        print(f"- date {item['date']}, captured {item['captured']}, starred {item['starred']}, tags {item['tags']}")
        print("- text:\n\n```\n" + item["text"] + "\n```\n")


def ms_to_iso(ms: int) -> str:
    t = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=ms)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def title_of(text: str) -> str:
    """The first line that is not blank (§7), trimmed; "Untitled" when there is none."""
    for line in text.split("\n"):
        if line.strip():
            return line.strip()
    return "Untitled"


def derive_keys(header: bytes, hd: dict, passphrase: str, recovery_file: str, out: list,
                share_files: list = ()) -> dict:
    """{generation: (EK, IK)} from the passphrase slots, or with a recovery key (from its file or
    rebuilt from shares) from the recovery slots."""
    keys, vks = {}, {}
    if recovery_file or share_files:
        r = read_recovery_key_file(recovery_file) if recovery_file else rebuild_from_shares(share_files, hd["vault_id"])
        vks = open_with_recovery_key(hd, r)
        out.append(f"| recovery public key = crypto_box_seed_keypair(R) | `{hd['recovery']['pk'].hex()}` |")
    else:
        kek = pwhash.argon2id.kdf(32, unicodedata.normalize("NFC", passphrase).encode(), hd["salt"],
                                  opslimit=hd["ops"], memlimit=hd["mem"])
        out.append(f"| KEK = Argon2id(passphrase, salt) | `{kek.hex()}` |")
        for s, gen in zip(hd["slots"], hd["gens"]):
            vks[gen] = b.crypto_aead_xchacha20poly1305_ietf_decrypt(s[28:], hd["prefix"] + s[:4], s[4:28], kek)
        if hd["recovery"] is not None:
            rec = hd["recovery"]
            assert recovery_tag(vks[max(vks)], hd["vault_id"], rec["epoch"], rec["pk"]) == rec["tag"], \
                "the recovery tag does not verify"
    for gen, vk in sorted(vks.items()):
        keys[gen] = (kdf(vk, 1, b"diaryent"), kdf(vk, 1, b"diaryidx"))
        out.append(f"| VK_{gen} | `{vk.hex()}` |")
        out.append(f"| EK_{gen} = KDF(VK, 1, \"diaryent\") | `{keys[gen][0].hex()}` |")
        out.append(f"| IK_{gen} = KDF(VK, 1, \"diaryidx\") | `{keys[gen][1].hex()}` |")
        out.append(f"| DK_{gen} = KDF(VK, 1, \"diarydup\") | `{kdf(vk, 1, b'diarydup').hex()}` |")
    return keys


def read_source(source: str):
    """A backup file or a vault directory, read as read_backup or read_files_vault; what is not
    there or is neither is one line, not a traceback."""
    try:
        if os.path.isfile(source):
            with open(source, "rb") as f:
                if f.read(8) != b"DIARYBAK":
                    raise RecoveryInputError(f"{source} is not a diary backup file (nor a vault directory)")
            return read_backup(source)
        if not os.path.isdir(source):
            raise RecoveryInputError(f"{source}: no such vault directory or backup file")
        if not os.path.isfile(os.path.join(source, "vault.header")):
            raise RecoveryInputError(f"{source} has no vault.header: not a files vault (read a sqlite vault "
                                     "from a backup: `diary backup`)")
        return read_files_vault(source)
    except OSError as error:
        raise RecoveryInputError(f"cannot read {error.filename or source}: {error.strerror}") from None


def main() -> None:
    args = sys.argv[1:]
    recovery_file = None
    if args[:1] == ["--recovery-key-file"] and len(args) >= 2:
        recovery_file, args = args[1], args[2:]
    share_files = []
    while args[:1] == ["--share-file"] and len(args) >= 2 and not recovery_file:
        share_files.append(args[1])
        args = args[2:]
    if len(args) not in (1, 2) or ((recovery_file or share_files) and len(args) != 1):
        sys.exit("usage: Scripts/decrypt-vault.py [--recovery-key-file FILE | --share-file FILE...] "
                 "VAULT-DIR | BACKUP-FILE | SYNC-REMOTE [PASSPHRASE]")
    source = args[0]
    passphrase = None if recovery_file or share_files else args[1] if len(args) > 1 else getpass.getpass("passphrase: ")
    is_bare_git = os.path.isfile(os.path.join(source, "HEAD")) and os.path.isdir(os.path.join(source, "objects"))
    if os.path.isdir(source) and (os.path.exists(os.path.join(source, "diary-sync")) or is_bare_git):
        if recovery_file or share_files:
            sys.exit("decrypt-vault: --recovery-key-file and --share-file open a vault or a backup, not a sync remote")
        read_remote(source, passphrase)
        return
    if recovery_file:
        read_recovery_key_file(recovery_file)  # its errors before the vault's
    header, index, pages, entries, objects = read_source(source)
    hd = parse_header(header)
    vault_id, salt, ops, mem = hd["vault_id"], hd["salt"], hd["ops"], hd["mem"]
    out = []
    out.append(f"| header | `{header.hex()}` |")
    out.append(f"| vault id | `{uuid.UUID(bytes=vault_id)}` |")
    out.append(f"| KDF | opslimit {ops}, memlimit {mem} |")
    out.append(f"| salt | `{salt.hex()}` |")
    if hd["recovery"] is not None:
        rec = hd["recovery"]
        out.append(f"| recovery epoch, public key | {rec['epoch']}, `{rec['pk'].hex()}` |")
    keys = derive_keys(header, hd, passphrase, recovery_file, out, share_files)
    generation, rows, where, listed, root_recovery = read_index(index, pages, vault_id, keys)
    # §3: the header's recovery epoch and key are the ones the root records (a version-1 header: none).
    header_recovery = (hd["recovery"]["epoch"], hd["recovery"]["pk"]) if hd["recovery"] else (0, ZERO32)
    assert root_recovery == header_recovery, "the header's recovery key does not match the index"
    out.append(f"| index generation, rows | {generation}, {len(rows)} |")
    if objects is None:  # a files vault: its scan copy is checked, never read from (§2.2, check_pack)
        try:
            pack_state, pack_findings = check_pack(source, entries)
        except OSError as error:
            pack_state, pack_findings = "unreadable", [f"cannot be read: {error.strerror}"]
        for finding in pack_findings:
            print(f"decrypt-vault: warning: {PACK_NAME}: {finding}", file=sys.stderr)
        if pack_state is not None:
            out.append(f"| {PACK_NAME} (§2.2) | {pack_state} |")
    print("| value | hex / text |\n|---|---|\n" + "\n".join(out) + "\n")
    devices = {}
    for name, sealed in entries.items():
        e = parse_entry(open_sealed(sealed, 1, uuid.UUID(name).bytes, vault_id, keys))
        ad = b"diary.v1" + vault_id + sealed[:6] + uuid.UUID(name).bytes
        if e["device"]:  # FORMAT.md §7.7
            assert e["id"] == uuid.UUID(name).bytes, "a device record under another id"
            assert rows[name] == sealed[-16:], "the device record is not the copy its index row names"
            devices[e["id"]] = e
            print(f"### capture device {name}\n")
            print(f"- name {e['name']!r}, enrolled {e['enrolled']}, revoked {e['revoked'] or 'no'}")
            # The inbox secret key opens every item the device sends: shown by its public half only.
            inbox_public = b.crypto_scalarmult_base(e["inbox_secret"])
            print(f"- device public key `{e['device_public'].hex()}`, inbox public key `{inbox_public.hex()}`")
            print(f"- taken in: {counters_text(e['intervals'])}\n")
            continue
        if e["template"]:  # FORMAT.md §7.5
            print(f"### template {name}\n")
            assert rows[name] == sealed[-16:], "the template is not the copy its index row names"
            print(f"- name {e['name']!r}, created {e['created']}, modified {e['modified']}")
            print(f"- prompts used last (most recent first): {e['prompts']}")
            print("- text:\n\n```\n" + e["text"] + "\n```\n")
            continue
        print(f"### entry {name}\n")
        print(f"- sealed ({len(sealed)} bytes): nonce `{sealed[6:30].hex()}`")
        print(f"- associated data: `{ad.hex()}`")
        assert rows[name] == sealed[-16:], "the entry is not the copy its index row names"
        print(f"- index page {where[name]}, row tag `{rows[name].hex()}` (the sealed entry's last 16 bytes)")
        day = ""
        if e["date"] % 86400000 == 0:  # a calendar day, stored at midnight UTC (FORMAT.md §7)
            day = " (the calendar day " + str(datetime.date(1970, 1, 1) + datetime.timedelta(days=e["date"] // 86400000)) + ")"
        print(f"- date {e['date']}{day}, created {e['created']}, modified {e['modified']}, starred {e['starred']}, tags {e['tags']}")
        print_attachments(e["attachments"])
        for a in e["attachments"]:  # each object opened and checked whole (§7.6), from the vault or the backup
            hasher = hashlib.blake2b(digest_size=32)
            try:
                open_attachment(source if objects is None else objects, vault_id, a["object"], a["key"],
                                a["length"], a["stored_hash"], hasher.update)
            except ObjectMissing:
                print(f"  - {a['name']!r}: its object is not stored here")
                continue
            print(f"  - {a['name']!r} opens: H(file) `{hasher.hexdigest()}`")
        # The row was written from this very copy (same tag), so it lists the same attachments (§7.6).
        row_view = ["object", "length", "dedup", "generation", "name"]
        assert listed.get(name, []) == [{k: a[k] for k in row_view} for a in e["attachments"]], \
            "the index row's attachments differ from the entry's"
        print("- text:\n\n```\n" + e["text"] + "\n```\n")
    if os.path.isdir(source):
        print_inbox(source, vault_id, devices, {uuid.UUID(n) for n in entries})


if __name__ == "__main__":
    if sys.argv[1:2] in (["--help"], ["-h"]):
        print(__doc__.strip())
        sys.exit(0)
    try:
        main()
    except RecoveryInputError as error:
        sys.exit(f"decrypt-vault: {error}")
