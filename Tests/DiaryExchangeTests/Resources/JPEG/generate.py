#!/usr/bin/python3
"""Writes the JPEG fixtures of JPEGMetadataStripperTests (run with /usr/bin/python3, needs python3-pil).

Each NAME.jpg gets NAME.stripped.jpg beside it: the same bytes with every APP1, APP13 and COM
segment cut out, MPF's APP2 index too, and nothing kept after the primary image's EOI (MPF's
secondary images, a Motion Photo's video). The expected bytes are made by composition: each
file is built from a plain PIL JPEG plus what the stripper must remove (segments inserted,
data appended), and its expected output is that JPEG with only its own segment list cleaned.
A walker written here independently of the Swift code (strip_all) must agree, and both must
decode to the same pixels with PIL. expected.json holds, per file, the kinds removed, whether
the Exif held a GPS position and the trailer's length, as the Swift report names them.
"""
import io
import json
import os
import re
import struct

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def base_jpeg(exif=None, icc=None, mode="RGB", blue=128, progressive=False):
    image = Image.new(mode, (16, 16))
    for x in range(16):
        for y in range(16):
            image.putpixel((x, y), (x * 16, y * 16, blue) if mode == "RGB" else (x * 16, y * 16, blue, 0))
    out = io.BytesIO()
    options = {"quality": 90, "progressive": progressive}
    if exif is not None:
        options["exif"] = exif
    if icc is not None:
        options["icc_profile"] = icc
    image.save(out, "JPEG", **options)
    return out.getvalue()


def exif_with_gps(model="Model 1"):
    exif = Image.Exif()
    exif[0x010F] = "DiaryCam"  # Make
    exif[0x0110] = model  # Model
    # GPSInfo as a dict: Pillow writes it as its own IFD behind tag 0x8825.
    exif[0x8825] = {0x0000: b"\x02\x03\x00\x00", 0x0001: "N", 0x0002: (37.0, 34.0, 12.5), 0x0003: "E",
                    0x0004: (126.0, 58.0, 40.25)}
    return exif.tobytes()


def exif_without_gps():
    exif = Image.Exif()
    exif[0x010F] = "DiaryCam"
    return exif.tobytes()


def exif_gps_version_only():
    exif = Image.Exif()
    exif[0x010F] = "DiaryCam"
    exif[0x8825] = {0x0000: b"\x02\x03\x00\x00"}
    return exif.tobytes()


def gps_ifd(jpeg):
    exif = Image.open(io.BytesIO(jpeg)).getexif()
    return exif.get_ifd(0x8825)


def insert_after_app0(jpeg, extra):
    """Inserts segments after SOI and, when present, the APP0 that follows it."""
    at = 2
    if jpeg[2:4] == b"\xff\xe0":
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    return jpeg[:at] + extra + jpeg[at:]


def stripped(jpeg):
    """A one-image JPEG with APP1, APP13 and COM cut from its segment list, the rest as it is."""
    out = bytearray(jpeg[:2])
    at = 2
    while True:
        assert jpeg[at] == 0xFF
        marker = jpeg[at + 1]
        if marker == 0xDA:
            return bytes(out + jpeg[at:])
        length = struct.unpack(">H", jpeg[at + 2:at + 4])[0]
        if marker not in (0xE1, 0xED, 0xFE):
            out += jpeg[at:at + 2 + length]
        at += 2 + length


# An FF that ends the entropy-coded data: not a stuffed zero, a restart marker or a fill byte.
SCAN_END = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


def classify(marker, body):
    if marker == 0xE1:
        if body[:5].lower() == b"exif\x00":
            return "exif"
        if body.startswith(b"http://ns.adobe.com/xap/1.0/\x00") or body.startswith(b"http://ns.adobe.com/xmp/extension/\x00"):
            return "xmp"
        return "otherAPP1"
    if marker == 0xE2 and body.startswith(b"MPF\x00"):
        return "mpf"
    return {0xED: "iptc", 0xFE: "comment"}.get(marker)


def segments(jpeg):
    """(marker, start, end) of each segment up to EOI, scans followed; end of EOI last."""
    found = []
    at = 2
    while True:
        assert jpeg[at] == 0xFF, at
        marker = jpeg[at + 1]
        if marker == 0xD9:
            return found, at + 2
        end = at + 2 + struct.unpack(">H", jpeg[at + 2:at + 4])[0]
        found.append((marker, at, end))
        at = SCAN_END.search(jpeg, end).start() if marker == 0xDA else end


def strip_all(jpeg):
    """The stripper's rules: returns the output, the kinds removed and the trailer's length."""
    found, eoi_end = segments(jpeg)
    out = bytearray(jpeg[:2])
    kinds = set()
    for index, (marker, start, end) in enumerate(found):
        kind = classify(marker, jpeg[start + 4:end])
        if kind:
            kinds.add(kind)
        else:
            out += jpeg[start:end]
        # Scan data (or nothing) up to the next segment or EOI.
        out += jpeg[end:found[index + 1][1] if index + 1 < len(found) else eoi_end - 2]
    out += b"\xff\xd9"
    if eoi_end < len(jpeg):
        kinds.add("trailer")
    return bytes(out), kinds, len(jpeg) - eoi_end


ORDER = ["exif", "xmp", "iptc", "comment", "otherAPP1", "mpf", "trailer"]
expected = {}


def write(name, jpeg, clean=None, gps=False):
    """Writes NAME.jpg and NAME.stripped.jpg; `clean` is the output by composition."""
    clean = stripped(jpeg) if clean is None else clean
    out, kinds, trailer = strip_all(jpeg)
    assert out == clean, name
    assert Image.open(io.BytesIO(jpeg)).tobytes() == Image.open(io.BytesIO(clean)).tobytes(), name
    assert b"exif" not in clean.lower() and b"MPF\x00" not in clean, name
    with open(os.path.join(HERE, name + ".jpg"), "wb") as f:
        f.write(jpeg)
    with open(os.path.join(HERE, name + ".stripped.jpg"), "wb") as f:
        f.write(clean)
    expected[name] = {"kinds": [k for k in ORDER if k in kinds], "gps": gps, "trailer": trailer}


def insert_at(jpeg, at, extra):
    return jpeg[:at] + extra + jpeg[at:]


def mpf_segment(header_at, primary_size, secondary_size):
    """APP2 "MPF\\0" indexing two images; offsets count from the TIFF header at `header_at`."""
    entry = lambda tag, kind, count, value: struct.pack("<HHI", tag, kind, count) + value
    ifd = struct.pack("<H", 3) + entry(0xB000, 7, 4, b"0100") + entry(0xB001, 4, 1, struct.pack("<I", 2))
    ifd += entry(0xB002, 7, 32, struct.pack("<I", 8 + 2 + 36 + 4)) + struct.pack("<I", 0)
    entries = struct.pack("<IIIHH", 0x20030000, primary_size, 0, 0, 0)
    entries += struct.pack("<IIIHH", 0x00010002, secondary_size, primary_size - header_at, 0, 0)
    return segment(0xE2, b"MPF\x00" + b"II*\x00" + struct.pack("<I", 8) + ifd + entries)


def multi_picture():
    """A phone's MPF file: the primary (Exif with GPS, the MPF index), then a second JPEG with its own."""
    primary = base_jpeg(exif_with_gps())
    # Phones start a secondary image with its Exif, no JFIF (and Pillow reads it only there).
    secondary = base_jpeg(exif_with_gps("Model 2"), blue=40)
    assert secondary[2:4] == b"\xff\xe0"
    secondary = secondary[:2] + secondary[4 + struct.unpack(">H", secondary[4:6])[0]:]
    app1 = next(s for s in segments(primary)[0] if s[0] == 0xE1)
    size = len(primary) + len(mpf_segment(0, 0, 0))
    jpeg = insert_at(primary, app1[2], mpf_segment(app1[2] + 8, size, len(secondary))) + secondary
    image = Image.open(io.BytesIO(jpeg))
    assert image.format == "MPO" and image.n_frames == 2
    image.seek(1)
    assert 2 in image.getexif().get_ifd(0x8825) and image.getexif()[0x0110] == "Model 2"
    assert image.tobytes() == Image.open(io.BytesIO(secondary)).tobytes()
    return jpeg, stripped(primary)


def motion_photo():
    """A Motion Photo: the JPEG, then an MP4 whose metadata holds a position (and stray JPEG markers)."""
    xmp_motion = segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta xmlns:x='adobe:ns:meta/'>"
                         b"<rdf:RDF><rdf:Description GCamera:MotionPhoto='1'/></rdf:RDF></x:xmpmeta>")
    photo = insert_after_app0(base_jpeg(exif_with_gps()), xmp_motion)
    box = lambda kind, body: struct.pack(">I", 8 + len(body)) + kind + body
    mp4 = box(b"ftyp", b"mp42\x00\x00\x00\x00isommp42") + box(b"mdat", b"\xff\xd8\xff\xe1\x00\x08Exif\xff\xd9" * 8)
    mp4 += box(b"moov", box(b"udta", box(b"\xa9xyz", b"\x00\x12\x15\xc7+37.5665+126.9780/")))
    return photo + mp4, stripped(photo)


def progressive(exif_between):
    """A progressive JPEG with a COM after its first scan and an APP1 after its second."""
    plain = base_jpeg(None if exif_between else exif_with_gps(), progressive=True)
    scans = [s for s in segments(plain)[0] if s[0] == 0xDA]
    assert len(scans) > 3
    # Where the second and the third SOS (and any tables before them) begin.
    after = lambda scan: SCAN_END.search(plain, scan[2]).start()
    late = exif_between and segment(0xE1, exif_with_gps()) or xmp
    jpeg = insert_at(insert_at(plain, after(scans[1]), late), after(scans[0]), comment)
    return jpeg, stripped(plain)


xmp = segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF/></x:xmpmeta>")
extended = segment(0xE1, b"http://ns.adobe.com/xmp/extension/\x00" + b"0" * 32 + struct.pack(">II", 9, 0) + b"<x:more/>")
iptc = segment(0xED, b"Photoshop 3.0\x008BIM\x04\x04\x00\x00\x00\x00\x00\x0b\x1c\x02\x05\x00\x06Seoul!\x00")
comment = segment(0xFE, b"taken at home")
adobe = segment(0xEE, b"Adobe\x00\x64\x00\x00\x00\x00\x01")

assert 2 in gps_ifd(base_jpeg(exif_with_gps()))
assert list(gps_ifd(base_jpeg(exif_gps_version_only()))) == [0]
write("gps-all", insert_after_app0(base_jpeg(exif_with_gps(), icc=b"\x00" * 128), xmp + extended + iptc + comment + adobe),
      gps=True)
write("exif-no-gps", base_jpeg(exif_without_gps()))
write("gps-version-only", base_jpeg(exif_gps_version_only()))
write("plain", base_jpeg())
write("mpf", *multi_picture(), gps=True)
write("motion-photo", *motion_photo(), gps=True)
write("progressive", *progressive(exif_between=False), gps=True)
write("progressive-exif-between-scans", *progressive(exif_between=True), gps=True)
write("uppercase-exif", base_jpeg(exif_with_gps()).replace(b"Exif\x00\x00", b"EXIF\x00\x00", 1), gps=True)
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
