"""A value as a message may quote it: cut to a length, so a huge input
never makes a huge message. Imports nothing of the project."""

from __future__ import annotations

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
