"""What a page's address may carry: a number of a seat or a game is at most
18 digits (below SQLite's 2**63, and far below the 4,300 digits past which
Python's ``int()`` raises), so a longer one matches no route (404) instead of
failing inside it (500); a name (a player's id, a tournament's) has no
control character (a NUL is refused by PostgreSQL with an error) and is at
most :data:`NAME_CHARS` long."""

from __future__ import annotations

import unicodedata

from starlette.convertors import Convertor, register_url_convertor

NUMBER_DIGITS = 18
NAME_CHARS = 200  # a tournament's or a player's name, or an id, is far shorter
QUERY_CHARS = 64  # a filter's value (a date, a round, a preset's name)


class NumberConvertor(Convertor[int]):
    """``{seat:number}``: 1 to 18 ASCII digits."""

    regex = f"[0-9]{{1,{NUMBER_DIGITS}}}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("number", NumberConvertor())


def readable(text: str, limit: int = NAME_CHARS) -> bool:
    """A name or a query's value that may be looked up: not too long, no control
    character (C0, C1, DEL: a NUL among them) and no lone surrogate."""
    return len(text) <= limit and not any(unicodedata.category(c) in ("Cc", "Cs") for c in text)
