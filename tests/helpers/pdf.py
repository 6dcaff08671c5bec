"""A small reader of the PDFs matplotlib writes (the protocol's): the pages
and the text on each, read through the fonts' ToUnicode maps — enough to
test what a PDF says without a PDF library (poppler is not on the box)."""

from __future__ import annotations

import re
import zlib

OBJECT = re.compile(rb"(\d+) 0 obj(.*?)endobj", re.S)
STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)
REF = rb"(\d+) 0 R"


def _objects(data: bytes) -> dict[int, bytes]:
    return {int(m.group(1)): m.group(2) for m in OBJECT.finditer(data)}


def _stream(body: bytes) -> bytes:
    m = STREAM.search(body)
    if m is None:
        return b""
    raw = m.group(1)
    return zlib.decompress(raw) if b"/FlateDecode" in body[: m.start()] else raw


def _cmap(text: bytes) -> dict[int, str]:
    """A ToUnicode CMap's code -> text (bfchar, and bfrange in both forms)."""
    out: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
        for code, uni in re.findall(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", block):
            out[int(code, 16)] = bytes.fromhex(uni.decode()).decode("utf-16-be")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
        for low, high, dest in re.findall(
            rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)", block
        ):
            lo, hi = int(low, 16), int(high, 16)
            if dest.startswith(b"["):
                for i, uni in enumerate(re.findall(rb"<([0-9a-fA-F]+)>", dest)):
                    out[lo + i] = bytes.fromhex(uni.decode()).decode("utf-16-be")
            else:
                start = int(dest[1:-1], 16)
                for i in range(hi - lo + 1):
                    out[lo + i] = chr(start + i)
    return out


def _literal(raw: bytes) -> bytes:
    """A PDF literal string's bytes (its backslash escapes undone)."""
    out, i = bytearray(), 0
    escapes = {ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8, ord("f"): 12}
    while i < len(raw):
        c = raw[i]
        if c == 0x5C and i + 1 < len(raw):  # backslash
            nxt = raw[i + 1]
            digits = re.match(rb"[0-7]{1,3}", raw[i + 1 : i + 4])
            if digits:
                out.append(int(digits.group(), 8) & 0xFF)
                i += 1 + len(digits.group())
                continue
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


SHOWN = re.compile(rb"/(F\w*)\s+[\d.]+\s+Tf|\(((?:\\.|[^\\)])*)\)", re.S)


def _text(content: bytes, fonts: dict[bytes, dict[int, str]]) -> list[str]:
    """The text of each text object (BT … ET) of a page's content stream:
    one string matplotlib drew, whatever fonts it was split into."""
    pieces: list[str] = []
    current: dict[int, str] = {}
    for block in re.findall(rb"\bBT\b(.*?)\bET\b", content, re.S):
        shown = ""
        for m in SHOWN.finditer(block):
            if m.group(1):
                current = fonts.get(m.group(1), {})
                continue
            raw = _literal(m.group(2))
            if current:
                codes = [int.from_bytes(raw[i : i + 2], "big") for i in range(0, len(raw) - 1, 2)]
                shown += "".join(current.get(code, "?") for code in codes)
            else:
                shown += raw.decode("latin-1")
        pieces.append(shown)
    return pieces


def read_pdf(data: bytes) -> list[str]:
    """The text of each page, in page order (pieces joined by newlines)."""
    objects = _objects(data)
    pages = []
    root = re.search(rb"/Type\s*/Pages\b.*?/Kids\s*\[([^\]]*)\]", data, re.S)
    order = [int(n) for n in re.findall(REF, root.group(1))] if root else []
    for number in order:
        body = objects[number]
        resources = body
        ref = re.search(rb"/Resources\s+" + REF, body)
        if ref:
            resources = objects[int(ref.group(1))]
        font_dict = resources
        ref = re.search(rb"/Font\s+" + REF, resources)
        if ref:
            font_dict = objects[int(ref.group(1))]
        fonts = {}
        for name, font in re.findall(rb"/(F\w*)\s+" + REF, font_dict):
            unicode_ref = re.search(rb"/ToUnicode\s+" + REF, objects[int(font)])
            if unicode_ref:
                fonts[name] = _cmap(_stream(objects[int(unicode_ref.group(1))]))
        contents = re.search(rb"/Contents\s+" + REF, body)
        stream = _stream(objects[int(contents.group(1))]) if contents else b""
        pages.append("\n".join(_text(stream, fonts)))
    return pages
