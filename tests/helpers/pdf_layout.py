"""Where the text of a PDF matplotlib wrote (the protocol's) lies on its pages: each piece of
text it drew, with its left and right edges and its baseline in points, read from the page's
content stream (each text object placed by ``cm`` and ``Td``, shown by ``TJ``) and the widths
its embedded fonts declare (a CID font's ``/W``) — the positions a PDF viewer draws at, so a
line that runs off the paper is seen in the file itself, not in a preview.

    for page in text_boxes(data):            # one Page a page, in order
        for box in page.boxes:               # one Box a text object
            assert box.right <= page.width - 36"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.helpers.pdf import REF, _cmap, _literal, _objects, _stream

PLACED = re.compile(rb"q\s+([-\d.\s]+)\s+cm\s+BT\b(.*?)\bET\s+Q", re.S)
OPERATION = re.compile(
    rb"/(F\w*)\s+([-\d.]+)\s+Tf"  # a font and its size
    rb"|([-\d.]+)\s+([-\d.]+)\s+Td"  # the line's start moved
    rb"|\[((?:\((?:\\.|[^\\)])*\)|[^\]])*)\]\s*TJ",  # strings shown, with kerning between them
    re.S,
)
PIECE = re.compile(rb"\(((?:\\.|[^\\)])*)\)|([-\d.]+)", re.S)


@dataclass(frozen=True)
class Box:
    text: str
    left: float  # points from the page's left edge
    right: float
    baseline: float  # points from the page's bottom


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class _Font:
    chars: dict[int, str]
    widths: dict[int, float]  # thousandths of the size
    default: float


def _widths(text: bytes) -> dict[int, float]:
    """A CID font's ``/W`` array: ``c [w1 w2 …]`` and ``c1 c2 w`` entries."""
    out: dict[int, float] = {}
    tokens = re.findall(rb"\[|\]|[-\d.]+", text.strip()[1:-1])
    i = 0
    while i < len(tokens):
        first = int(tokens[i])
        if tokens[i + 1] == b"[":
            j = i + 2
            while tokens[j] != b"]":
                out[first + j - i - 2] = float(tokens[j])
                j += 1
            i = j + 1
        else:
            for cid in range(first, int(tokens[i + 1]) + 1):
                out[cid] = float(tokens[i + 2])
            i += 3
    return out


def _font(objects: dict[int, bytes], number: int) -> _Font:
    body = objects[number]
    chars: dict[int, str] = {}
    ref = re.search(rb"/ToUnicode\s+" + REF, body)
    if ref:
        chars = _cmap(_stream(objects[int(ref.group(1))]))
    descendant = re.search(rb"/DescendantFonts\s*\[\s*" + REF, body)
    if descendant is None:
        raise ValueError("only the Type 0 (TrueType, pdf.fonttype 42) fonts matplotlib embeds are read")
    cid = objects[int(descendant.group(1))]
    w = re.search(rb"/W\s+" + REF, cid)
    w_inline = re.search(rb"/W\s*(\[.*\])", cid, re.S)
    widths = _widths(objects[int(w.group(1))]) if w else _widths(w_inline.group(1)) if w_inline else {}
    dw = re.search(rb"/DW\s+([\d.]+)", cid)
    return _Font(chars, widths, float(dw.group(1)) if dw else 1000.0)


def _boxes(content: bytes, fonts: dict[bytes, _Font]) -> list[Box]:
    boxes = []
    for placed in PLACED.finditer(content):
        a, b, c, d, e, f = (float(v) for v in placed.group(1).split())
        if abs(b) > 1e-6 or abs(c) > 1e-6:
            raise ValueError(f"rotated text is not read: {placed.group(1)!r}")
        font, size, line_x, line_y = None, 0.0, 0.0, 0.0
        text, left, right = "", None, None
        for op in OPERATION.finditer(placed.group(2)):
            if op.group(1):
                font, size = fonts[op.group(1)], float(op.group(2))
            elif op.group(3):
                line_x, line_y = line_x + float(op.group(3)), line_y + float(op.group(4))
                x = line_x
            elif font is not None:
                x = line_x if left is None or x is None else x
                for piece in PIECE.finditer(op.group(5)):
                    if piece.group(2):  # kerning: thousandths of the size, leftwards
                        x -= float(piece.group(2)) * size / 1000
                        continue
                    raw = _literal(piece.group(1))
                    for i in range(0, len(raw) - 1, 2):
                        code = int.from_bytes(raw[i : i + 2], "big")
                        text += font.chars.get(code, "?")
                        x += font.widths.get(code, font.default) * size / 1000
                start = a * line_x + e
                left = start if left is None else min(left, start)
                right = a * x + e if right is None else max(right, a * x + e)
        if left is not None and right is not None:
            boxes.append(Box(text, left, right, d * line_y + f))
    return boxes


def text_boxes(data: bytes) -> list[Page]:
    """Each page's size and the boxes of the text drawn on it, in page order."""
    objects = _objects(data)
    root = re.search(rb"/Type\s*/Pages\b.*?/Kids\s*\[([^\]]*)\]", data, re.S)
    pages = []
    for number in [int(n) for n in re.findall(REF, root.group(1))] if root else []:
        body = objects[number]
        size = re.search(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]", body)
        if size is None:
            raise ValueError(f"page object {number} has no MediaBox")
        resources = body
        ref = re.search(rb"/Resources\s+" + REF, body)
        if ref:
            resources = objects[int(ref.group(1))]
        font_dict = resources
        ref = re.search(rb"/Font\s+" + REF, resources)
        if ref:
            font_dict = objects[int(ref.group(1))]
        fonts = {
            name: _font(objects, int(font)) for name, font in re.findall(rb"/(F\w*)\s+" + REF, font_dict)
        }
        contents = re.search(rb"/Contents\s+" + REF, body)
        stream = _stream(objects[int(contents.group(1))]) if contents else b""
        x0, y0, x1, y1 = (float(v) for v in size.groups())
        pages.append(Page(x1 - x0, y1 - y0, tuple(_boxes(stream, fonts))))
    return pages
