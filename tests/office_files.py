"""Real office documents built by hand (zip + XML, as Word and LibreOffice write them), so
the tests need no python-docx: the parts the recorder reads, plus the ones every such file
carries ([Content_Types].xml, relationships, the ODF mimetype and manifest)."""

from __future__ import annotations

import io
import zipfile
from xml.sax.saxutils import escape

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="word/document.xml"/></Relationships>'
)


def _run(text: str) -> str:
    return f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def docx_xml(paragraphs: list[str], *, split_runs: bool = True) -> str:
    """word/document.xml: each paragraph's text in two runs (Word splits text into runs
    at every change of formatting or spell-check state), with paragraph properties and a
    tab-stop definition that must not become text."""
    body = []
    for p in paragraphs:
        half = len(p) // 2 if split_runs else len(p)
        runs = _run(p[:half]) + (_run(p[half:]) if p[half:] else "")
        body.append(f'<w:p><w:pPr><w:pStyle w:val="Normal"/><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>{runs}</w:p>')
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<w:document xmlns:w="{W}"><w:body>{"".join(body)}'
        '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>'
    )


def docx_bytes(paragraphs: list[str], *, document_xml: str | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("word/document.xml", document_xml if document_xml is not None else docx_xml(paragraphs))
        z.writestr("docProps/core.xml", '<?xml version="1.0"?><cp:coreProperties xmlns:cp="urn:x"/>')
    return buf.getvalue()


def odt_bytes(paragraphs: list[str], *, heading: str | None = None) -> bytes:
    """An OpenDocument text: the stored mimetype first, content.xml with a heading and
    paragraphs (spaces in a run of them written as <text:s/>, as LibreOffice does)."""
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
    body = f'<text:h text:outline-level="1">{escape(heading)}</text:h>' if heading else ""
    for p in paragraphs:
        body += f'<text:p text:style-name="P1">{escape(p).replace("  ", " <text:s/>")}</text:p>'
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {ns} office:version="1.3">'
               f"<office:body><office:text>{body}</office:text></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text", zipfile.ZIP_STORED)
        z.writestr("content.xml", content)
        z.writestr("META-INF/manifest.xml", manifest)
    return buf.getvalue()


def pptx_bytes(slides: list[list[str]]) -> bytes:
    """A presentation: one slide part per slide, its text in DrawingML paragraphs."""
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        for i, paras in enumerate(slides, start=1):
            ps = "".join(f"<a:p><a:r><a:t>{escape(t)}</a:t></a:r></a:p>" for t in paras)
            z.writestr(f"ppt/slides/slide{i}.xml",
                       f'<p:sld xmlns:p="urn:p" xmlns:a="{a}"><p:txBody>{ps}</p:txBody></p:sld>')
    return buf.getvalue()


def zip_bomb_docx(inflated: int = 200 << 20) -> bytes:
    """A .docx whose document part inflates to `inflated` bytes of one repeated paragraph
    (about a thousandth of that on disk)."""
    head = f'<?xml version="1.0"?><w:document xmlns:w="{W}"><w:body>'.encode()
    para = f"<w:p><w:r><w:t>{'A' * 200}</w:t></w:r></w:p>".encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        with z.open("word/document.xml", "w", force_zip64=False) as f:
            f.write(head)
            block = para * (1 << 14)
            for _ in range(max(inflated // len(block), 1)):
                f.write(block)
            f.write(b"</w:body></w:document>")
    return buf.getvalue()


def billion_laughs_docx() -> bytes:
    """A .docx whose document part declares nested entities (entity expansion)."""
    dtd = '<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9)) + "]>"
    xml = f'<?xml version="1.0"?>{dtd}<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&j;</w:t></w:r></w:p></w:body></w:document>'
    return docx_bytes([], document_xml=xml)


def rtf_bytes(paragraphs: list[str]) -> bytes:
    """An RTF document as TextEdit writes it: a font and colour table first, paragraphs ended
    by a backslash before the line break, accented letters as \\'hh in cp1252."""
    body = "\\\n".join(p.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}") for p in paragraphs)
    body = "".join(ch if ord(ch) < 128 else (f"\\'{ord(ch):02x}" if ord(ch) < 256 else f"\\uc0\\u{ord(ch)} ")
                   for ch in body)
    return ("{\\rtf1\\ansi\\ansicpg1252\\cocoartf2639\n"
            "{\\fonttbl\\f0\\fswiss\\fcharset0 Helvetica;}\n{\\colortbl;\\red255\\green255\\blue255;}\n"
            "\\pard\\tx566\\pardirnatural\\partightenfactor0\n\n\\f0\\fs24 \\cf0 " + body + "}").encode("ascii")
