"""Recovery shares and checked base32, written from docs/FORMAT.md §14 alone (for decrypt-vault.py).

Rebuilds a recovery key from share files: each share is read and checked alone (its checks, its
version, its fields, its vault), then the set (one share set, one K and N, no x twice, at least K),
then the key is P(0) by Lagrange interpolation over GF(2^8) (polynomial 0x11D), byte by byte.
Nothing here is constant time: it is a reader for people recovering their own diary, not diary.
"""

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SEPARATORS = " \t-\r\n"
SHARE_VERSION = 1
SHARE_LENGTH = 60


class ShareError(Exception):
    """A share file that cannot be used; the message names the file and what is wrong."""


def gf32_mul(a: int, b: int) -> int:
    """a·b in GF(32) = GF(2)[x]/(x^5 + x^2 + 1)."""
    product = 0
    for _ in range(5):
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a & 0x20:
            a ^= 0x25
    return product


def checked_base32_decode(text: str) -> bytes:
    """The bytes of a checked base32 text of any length (§14.1); ValueError if it is not one."""
    values = []
    for position, character in enumerate(text, 1):
        if character in SEPARATORS:
            continue
        c = character.upper()
        c = {"O": "0", "I": "1", "L": "1"}.get(c, c)
        if c not in ALPHABET:
            raise ValueError(f"character {position} is not a base32 digit")
        values.append(ALPHABET.index(c))
    if len(values) < 2:
        raise ValueError("too short")
    s0, s1, power = 0, 0, 1
    for v in values:
        s0 ^= v
        s1 ^= gf32_mul(power, v)
        power = gf32_mul(power, 2)
    if s0 or s1:
        raise ValueError("the check characters do not match (a mistyped character)")
    data = values[:-2]
    bits = "".join(format(v, "05b") for v in data)
    count = len(bits) // 8
    if len(data) != (count * 8 + 4) // 5:
        raise ValueError("not a length an encoder writes")
    if "1" in bits[count * 8:]:
        raise ValueError("non-zero padding bits")
    return bytes(int(bits[i:i + 8], 2) for i in range(0, count * 8, 8))


def gf256_mul(a: int, b: int) -> int:
    """a·b in GF(2^8) with libgfshare's polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D)."""
    product = 0
    for _ in range(8):
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= 0x11D
    return product


def gf256_inv(a: int) -> int:
    """a^254 = a^-1 for a ≠ 0."""
    result = 1
    for _ in range(254):
        result = gf256_mul(result, a)
    return result


def read_share_file(path: str) -> dict:
    """The share in a file: '#' lines and blank lines skipped, the other lines its text."""
    with open(path, "rb") as f:
        raw = f.read(16 * 1024 + 1)
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise ShareError(f"{path} is not a share file")
    body = [line for line in lines if not line.startswith("#") and line.strip(" \t")]
    if len(raw) > 16 * 1024 or not body:
        raise ShareError(f"{path} is not a share file")
    try:
        data = checked_base32_decode("\n".join(body))
    except ValueError as error:
        raise ShareError(f"{path} is mistyped: {error}")
    if data[:1] != bytes([SHARE_VERSION]):
        raise ShareError(f"{path} is a share of an unknown version {data[0] if data else '?'}")
    if len(data) != SHARE_LENGTH:
        raise ShareError(f"{path} is mistyped: {len(data)} bytes, not {SHARE_LENGTH}")
    k, n, x = data[25], data[26], data[27]
    if not (2 <= k <= n <= 16 and 1 <= x <= n):
        raise ShareError(f"{path} is not a share diary makes (K {k}, N {n}, x {x})")
    return {"path": path, "set": data[1:9], "vault": data[9:25], "k": k, "n": n, "x": x, "y": data[28:60]}


def rebuild_key(paths: list, vault_id: bytes) -> bytes:
    """The recovery key the shares in `paths` rebuild, for the vault `vault_id`."""
    shares = [read_share_file(path) for path in paths]
    for share in shares:
        if share["vault"] != vault_id:
            raise ShareError(f"{share['path']} is a share of another vault")
    if not shares:
        raise ShareError("no share file given")
    first = shares[0]
    seen = {}
    for share in shares:
        if share["set"] != first["set"]:
            raise ShareError(f"{share['path']} is of another share set than {first['path']}")
        if (share["k"], share["n"]) != (first["k"], first["n"]):
            raise ShareError(f"{share['path']} and {first['path']} disagree on how many shares are needed")
        if share["x"] in seen:
            raise ShareError(f"{share['path']} is the same share as {seen[share['x']]}")
        seen[share["x"]] = share["path"]
    if len(shares) < first["k"]:
        raise ShareError(f"{first['k']} shares are needed, {len(shares)} given")
    xs = [share["x"] for share in shares]
    key = bytearray(32)
    for i, share in enumerate(shares):
        numerator, denominator = 1, 1
        for j, x in enumerate(xs):
            if j != i:
                numerator = gf256_mul(numerator, x)
                denominator = gf256_mul(denominator, x ^ xs[i])
        weight = gf256_mul(numerator, gf256_inv(denominator))
        for position in range(32):
            key[position] ^= gf256_mul(share["y"][position], weight)
    return bytes(key)
