"""QR codes of a page's address: an SVG for the host's console (a seat
phone's link) and text for the terminal (the console's link)."""

from __future__ import annotations

import io

import qrcode  # type: ignore[import-untyped]
from qrcode.image.svg import SvgPathImage  # type: ignore[import-untyped]

BORDER = 2  # squares of quiet zone around the code


def qr_svg(url: str) -> bytes:
    image = qrcode.make(url, image_factory=SvgPathImage, border=BORDER)
    return bytes(image.to_string())


def qr_text(url: str) -> str:
    """A QR code in text for a dark terminal: its dark squares are the terminal's background."""
    code = qrcode.QRCode(border=BORDER)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue().rstrip("\n")
