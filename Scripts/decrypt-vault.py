#!/usr/bin/env python3
"""An independent reader of the diary vault format, written from docs/FORMAT.md alone.

It uses PyNaCl (libsodium) and nothing from diary's Swift code, and proves the spec is
complete: it decrypts every entry of a `files` vault, or of a backup file, and prints the
intermediate values of docs/FORMAT.md §11 as Markdown. Given a sync remote (§12: a synced
folder, a git working tree, or a bare git repository, which it clones into a temporary
directory with `git`), it opens a published header with the passphrase, walks every
machine's log checking the hash chain, follows key changes and retired keys, builds each
entry's heads and prints every entry (shown, deleted or in conflict).

    pip install pynacl            # or: apt-get install python3-nacl
    Scripts/decrypt-vault.py docs/format-example/vault 'correct horse battery staple'
    Scripts/decrypt-vault.py my.diarybak  # passphrase asked on the terminal

Usage: Scripts/decrypt-vault.py VAULT-DIR | BACKUP-FILE | SYNC-REMOTE [PASSPHRASE]

Exit status: 0 when everything read was authentic (pending records are listed, not errors),
2 when a sync remote breaks a rule FORMAT.md §12.7 says a reader MUST refuse.

Never run it on a real diary where the printed keys could be seen: it prints key material.
"""
import datetime
import getpass
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unicodedata
import uuid

from nacl import bindings as b
from nacl import pwhash


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
    key = keys[gen][0 if kind == 1 else 1]  # the index root (2) and its pages (3) use IK
    padded = b.crypto_aead_xchacha20poly1305_ietf_decrypt(sealed[30:], ad, sealed[6:30], key)
    return unpad(padded)


def parse_entry(p: bytes) -> dict:
    assert p[0] == 1
    date, created, modified = struct.unpack(">qqq", p[1:25])
    flags, ntags = p[25], p[26]
    off, tags = 27, []
    for _ in range(ntags):
        n = struct.unpack(">H", p[off:off + 2])[0]
        tags.append(p[off + 2:off + 2 + n].decode())
        off += 2 + n
    n = struct.unpack(">H", p[off:off + 2])[0]
    source = p[off + 2:off + 2 + n].decode()
    off += 2 + n
    n = struct.unpack(">I", p[off:off + 4])[0]
    text = p[off + 4:off + 4 + n].decode()
    assert off + 4 + n == len(p), "trailing bytes"
    return dict(date=date, created=created, modified=modified, starred=bool(flags & 1), tags=tags, source=source, text=text)


def parse_page(p: bytes, number: int) -> dict:
    """An index page (FORMAT.md §7): {entry id: seal tag}."""
    assert p[0] == 2 and p[1] == number
    count = struct.unpack(">I", p[2:6])[0]
    off, rows = 6, {}
    for _ in range(count):
        rid = p[off:off + 16]
        assert rid[0] >> 2 == number, "row on the wrong page"
        tag = p[off + 45:off + 61]
        off += 61
        off += 2 + struct.unpack(">H", p[off:off + 2])[0]  # title
        ntags = p[off]
        off += 1
        for _ in range(ntags):
            off += 2 + struct.unpack(">H", p[off:off + 2])[0]
        off += 2 + struct.unpack(">H", p[off:off + 2])[0]  # source
        rows[str(uuid.UUID(bytes=rid))] = tag
    assert off == len(p), "trailing bytes"
    return rows


def read_index(root: bytes, pages: dict, vault_id: bytes, keys: dict):
    """(generation, {entry id: seal tag}) from the root and its 64 pages."""
    r = open_sealed(root, 2, bytes(16), vault_id, keys)
    assert r[0] == 2 and struct.unpack(">H", r[9:11])[0] == 64 and len(r) == 11 + 64 * 36
    generation, rows = struct.unpack(">Q", r[1:9])[0], {}
    for n in range(64):
        rec = r[11 + 36 * n:47 + 36 * n]  # rows u32 | newest date i64 | newest created i64 | tag 16
        count, tag = struct.unpack(">I", rec[:4])[0], rec[20:36]
        sealed = pages[n]
        assert sealed[-16:] == tag, f"page {n} is not the copy the root names"
        page = parse_page(open_sealed(sealed, 3, bytes(15) + bytes([n]), vault_id, keys), n)
        assert len(page) == count
        rows.update(page)
    return generation, rows


def read_backup(path: str):
    data = open(path, "rb").read()
    assert data[:8] == b"DIARYBAK" and struct.unpack(">H", data[8:10])[0] == 1
    off, header, index, pages, entries, count = 10, None, None, {}, {}, 0
    while True:
        start = off
        t = data[off]
        n = struct.unpack(">I", data[off + 1:off + 5])[0]
        payload = data[off + 5:off + 5 + n]
        off += 5 + n
        if t == 255:
            assert struct.unpack(">Q", payload[:8])[0] == count and payload[8:] == h(data[:start]) and off == len(data)
            return header, index, pages, entries
        count += 1
        if t == 1:
            header = payload
        elif t == 2:
            index = payload
        elif t == 3:
            entries[str(uuid.UUID(bytes=payload[:16]))] = payload[16:]
        elif t == 4:
            pages[payload[0]] = payload[1:]


def read_files_vault(path: str):
    header = open(os.path.join(path, "vault.header"), "rb").read()
    index = open(os.path.join(path, "vault.index"), "rb").read()
    pages = {int(name, 16): open(os.path.join(path, "index", name), "rb").read()
             for name in os.listdir(os.path.join(path, "index"))}
    entries = {}
    for name in sorted(os.listdir(os.path.join(path, "entries"))):
        entries[name] = open(os.path.join(path, "entries", name), "rb").read()
    return header, index, pages, entries


# ---------------------------------------------------------------------------------------------
# Sync remotes (FORMAT.md §12)

class Refused(Exception):
    """A rule §12.7 says a reader MUST refuse on."""


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
RECORD_MAGIC, PREFIX_LEN, NONCE_LEN, TAG_LEN = b"DSYNCREC", 65, 24, 16
MAX_RECORD, MAX_HEADER, MAX_MARKER = 64 << 20, 64 << 10, 4096
MAX_PUT = (8 << 20) + 70_000


def parse_header(header: bytes) -> dict:
    """The checks of §3 that need no key; raises ValueError on any."""
    if header[:8] != b"DIARYVLT":
        raise ValueError("not a vault header")
    if len(header) < 61 + 32 or header[-32:] != h(header[:-32]):
        raise ValueError("header checksum")
    version, store, alg = struct.unpack(">H", header[8:10])[0], header[10], header[11]
    ops, mem = struct.unpack(">QQ", header[28:44])
    n = header[60]
    if version != 1 or store not in STORE_KINDS or alg != 1 or n not in (1, 2) or len(header) != 61 + 76 * n + 32:
        raise ValueError("header fields")
    if not (1 <= ops <= 4 and 8192 <= mem <= 1 << 30):
        raise ValueError("KDF parameters out of bounds")
    slots = [header[61 + 76 * i:61 + 76 * (i + 1)] for i in range(n)]
    gens = [struct.unpack(">I", s[:4])[0] for s in slots]
    if n == 2 and gens[1] != gens[0] + 1:
        raise ValueError("slot generations")
    return dict(vault_id=header[12:28], store=STORE_KINDS[store], ops=ops, mem=mem, salt=header[44:60], slots=slots)


def sync_key(vk: bytes, gen: int) -> dict:
    """§12.3: the record key, the state key and the key id of one vault key."""
    rk = kdf(vk, 1, b"diarysyn")
    return dict(gen=gen, vk=vk, rk=rk, sk=kdf(vk, 2, b"diarysyn"), kid=hashlib.blake2b(rk, digest_size=16).digest())


def conflict_copy_original(name: str):
    """What a file-sync tool's conflict copy is a copy of (§12.7), or None."""
    i = name.find(".sync-conflict-")
    if i >= 0:
        rest = name[i + len(".sync-conflict-"):]
        dot = rest.find(".")
        return name[:i] + (rest[dot:] if dot >= 0 else "")
    for marker in (" (conflicted copy", " (Conflicted copy", " (conflict", " ("):
        i = name.find(marker)
        if i < 0:
            continue
        close = name.find(")", i + len(marker))
        if close < 0:
            continue
        inside = name[i + len(marker):close]
        if marker == " (" and not inside.isdigit() and inside != "":
            continue
        return name[:i] + name[close + 1:]
    return None


def seq_of(name: str):
    if len(name) == 12 and name.isascii() and name.isdigit() and int(name) > 0:
        return int(name)
    return None


def machine_of(name: str):
    if len(name) == 32 and all(c in "0123456789abcdef" for c in name):
        return bytes.fromhex(name)
    return None


def read_regular(path: str, limit: int):
    """The bytes of a regular file (not a symbolic link) of at most `limit` bytes, else None."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not os.path.isfile(path) or os.path.islink(path) or st.st_size > limit:
        return None
    with open(path, "rb") as f:
        return f.read(limit + 1)[:limit + 1]


def parse_record(plain: bytes, entry_decoder) -> dict:
    """The plaintext of a record (§12.2)."""
    r = Reader(plain)
    if r.u8() != 1:
        raise ValueError("record plaintext version")
    rec = dict(previous=r.take(32), lamport=r.u64(), name=r.str16(), revisions=[], keys=None)
    for _ in range(r.u32()):
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
                content = entry_decoder(raw)
            rec["revisions"].append(dict(entry=entry, id=rev, parents=parents, content=content, raw=raw))
        elif op == 3:
            if rec["keys"] is not None:
                raise ValueError("second key change")
            headers = {}
            for _ in range(r.u8()):
                store = r.str16()
                if store not in ("sqlite", "files"):
                    raise ValueError("store " + store)
                headers[store] = r.take(r.u16())
            retired = [(r.u32(), r.take(32)) for _ in range(r.u8())]
            rec["keys"] = dict(headers=headers, retired=retired)
        else:
            raise ValueError(f"operation {op}")
    r.end()
    return rec


def strict_entry(raw: bytes) -> dict:
    """§7's entry plaintext, with every check a reader MUST make."""
    e = parse_entry(raw)
    lo, hi = -62135596800000, 253402300799999
    if raw[25] & ~1 or not all(lo <= e[k] <= hi for k in ("date", "created", "modified")):
        raise ValueError("entry fields")
    if len(e["text"].encode()) > 8 << 20:
        raise ValueError("text over 8 MiB")
    return e


def open_record(data: bytes, vault_id: bytes, machine: bytes, seq: int, ring: dict):
    """Opens the file found at log/<machine>/<seq>: the record, or "unknown key". Raises Refused."""
    if len(data) < PREFIX_LEN or data[:8] != RECORD_MAGIC:
        raise Refused("not a record")
    if data[8] != 1:
        raise Refused(f"record version {data[8]}")
    if data[9:25] != vault_id:
        raise Refused(f"belongs to another vault ({uuid.UUID(bytes=data[9:25])})")
    if data[25:41] != machine or struct.unpack(">Q", data[41:49])[0] != seq:
        raise Refused("carries another name (wrong place)")
    key = ring.get(data[49:65])
    if key is None:
        return "unknown key"
    body = len(data) - PREFIX_LEN - NONCE_LEN - TAG_LEN
    if len(data) > MAX_RECORD or not is_bucket(body):
        raise Refused("length is not a bucket size")
    try:
        padded = b.crypto_aead_xchacha20poly1305_ietf_decrypt(
            data[PREFIX_LEN + NONCE_LEN:], data[:PREFIX_LEN], data[PREFIX_LEN:PREFIX_LEN + NONCE_LEN], key["rk"])
    except Exception:
        raise Refused("does not authenticate")
    try:
        rec = parse_record(unpad_strict(padded), strict_entry)
    except (ValueError, AssertionError, UnicodeDecodeError, struct.error) as error:
        raise Refused(f"plaintext: {error}")
    rec["key"] = key
    return rec


def git_tree(source: str, scratch: str) -> str:
    """A directory holding the tree at the tip of branch main of the bare repository `source`."""
    tree = os.path.join(scratch, "tree")
    subprocess.run(["git", "clone", "--quiet", "--branch", "main", "--", source, tree], check=True,
                   env=dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_CONFIG_NOSYSTEM="1"))
    return tree


def ms_to_iso(ms: int) -> str:
    t = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=ms)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def title_of(text: str) -> str:
    first = text.split("\n", 1)[0].strip()
    return first or "Untitled"


def read_remote(tree: str, passphrase: str, shown_as: str) -> None:
    out = [f"| remote | `{shown_as}` |"]
    # The marker (§12.1).
    marker = read_regular(os.path.join(tree, "diary-sync"), MAX_MARKER)
    if marker is None:
        raise Refused("no diary-sync marker: not a sync remote")
    lines = [line for line in marker.decode("utf-8", "replace").split("\n") if line]
    if len(lines) != 2 or lines[0] != "diary-sync 1":
        raise Refused("the diary-sync marker is not version 1")
    vault_id = uuid.UUID(lines[1]).bytes
    out.append(f"| vault id (marker) | `{uuid.UUID(bytes=vault_id)}` |")

    # The key ring, step 1: every published header the passphrase opens (§12.4).
    ring, keks = {}, {}
    nfc = unicodedata.normalize("NFC", passphrase).encode()
    keys_dir = os.path.join(tree, "keys")
    names = sorted(os.listdir(keys_dir)) if os.path.isdir(keys_dir) else []
    for name in names:
        stem, dot, store = name.partition(".")
        m, dash, s = stem.partition("-")
        if not dot or not dash or store not in ("sqlite", "files") or machine_of(m) is None or seq_of(s) is None:
            continue
        data = read_regular(os.path.join(keys_dir, name), MAX_HEADER)
        try:
            hd = parse_header(data or b"")
        except ValueError:
            continue
        if hd["vault_id"] != vault_id or hd["store"] != store:
            continue
        cost = (hd["salt"], hd["ops"], hd["mem"])
        if cost not in keks:
            keks[cost] = pwhash.argon2id.kdf(32, nfc, hd["salt"], opslimit=hd["ops"], memlimit=hd["mem"])
        opened = []
        for slot in hd["slots"]:
            try:
                vk = b.crypto_aead_xchacha20poly1305_ietf_decrypt(slot[28:], data[:60] + slot[:4], slot[4:28], keks[cost])
            except Exception:
                continue
            key = sync_key(vk, struct.unpack(">I", slot[:4])[0])
            opened.append(key["gen"])
            if key["kid"] not in ring:
                ring[key["kid"]] = key
        out.append(f"| header `keys/{name}` | " + (f"opens: generation {', '.join(map(str, opened))}" if opened
                                                   else "does not open with this passphrase") + " |")
    if not ring:
        raise Refused("no published header opens with this passphrase")

    # Step 2 and 3: every machine's log, in order, repeated while the ring grows.
    log_dir = os.path.join(tree, "log")
    logs, notes, refused = {}, [], []
    for name in sorted(os.listdir(log_dir)) if os.path.isdir(log_dir) else []:
        if name.startswith(".tmp-"):
            continue
        machine = machine_of(name)
        if machine is None:
            notes.append(f"unexpected entry in the remote, left alone: log/{name}")
            continue
        files, copies = {}, {}
        for f in os.listdir(os.path.join(log_dir, name)):
            if f.startswith(".tmp-"):
                continue
            seq = seq_of(f)
            if seq is not None:
                files[seq] = f
                continue
            original = conflict_copy_original(f)
            if original is None or seq_of(original) is None:
                notes.append(f"unexpected file in the remote, left alone: log/{name}/{f}")
            else:
                copies.setdefault(seq_of(original), []).append(f)
        logs[machine] = dict(dir=os.path.join(log_dir, name), files=files, copies=copies, records=[],
                             previous=bytes(32), next=1, pending=None, name=f"machine {name[:8]}")

    def candidates(log, seq):
        """The bytes that stand as record `seq`: the file, or (§12.7) an authentic conflict copy of a missing one."""
        if seq in log["files"]:
            data = read_regular(os.path.join(log["dir"], log["files"][seq]), MAX_RECORD)
            if data is None:
                raise Refused(f"log/{log['dir'][-32:]}/{log['files'][seq]} is not a regular file or is too large")
            return [(log["files"][seq], data)]
        found = []
        for copy in sorted(log["copies"].get(seq, [])):
            data = read_regular(os.path.join(log["dir"], copy), MAX_RECORD)
            if data is not None:
                found.append((copy, data))
        return found

    def check_copies(log, machine, seq, data):
        """Conflict copies of a record that is present: identical ones are ignored, an authentic different one refused."""
        for copy in sorted(log["copies"].get(seq, [])):
            other = read_regular(os.path.join(log["dir"], copy), MAX_RECORD)
            if other == data:
                notes.append(f"conflict copy identical to its record: {copy}")
                continue
            try:
                authentic = other is not None and isinstance(open_record(other, vault_id, machine, seq, ring), dict)
            except Refused:
                authentic = False
            if authentic:
                raise Refused(f"machine {machine.hex()[:8]} wrote two different records {seq} ({copy}): "
                              "a copied machine or a forged log")
            notes.append(f"conflict copy that is not an authentic record, left alone: {copy}")

    # Step 2: open every record that opens, in any order (each authenticates on its own; the
    # chain is checked below), for the retired keys of its key change; again while the ring grows.
    grew = True
    while grew:
        grew = False
        for machine in sorted(logs):
            log = logs[machine]
            for seq in sorted(set(log["files"]) | set(log["copies"])):
                for name in ([log["files"][seq]] if seq in log["files"] else []) + sorted(log["copies"].get(seq, [])):
                    data = read_regular(os.path.join(log["dir"], name), MAX_RECORD)
                    try:
                        rec = open_record(data or b"", vault_id, machine, seq, ring)
                    except Refused:
                        continue
                    if isinstance(rec, dict) and rec["keys"]:
                        for gen, vk in rec["keys"]["retired"]:
                            key = sync_key(vk, gen)
                            if key["kid"] not in ring:
                                ring[key["kid"]] = key
                                grew = True

    # Step 3: each log in order, checking the chain (§12.7).
    grew = True
    while grew:
        grew = False
        for machine in sorted(logs):
            log = logs[machine]
            while True:
                seq = log["next"]
                found = candidates(log, seq)
                if not found:
                    later = [s for s in list(log["files"]) + list(log["copies"]) if s > seq]
                    log["pending"] = f"record {seq} has not arrived yet (record {min(later)} has)" if later else None
                    break
                opened = None
                for shown, data in found:
                    path = f"log/{machine.hex()}/{shown}"
                    try:
                        rec = open_record(data, vault_id, machine, seq, ring)
                    except Refused as why:
                        if shown == log["files"].get(seq):
                            raise Refused(f"{path}: {why}: edited, swapped or damaged")
                        notes.append(f"conflict copy that is not an authentic record, left alone: {path}")
                        continue
                    if rec == "unknown key":
                        log["pending"] = f"{path} is sealed under key id {data[49:65].hex()}, which no opened key has"
                        continue
                    opened = (shown, data, rec)
                    break
                if opened is None:
                    break
                shown, data, rec = opened
                if shown == log["files"].get(seq):
                    check_copies(log, machine, seq, data)
                else:
                    notes.append(f"record {seq} read from the authentic conflict copy {shown} (its record is missing)")
                if rec["previous"] != log["previous"]:
                    raise Refused(f"log/{machine.hex()}/{shown} does not follow record {seq - 1} of its machine "
                                  "(a replaced, removed or reordered record)")
                rec["seq"], rec["hash"], rec["size"] = seq, h(data), len(data)
                log["records"].append(rec)
                log["previous"], log["next"], log["name"], log["pending"] = rec["hash"], seq + 1, rec["name"], None
                if rec["keys"]:
                    for gen, vk in rec["keys"]["retired"]:
                        key = sync_key(vk, gen)
                        if key["kid"] not in ring:
                            ring[key["kid"]] = key
                            grew = True

    for key in sorted(ring.values(), key=lambda k: k["gen"]):
        g = key["gen"]
        out.append(f"| VK_{g} | `{key['vk'].hex()}` |")
        out.append(f"| RK_{g} = KDF(VK_{g}, 1, \"diarysyn\") | `{key['rk'].hex()}` |")
        out.append(f"| SK_{g} = KDF(VK_{g}, 2, \"diarysyn\") | `{key['sk'].hex()}` |")
        out.append(f"| key id = BLAKE2b-128(RK_{g}) | `{key['kid'].hex()}` |")
    out.append(f"| machines | {len(logs)} |")
    print("| value | hex / text |\n|---|---|\n" + "\n".join(out) + "\n")

    # The revision graph (§12.5).
    revisions, parents = {}, {}
    for machine in sorted(logs):
        log = logs[machine]
        print(f"### machine `{machine.hex()}` ({log['name']!r})\n")
        print("| seq | lamport | key id | operations | size | H(file) |\n|---|---|---|---|---|---|")
        for rec in log["records"]:
            puts = sum(1 for r in rec["revisions"] if r["content"] is not None)
            ops = [f"{puts} put", f"{len(rec['revisions']) - puts} delete"]
            if rec["keys"]:
                ops.append(f"keys ({', '.join(sorted(rec['keys']['headers']))} headers, "
                           f"{len(rec['keys']['retired'])} retired)")
            print(f"| {rec['seq']} | {rec['lamport']} | `{rec['key']['kid'].hex()}` | {', '.join(ops)} | "
                  f"{rec['size']} | `{rec['hash'].hex()}` |")
            for r in rec["revisions"]:
                revisions.setdefault(r["entry"], {}).setdefault(r["id"], dict(r, lamport=rec["lamport"], machine=machine))
                parents.setdefault(r["entry"], set()).update(r["parents"])
        print()
        if log["pending"]:
            print(f"- pending: {log['pending']}\n")
    for note in notes:
        print(f"- note: {note}")
    if notes:
        print()

    print("### entries\n")
    names = {m: logs[m]["name"] for m in logs}
    for entry in sorted(revisions, key=lambda e: uuid.UUID(bytes=e).hex):
        heads = [r for rid, r in revisions[entry].items() if rid not in parents.get(entry, set())]
        if not heads:
            continue
        digest = lambda r: hashlib.blake2b(r["raw"], digest_size=16).digest() if r["raw"] is not None else bytes(16)
        conflict = len({digest(r) for r in heads}) > 1
        ordered = sorted(heads, key=lambda r: (r["content"] is not None, r["lamport"], r["machine"], r["id"]),
                         reverse=True)
        shown = ordered[0]
        state = "deleted" if shown["content"] is None else "shown"
        if conflict:
            state += f", in conflict ({len(heads)} heads)"
        print(f"#### entry {uuid.UUID(bytes=entry)}: {state}\n")
        for head in ordered if conflict else [shown]:
            who = f"revision `{uuid.UUID(bytes=head['id'])}` by {names[head['machine']]!r}, lamport {head['lamport']}"
            mark = "shown" if head is shown else "other head"
            e = head["content"]
            if e is None:
                print(f"- {mark}: deleted ({who})\n")
                continue
            tags = " ".join("#" + t for t in e["tags"]) or "none"
            print(f"- {mark}: {who}")
            print(f"- title: {title_of(e['text'])}")
            print(f"- date {ms_to_iso(e['date'])}, created {ms_to_iso(e['created'])}, modified {ms_to_iso(e['modified'])}")
            print(f"- starred: {'yes' if e['starred'] else 'no'}; tags: {tags}" + (f"; source: {e['source']}" if e["source"] else ""))
            print("- text:\n\n```\n" + e["text"] + "\n```\n")


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: Scripts/decrypt-vault.py VAULT-DIR | BACKUP-FILE | SYNC-REMOTE [PASSPHRASE]")
    source = sys.argv[1]
    passphrase = sys.argv[2] if len(sys.argv) > 2 else getpass.getpass("passphrase: ")
    is_bare_git = os.path.isfile(os.path.join(source, "HEAD")) and os.path.isdir(os.path.join(source, "objects"))
    if os.path.isdir(source) and (os.path.exists(os.path.join(source, "diary-sync")) or is_bare_git):
        scratch = tempfile.mkdtemp(prefix="decrypt-remote-")
        try:
            tree = git_tree(source, scratch) if is_bare_git else source
            read_remote(tree, passphrase, ("git " if is_bare_git else "") + source)
        except Refused as why:
            print(f"decrypt-vault: refused: {why}", file=sys.stderr)
            sys.exit(2)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return
    header, index, pages, entries = read_backup(source) if os.path.isfile(source) else read_files_vault(source)
    assert header[:8] == b"DIARYVLT" and header[-32:] == h(header[:-32])
    vault_id, salt = header[12:28], header[44:60]
    ops, mem = struct.unpack(">QQ", header[28:44])
    kek = pwhash.argon2id.kdf(32, unicodedata.normalize("NFC", passphrase).encode(), salt, opslimit=ops, memlimit=mem)
    keys, out = {}, []
    out.append(f"| header | `{header.hex()}` |")
    out.append(f"| vault id | `{uuid.UUID(bytes=vault_id)}` |")
    out.append(f"| KDF | opslimit {ops}, memlimit {mem} |")
    out.append(f"| salt | `{salt.hex()}` |")
    out.append(f"| KEK = Argon2id(passphrase, salt) | `{kek.hex()}` |")
    for i in range(header[60]):
        s = header[61 + 76 * i: 61 + 76 * (i + 1)]
        gen = struct.unpack(">I", s[:4])[0]
        vk = b.crypto_aead_xchacha20poly1305_ietf_decrypt(s[28:], header[:60] + s[:4], s[4:28], kek)
        keys[gen] = (kdf(vk, 1, b"diaryent"), kdf(vk, 1, b"diaryidx"))
        out.append(f"| VK_{gen} | `{vk.hex()}` |")
        out.append(f"| EK_{gen} = KDF(VK, 1, \"diaryent\") | `{keys[gen][0].hex()}` |")
        out.append(f"| IK_{gen} = KDF(VK, 1, \"diaryidx\") | `{keys[gen][1].hex()}` |")
    generation, rows = read_index(index, pages, vault_id, keys)
    out.append(f"| index generation, rows | {generation}, {len(rows)} |")
    print("| value | hex / text |\n|---|---|\n" + "\n".join(out) + "\n")
    for name, sealed in entries.items():
        e = parse_entry(open_sealed(sealed, 1, uuid.UUID(name).bytes, vault_id, keys))
        ad = b"diary.v1" + vault_id + sealed[:6] + uuid.UUID(name).bytes
        print(f"### entry {name}\n")
        print(f"- sealed ({len(sealed)} bytes): nonce `{sealed[6:30].hex()}`")
        print(f"- associated data: `{ad.hex()}`")
        assert rows[name] == sealed[-16:], "the entry is not the copy its index row names"
        print(f"- index page {uuid.UUID(name).bytes[0] >> 2}, row tag `{rows[name].hex()}` (the sealed entry's last 16 bytes)")
        day = ""
        if e["date"] % 86400000 == 0:  # a calendar day, stored at midnight UTC (FORMAT.md §7)
            day = " (the calendar day " + str(datetime.date(1970, 1, 1) + datetime.timedelta(days=e["date"] // 86400000)) + ")"
        print(f"- date {e['date']}{day}, created {e['created']}, modified {e['modified']}, starred {e['starred']}, tags {e['tags']}")
        print("- text:\n\n```\n" + e["text"] + "\n```\n")


if __name__ == "__main__":
    main()
