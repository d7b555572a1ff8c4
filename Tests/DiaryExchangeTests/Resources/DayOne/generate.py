#!/usr/bin/python3
"""Writes media.zip, the Day One export with media of DayOneMediaTests (run with /usr/bin/python3).

Written with Python's zipfile, not the test's own zip writer, so the reader meets deflated
members as another implementation makes them. The member bytes are formulas the test repeats:
pattern(n, k) is bytes (i * k) % 251 for i in 0..<n.
"""
import json
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def pattern(n, k):
    return bytes((i * k) % 251 for i in range(n))


PHOTO = "0123456789abcdef0123456789abcdef"
VIDEO = "11111111111111111111111111111111"
AUDIO = "22222222222222222222222222222222"
PDF = "33333333333333333333333333333333"
HEIC = "44444444444444444444444444444444"
GONE = "55555555555555555555555555555555"

entries = [
    {
        "uuid": "MEDIA1", "creationDate": "2024-03-01T09:00:00Z",
        "text": "Palace\\!\n![](dayone-moment://PHOTOID1)\nthen\n![](dayone-moment:/video/VIDEOID1)\nend",
        "photos": [{"identifier": "PHOTOID1", "md5": PHOTO, "type": "jpeg"}],
        "videos": [{"identifier": "VIDEOID1", "md5": VIDEO, "type": "mov"}],
    },
    {"uuid": "PLAIN", "creationDate": "2024-03-02T09:00:00Z", "text": "no media \\(none\\)"},
    {
        "uuid": "MEDIA2", "creationDate": "2024-03-03T09:00:00Z",
        "text": "![](dayone-moment:/audio/AUDIOID1) ![](dayone-moment:/pdfAttachment/PDFID1) ![](dayone-moment://GONEID1)",
        "audios": [{"identifier": "AUDIOID1", "md5": AUDIO, "format": "m4a"}],
        "pdfAttachments": [{"identifier": "PDFID1", "md5": PDF, "type": "pdf"}],
        "photos": [
            {"identifier": "GONEID1", "md5": GONE, "type": "jpeg"},
            {"identifier": "HEICID1", "md5": HEIC},
            {"identifier": "EVIL", "md5": "../../etc/passwd", "type": "jpeg"},
            "not an object",
        ],
    },
]

with open(os.path.join(HERE, "..", "JPEG", "gps-all.jpg"), "rb") as f:
    photo = f.read()

path = os.path.join(HERE, "media.zip")
with zipfile.ZipFile(path, "w") as z:
    z.writestr("Journal.json", json.dumps({"metadata": {"version": "1.0"}, "entries": entries}, indent=1),
               compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("photos/%s.jpeg" % PHOTO, photo, compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("videos/%s.mov" % VIDEO, pattern(20000, 7), compress_type=zipfile.ZIP_STORED)
    # 3 MiB that deflate to a few KiB: many 64 KiB pieces out of one compressed piece.
    z.writestr("audios/%s.m4a" % AUDIO, pattern(3 << 20, 3), compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("pdfs/%s.pdf" % PDF, b"%PDF-1.4\n" + pattern(1000, 5), compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("photos/%s.heic" % HEIC, pattern(500, 9), compress_type=zipfile.ZIP_DEFLATED)
print(os.path.getsize(path))
