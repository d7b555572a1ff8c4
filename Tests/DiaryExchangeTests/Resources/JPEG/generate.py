#!/usr/bin/python3
"""Writes the JPEG fixtures of JPEGMetadataStripperTests (run with /usr/bin/python3, needs python3-pil).

Each NAME.jpg gets NAME.stripped.jpg beside it: the same bytes with every APP1, APP13 and COM
segment before the first SOS cut out, found by a segment walk written here independently of the
Swift code, and checked to decode to the same pixels with PIL.
"""
import io
import os
import struct

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def base_jpeg(exif=None, icc=None, mode="RGB"):
    image = Image.new(mode, (16, 16))
    for x in range(16):
        for y in range(16):
            image.putpixel((x, y), (x * 16, y * 16, 128) if mode == "RGB" else (x * 16, y * 16, 128, 0))
    out = io.BytesIO()
    options = {"quality": 90}
    if exif is not None:
        options["exif"] = exif
    if icc is not None:
        options["icc_profile"] = icc
    image.save(out, "JPEG", **options)
    return out.getvalue()


def exif_with_gps():
    exif = Image.Exif()
    exif[0x010F] = "DiaryCam"  # Make
    exif[0x0110] = "Model 1"  # Model
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


def write(name, jpeg):
    clean = stripped(jpeg)
    assert Image.open(io.BytesIO(jpeg)).tobytes() == Image.open(io.BytesIO(clean)).tobytes()
    with open(os.path.join(HERE, name + ".jpg"), "wb") as f:
        f.write(jpeg)
    with open(os.path.join(HERE, name + ".stripped.jpg"), "wb") as f:
        f.write(clean)


xmp = segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF/></x:xmpmeta>")
extended = segment(0xE1, b"http://ns.adobe.com/xmp/extension/\x00" + b"0" * 32 + struct.pack(">II", 9, 0) + b"<x:more/>")
iptc = segment(0xED, b"Photoshop 3.0\x008BIM\x04\x04\x00\x00\x00\x00\x00\x0b\x1c\x02\x05\x00\x06Seoul!\x00")
comment = segment(0xFE, b"taken at home")
adobe = segment(0xEE, b"Adobe\x00\x64\x00\x00\x00\x00\x01")

assert 2 in gps_ifd(base_jpeg(exif_with_gps()))
assert list(gps_ifd(base_jpeg(exif_gps_version_only()))) == [0]
write("gps-all", insert_after_app0(base_jpeg(exif_with_gps(), icc=b"\x00" * 128), xmp + extended + iptc + comment + adobe))
write("exif-no-gps", base_jpeg(exif_without_gps()))
write("gps-version-only", base_jpeg(exif_gps_version_only()))
write("plain", base_jpeg())
