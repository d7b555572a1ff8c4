#!/usr/bin/env python3
"""An independent reader of the diary vault format, written from docs/FORMAT.md alone.

It uses PyNaCl (libsodium) and nothing from diary's Swift code, and proves the spec is
complete: it decrypts every entry of a `files` vault, or of a backup file, and prints the
intermediate values of docs/FORMAT.md §11 as Markdown.

    pip install pynacl
    Scripts/decrypt-vault.py docs/format-example/vault 'correct horse battery staple'
    Scripts/decrypt-vault.py my.diarybak  # passphrase asked on the terminal

Never run it on a real diary where the printed keys could be seen: it prints key material.
"""
import datetime
import getpass
import hashlib
import os
import struct
import sys
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


def main() -> None:
    source = sys.argv[1]
    passphrase = sys.argv[2] if len(sys.argv) > 2 else getpass.getpass("passphrase: ")
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
