"""What text an office document gives, and that a hostile one gives none without harm."""

from __future__ import annotations

import io
import zipfile

from filegram.recorder.officetext import LIMITS, Limits, extract_text, office_kind
from office_files import (
    W,
    billion_laughs_docx,
    docx_bytes,
    odt_bytes,
    pptx_bytes,
    rtf_bytes,
    zip_bomb_docx,
)


def _docx_with_body(body: str) -> bytes:
    xml = f'<?xml version="1.0"?><w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>'
    return docx_bytes([], document_xml=xml)


def _odt_with_body(body: str) -> bytes:
    """An OpenDocument text holding only content.xml with `body` as its text."""
    content = ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0">'
               f"<office:body><office:text>{body}</office:text></office:body></office:document-content>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("content.xml", content)
    return buf.getvalue()


def test_office_kind_is_the_extension() -> None:
    assert [office_kind(p) for p in ("a/Report.DOCX", "m.odt", "deck.pptx", "s.odp", "x.xlsx", "docx", ".docx")] == [
        "docx", "odt", "pptx", "odp", None, None, None]


def test_word_paragraphs_are_lines_and_runs_are_joined() -> None:
    body = (
        '<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>'  # a tab stop, not a tab
        "<w:r><w:t>Pass</w:t></w:r><w:r><w:t>word: </w:t></w:r><w:r><w:tab/><w:t>x</w:t></w:r></w:p>"
        "<w:p><w:r><w:t>kept</w:t></w:r><w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>"
        '<w:r><w:fldChar w:fldCharType="begin"/><w:instrText>PAGE</w:instrText></w:r>'
        "<w:r><w:br/><w:t>after a break</w:t></w:r></w:p>"
        "<w:p/>"
        "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell 1</w:t></w:r></w:p></w:tc>"
        "<w:tc><w:p><w:r><w:t>cell 2</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    )
    assert extract_text(io.BytesIO(_docx_with_body(body)), "docx") == (
        "Password: \tx\nkept\nafter a break\n\n| cell 1 | cell 2 |\n|---|---|\n")


def _cell(*paragraphs: str) -> str:
    return "<w:tc>" + "".join(f"<w:p><w:r><w:t>{p}</w:t></w:r></w:p>" for p in paragraphs) + "</w:tc>"


def test_tables_are_markdown_rows_that_memory_counts() -> None:
    # A Word report with a table reads as a table, as the same report typed in markdown
    # would: memory's cross-modal evidence (table rows) sees it. A cell's paragraphs are one
    # cell, a pipe in a cell is escaped, a table nested in a cell is that cell's text.
    from filegram.memory.content import table_rows

    rows = [("Region", "Sales"), ("North", "12"), ("South", "9")]
    body = ("<w:p><w:r><w:t>Quarterly figures</w:t></w:r></w:p><w:tbl>"
            + "".join("<w:tr>" + "".join(_cell(c) for c in r) + "</w:tr>" for r in rows)
            + "<w:tr>" + _cell("East", "(a|b)") + "<w:tc><w:tbl><w:tr>" + _cell("inner")[0:]
            + "</w:tr></w:tbl><w:p><w:r><w:t>7</w:t></w:r></w:p></w:tc></w:tr>"
            + "</w:tbl><w:p><w:r><w:t>Next steps</w:t></w:r></w:p>")
    text = extract_text(io.BytesIO(_docx_with_body(body)), "docx")
    assert text == ("Quarterly figures\n| Region | Sales |\n|---|---|\n| North | 12 |\n| South | 9 |\n"
                    "| East (a\\|b) | inner 7 |\nNext steps\n")
    assert table_rows(text) == 4
    # LibreOffice's tables alike (a merged cell is an empty one)
    body = ("<table:table><table:table-row><table:table-cell><text:p>a</text:p></table:table-cell>"
            "<table:table-cell><text:p>b</text:p></table:table-cell></table:table-row><table:table-row>"
            "<table:table-cell><text:p>1</text:p></table:table-cell><table:covered-table-cell/></table:table-row>"
            "</table:table>")
    assert extract_text(io.BytesIO(_odt_with_body(body)), "odt") == "| a | b |\n|---|---|\n| 1 |  |\n"


def test_opendocument_spaces_tabs_breaks_and_no_comments() -> None:
    data = odt_bytes(["a  b", "c"], heading="Title")
    assert extract_text(io.BytesIO(data), "odt") == "Title\na  b\nc\n"
    body = ('<text:p>x<text:s text:c="3"/>y<text:tab/>z<text:line-break/>next\nline'
            "<office:annotation><text:p>a reviewer's comment</text:p></office:annotation></text:p>")
    assert extract_text(io.BytesIO(_odt_with_body(body)), "odt") == "x   y\tz\nnext line\n"


def test_slides_in_their_order() -> None:
    slides = [[f"slide {i}"] for i in range(1, 12)]
    assert extract_text(io.BytesIO(pptx_bytes(slides)), "pptx") == "".join(f"slide {i}\n" for i in range(1, 12))


def test_hostile_and_broken_documents_give_no_text() -> None:
    good = docx_bytes(["one paragraph"])
    assert extract_text(io.BytesIO(good), "docx") == "one paragraph\n"
    for data in (zip_bomb_docx(64 << 20), billion_laughs_docx(), good[:200], b"", b"PK\x05\x06" + bytes(18),
                 b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600)):
        assert extract_text(io.BytesIO(data), "docx") is None
    assert extract_text(io.BytesIO(good), "odt") is None  # no content.xml: not what its name says


def test_every_limit_is_a_hard_stop() -> None:
    big = docx_bytes([f"paragraph {i} " * 20 for i in range(2000)])
    assert extract_text(io.BytesIO(big), "docx") is not None
    for limits in (Limits(file_bytes=1000), Limits(members=3), Limits(part_bytes=100_000),
                   Limits(total_bytes=100_000), Limits(seconds=0.0), Limits(chars=10_000)):
        assert extract_text(io.BytesIO(big), "docx", limits) is None, limits
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as z:
        for i in range(LIMITS.members + 1):
            z.writestr(f"x/{i}", b"")
        z.writestr("word/document.xml", f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>t</w:t></w:r></w:p></w:body></w:document>')
    assert extract_text(io.BytesIO(many.getvalue()), "docx") is None


def test_rtf_body_text_without_its_tables_and_destinations() -> None:
    data = (rb"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Helvetica;}}{\colortbl;\red255\green0\blue0;}"
            rb"{\*\generator Riched20}{\info{\title T}}\uc1\pard\f0 Hello \b bold\b0  world\par" b"\n"
            rb"Caf\'e9 na\u239?ve \u-10179?\u-8704? done\tab x\par" b"\n"
            rb"{\*\unknowndest hidden}{\header Page 1\par}{\pict\pngblip 89504e47}visible\line next\par}")
    assert extract_text(io.BytesIO(data), "rtf") == "Hello bold world\nCaf\u00e9 na\u00efve \U0001f600 done\tx\nvisible\nnext\n"
    assert extract_text(io.BytesIO(rtf_bytes(["Caf\u00e9 menu", "a {brace} and \\ back"])), "rtf") == (
        "Caf\u00e9 menu\na {brace} and \\ back\n")
    for bad in (b"plain text called .rtf", rb"{\rtf1 " + b"x" * 200):
        assert extract_text(io.BytesIO(bad), "rtf", Limits(rtf_bytes=100)) is None
    assert extract_text(io.BytesIO(rb"{\rtf1 " + b"{" * 5000 + b"deep" + b"}" * 5001), "rtf") is None
    assert extract_text(io.BytesIO(rtf_bytes(["word " * 5000])), "rtf", Limits(chars=1000)) is None
