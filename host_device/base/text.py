"""A value as a message may quote it: cut to a length, so a huge input
never makes a huge message; text from outside made printable. Imports
nothing of the project."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

MARK = "…"  # where a text was cut


def shorten(value: Any, limit: int) -> str:
    """``str(value)``, cut to ``limit`` characters (the last one the mark);
    a huge whole number is said by its size (Python refuses to write one of
    more than 4300 digits)."""
    if isinstance(value, int) and value.bit_length() >= 80:
        return f"(a number of about {int(value.bit_length() * 0.30103)} digits)"
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + MARK


def one_line(text: str, limit: int = 400) -> str:
    """An error message as one line of reasonable length (a value quoted in it may be huge)."""
    return shorten(" ".join(text.split()), limit)


def printable(text: str) -> str:
    """Text typed outside the device (on the console's page, on the terminal)
    as it may be printed and stored: a control character (an ANSI escape, a
    newline, a tab) and a line or paragraph separator (U+2028, U+2029: a
    terminal breaks the line there) are a space, an invisible format one (a
    right-to-left override) is dropped, and what no encoding can write (a
    lone surrogate) is the replacement character."""
    kept = []
    for char in text:
        kind = unicodedata.category(char)
        if kind in ("Cc", "Zl", "Zp"):
            kept.append(" ")
        elif kind == "Cs":
            kept.append("\ufffd")
        elif kind != "Cf":
            kept.append(char)
    return "".join(kept)


def encodable(text: str, encoding: str | None) -> str:
    """``text`` with what ``encoding`` cannot write replaced (a terminal or a
    journal that is not UTF-8): printing it never fails on its characters."""
    encoding = encoding or "utf-8"
    try:
        return text.encode(encoding, "replace").decode(encoding)
    except LookupError:  # an encoding Python does not know: ASCII writes everywhere
        return text.encode("ascii", "replace").decode("ascii")


def columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as a terminal table's lines: each column as wide as its widest cell,
    two spaces between columns, no trailing space."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
