"""Binary files a person has (pdf, docx, xlsx, png, jpg, wav), made small and byte-for-byte
deterministic.

Office formats are zip files whose entries carry the time they were written and core
properties with "now"; both are pinned so that the same seed gives the same bytes (the trace
records hashes and sizes). PDFs use the built-in Latin fonts: no CJK font is installed here and
fonts are not downloaded, so Chinese text in PDFs is replaced by its English counterpart.
Audio is a short 8 kHz mono WAV (stdlib `wave`): an MP3 would need an encoder we do not ship.
"""

from __future__ import annotations

import datetime as _dt
import io
import math
import random
import re
import struct
import wave
import zipfile

from filegram.errors import import_extra

FIXED_DT = _dt.datetime(2025, 1, 6, 9, 0, 0)
_ZIP_DT = (2025, 1, 6, 9, 0, 0)
_STAMP = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)")


def _pin_zip(data: bytes) -> bytes:
    """Rewrite a zip with fixed entry times, so office files are deterministic."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=_ZIP_DT)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = info.external_attr
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # writers stamp "now" into these
                data = _STAMP.sub(rb"\g<1>2025-01-06T09:00:00Z\g<2>", data)
            dst.writestr(zi, data)
    return out.getvalue()


def _latin(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def make_pdf(title: str, paragraphs: list[str]) -> bytes:
    FPDF = import_extra("fpdf", "simulator", what="writing PDF files (fpdf2)").FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED_DT)
    pdf.set_title(_latin(title))
    pdf.add_page()
    pdf.set_font("helvetica", "B", 14)
    pdf.multi_cell(0, 8, _latin(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", size=10)
    for para in paragraphs:
        pdf.multi_cell(0, 5, _latin(para), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    return bytes(pdf.output())


def make_docx(title: str, paragraphs: list[str]) -> bytes:
    docx = import_extra("docx", "simulator", what="writing .docx files (python-docx)")

    d = docx.Document()
    d.core_properties.created = FIXED_DT
    d.core_properties.modified = FIXED_DT
    d.core_properties.last_modified_by = ""
    d.core_properties.author = ""
    d.add_heading(title, level=1)
    for para in paragraphs:
        d.add_paragraph(para)
    buf = io.BytesIO()
    d.save(buf)
    return _pin_zip(buf.getvalue())


def make_xlsx(header: list[str], rows: list[list[object]]) -> bytes:
    openpyxl = import_extra("openpyxl", "simulator", what="writing .xlsx files (openpyxl)")

    wb = openpyxl.Workbook()
    wb.properties.created = FIXED_DT
    wb.properties.modified = FIXED_DT
    wb.properties.creator = ""
    ws = wb.active
    ws.append(header)
    for row in rows:
        ws.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    return _pin_zip(buf.getvalue())


def _palette(rng: random.Random) -> list[tuple[int, int, int]]:
    return [(rng.randint(30, 220), rng.randint(30, 220), rng.randint(30, 220)) for _ in range(6)]


def make_chart_png(values: list[float], rng: random.Random, size: tuple[int, int] = (240, 160)) -> bytes:
    """A bar chart as a person would export it from a spreadsheet."""
    from PIL import Image, ImageDraw

    w, h = size
    img = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.line([(20, h - 20), (w - 10, h - 20)], fill=(0, 0, 0))
    draw.line([(20, 10), (20, h - 20)], fill=(0, 0, 0))
    top = max(values) or 1.0
    bw = max(4, (w - 40) // max(len(values), 1) - 6)
    colours = _palette(rng)
    for i, v in enumerate(values):
        x0 = 26 + i * (bw + 6)
        y0 = h - 20 - int((h - 40) * v / top)
        draw.rectangle([x0, y0, x0 + bw, h - 21], fill=colours[i % len(colours)])
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=False)
    return buf.getvalue()


def make_photo(rng: random.Random, fmt: str = "JPEG", size: tuple[int, int] = (200, 150)) -> bytes:
    """A small photo-like picture: sky gradient, ground, a few shapes."""
    from PIL import Image, ImageDraw

    w, h = size
    img = Image.new("RGB", size)
    draw = ImageDraw.Draw(img)
    sky = (rng.randint(90, 160), rng.randint(140, 200), rng.randint(200, 255))
    ground = (rng.randint(40, 120), rng.randint(90, 160), rng.randint(30, 90))
    horizon = rng.randint(h // 3, 2 * h // 3)
    for y in range(h):
        c = sky if y < horizon else ground
        f = 0.6 + 0.4 * (y / h)
        draw.line([(0, y), (w, y)], fill=tuple(int(v * f) for v in c))
    for _ in range(rng.randint(2, 5)):
        x, y, r = rng.randint(0, w), rng.randint(0, h), rng.randint(6, 30)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=_palette(rng)[0])
    buf = io.BytesIO()
    if fmt == "JPEG":
        img.save(buf, "JPEG", quality=70)
    else:
        img.save(buf, "PNG")
    return buf.getvalue()


def make_wav(rng: random.Random, seconds: float = 1.2, rate: int = 8000) -> bytes:
    """A short voice-memo stand-in: a few tones with pauses, 8 kHz mono 16-bit."""
    n = int(seconds * rate)
    freqs = [rng.choice([180, 220, 260, 300, 340]) for _ in range(4)]
    frames = bytearray()
    for i in range(n):
        seg = freqs[(i * len(freqs)) // n]
        amp = 0 if (i // 800) % 5 == 4 else 6000
        frames += struct.pack("<h", int(amp * math.sin(2 * math.pi * seg * i / rate)))
    buf = io.BytesIO()
    with wave.open(buf, "wb") as wf:
        wf.setnchannels(1)
        wf.setsampwidth(2)
        wf.setframerate(rate)
        wf.writeframes(bytes(frames))
    return buf.getvalue()
