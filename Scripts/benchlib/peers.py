"""jrnl and pass, installed privately and fed the same corpus."""
import base64
import os
import re
import shutil
import subprocess
import sys

from . import corpus
from .measure import READ_WARMUP, repeat, run, CommandFailed

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "diary-bench")
JRNL_VERSION = "4.6"
PASSWORD = "correct horse battery staple"


def _jrnl_text(e):
    from datetime import datetime, timezone
    date = datetime.fromtimestamp(e["date"] / 1000, timezone.utc).strftime("%Y-%m-%d %H:%M")
    title, _, body = e["text"].partition("\n")
    star = " *" if e["starred"] else ""
    tags = " ".join("@" + t for t in e["tags"])
    return f"[{date}] {title}{star}\n{body}" + (f"\n{tags}" if tags else "") + "\n"


class Jrnl:
    """jrnl 4.6 in a venv; the password comes from a plaintext keyring file (keyrings.alt), which
    is how jrnl runs without a prompt. Every command still derives its key (PBKDF2)."""

    def __init__(self, work, log):
        self.work, self.log = work, log
        venv = os.path.join(CACHE, "jrnl-venv")
        self.python = os.path.join(venv, "bin", "python")
        self.jrnl = os.path.join(venv, "bin", "jrnl")
        if not os.path.exists(self.jrnl) or JRNL_VERSION not in subprocess.run(
                [self.jrnl, "--version"], capture_output=True, text=True).stdout:
            log(f"installing jrnl {JRNL_VERSION} into {venv}")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", f"jrnl=={JRNL_VERSION}", "keyrings.alt"],
                           check=True)

    def setup(self, entries):
        root = os.path.join(self.work, f"jrnl-{len(entries)}")
        shutil.rmtree(root, ignore_errors=True)
        for sub in ("config/jrnl", "data", "home"):
            os.makedirs(os.path.join(root, sub))
        journal = os.path.join(root, "journal.txt")
        with open(os.path.join(root, "config/jrnl/jrnl.yaml"), "w") as f:
            f.write(f"""colors: {{body: none, date: none, tags: none, title: none}}
default_hour: 9
default_minute: 0
editor: ''
encrypt: true
highlight: false
indent_character: '|'
journals:
  default:
    journal: {journal}
linewrap: 79
tagsymbols: '#@'
template: false
timeformat: '%Y-%m-%d %H:%M'
version: v{JRNL_VERSION}
""")
        env = dict(os.environ, HOME=os.path.join(root, "home"), XDG_CONFIG_HOME=os.path.join(root, "config"),
                   XDG_DATA_HOME=os.path.join(root, "data"), NO_COLOR="1",
                   PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring")
        # jrnl's own file format (oldest first, as jrnl writes it), encrypted with jrnl's own class.
        plain = os.path.join(root, "plain.txt")
        with open(plain, "w", encoding="utf-8") as f:
            f.write("\n".join(_jrnl_text(e) for e in sorted(entries, key=lambda e: e["date"])))
        script = f"""
import keyring
from jrnl.encryption.Jrnlv3Encryption import Jrnlv3Encryption
enc = Jrnlv3Encryption("default", {{}})
enc.password = {PASSWORD!r}
data = open({plain!r}, encoding="utf-8").read()
open({journal!r}, "wb").write(enc.encrypt(data))
keyring.set_password("jrnl", "default", {PASSWORD!r})
"""
        subprocess.run([self.python, "-c", script], env=env, check=True)
        os.remove(plain)
        return root, env

    def measure(self, entries, runs):
        stats = corpus.stats(entries)
        root, env = self.setup(entries)
        j = self.jrnl
        pick = entries[len(entries) // 2]
        from datetime import datetime, timezone
        day = datetime.fromtimestamp(pick["date"] / 1000, timezone.utc).strftime("%Y-%m-%d")

        def count_entries(expected):
            def check(out):
                got = sum(1 for line in out.splitlines() if line.startswith("20") and line[4] == "-")
                if got != expected:
                    raise CommandFailed(f"jrnl: expected {expected} entries, got {got}")
            return check

        self.log(f"  jrnl N={len(entries)}")
        r = {}
        # The same untimed first run as diary's rows that change nothing (READ_WARMUP).
        r["list10"] = repeat(runs, lambda i: [j, "-n", "10", "--format", "short"], env, check_out=count_entries(10),
                             warmup=READ_WARMUP)
        r["show"] = repeat(runs, lambda i: [j, "-on", day], env, warmup=READ_WARMUP)
        r["search"] = repeat(runs, lambda i: [j, "-contains", corpus.RARE_WORD, "--format", "short"], env,
                             check_out=count_entries(stats["rare_hits"]), warmup=READ_WARMUP)
        r["tag"] = repeat(runs, lambda i: [j, "@" + corpus.TAG_FOR_LISTING, "--format", "short"], env,
                          check_out=count_entries(stats["tag_hits"]), warmup=READ_WARMUP)
        r["export"] = repeat(runs, lambda i: [j, "--export", "json"], env)
        r["add"] = repeat(runs, lambda i: [j, f"Bench entry {i}. Added by Scripts/bench. @bench"], env)
        # A new password: asked twice, then whether to keep it in the keyring (yes, so the
        # next command finds it).
        r["passwd"] = repeat(runs, lambda i: [j, "--encrypt"], env, stdin_text=lambda i: f"{PASSWORD}{i}\n{PASSWORD}{i}\ny\n")
        run([j, "-n", "1"], env)
        shutil.rmtree(root, ignore_errors=True)
        return r


class Pass:
    """Debian's pass with a throwaway gpg key without a passphrase (GNUPGHOME in the work dir)."""

    def __init__(self, work, log):
        self.work, self.log = work, log
        if shutil.which("pass") is None:
            log("installing pass (apt-get)")
            subprocess.run(["apt-get", "install", "-y", "-q", "pass"], check=True, stdout=subprocess.DEVNULL)

    def setup(self, entries):
        root = os.path.join(self.work, f"pass-{len(entries)}")
        shutil.rmtree(root, ignore_errors=True)
        gnupg, store = os.path.join(root, "gnupg"), os.path.join(root, "store")
        os.makedirs(gnupg, mode=0o700)
        env = dict(os.environ, GNUPGHOME=gnupg, PASSWORD_STORE_DIR=store, HOME=root)
        subprocess.run(["gpg", "--batch", "--passphrase", "", "--quick-gen-key", "diary bench <bench@invalid>",
                        "default", "default", "never"], env=env, check=True, capture_output=True)
        out = subprocess.run(["gpg", "--list-keys", "--with-colons"], env=env, check=True, capture_output=True, text=True)
        fpr = next(l.split(":")[9] for l in out.stdout.splitlines() if l.startswith("fpr"))
        subprocess.run(["pass", "init", fpr], env=env, check=True, capture_output=True)
        # What `pass insert` writes is `gpg -e -r KEY -o name.gpg`; one gpg call with
        # --multifile writes the same files for all entries much faster than N pass calls.
        names, plain = [], []
        for i, e in enumerate(entries):
            from datetime import datetime, timezone
            d = datetime.fromtimestamp(e["date"] / 1000, timezone.utc)
            name = f"diary/{d:%Y}/{d:%m-%d-%H%M}-{i:06d}"
            path = os.path.join(store, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tags = " ".join("@" + t for t in e["tags"])
            with open(path, "w", encoding="utf-8") as f:
                f.write(e["text"] + (f"\n{tags}" if tags else "") + "\n")
            names.append(name)
            plain.append(path)
        for k in range(0, len(plain), 500):
            subprocess.run(["gpg", "--batch", "--yes", "--trust-model", "always", "-r", fpr, "--encrypt-files",
                            "--multifile"] + plain[k:k + 500], env=env, check=True, capture_output=True)
        for p in plain:
            os.remove(p)
        return root, env, names

    def measure(self, entries, runs):
        stats = corpus.stats(entries)
        root, env, names = self.setup(entries)
        pick = names[len(names) // 2]
        self.log(f"  pass N={len(entries)}")

        def count_hits(expected):
            def check(out):
                # pass grep prints the matching entry's name, then its matching lines.
                plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
                got = sum(1 for line in plain.splitlines() if line.startswith("diary/") and line.endswith(":"))
                if got != expected:
                    raise CommandFailed(f"pass: expected {expected} matching entries, got {got}")
            return check

        r = {}
        r["show"] = repeat(runs, lambda i: ["pass", "show", pick], env, warmup=READ_WARMUP,
                           check_out=lambda out: None if entries[len(names) // 2]["text"][:20] in out else
                           (_ for _ in ()).throw(CommandFailed("pass show: wrong text")))
        r["search"] = repeat(min(runs, 3), lambda i: ["pass", "grep", corpus.RARE_WORD], env, warmup=READ_WARMUP,
                             check_out=count_hits(stats["rare_hits"]))
        # Listing by tag would be another `pass grep` over every file: the same cost as search.
        r["add"] = repeat(runs, lambda i: ["pass", "insert", "-m", f"diary/new/bench-{i}"], env,
                          stdin_text=lambda i: f"Bench entry {i}\nAdded by Scripts/bench.\n")
        shutil.rmtree(root, ignore_errors=True)
        return r
