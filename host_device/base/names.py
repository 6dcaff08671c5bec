"""One door for every name and id that comes into the box, whatever its way
in: the command line (``players add``, ``tournament create``), a phone, the
console, a seating file, a seating published in the club's database, ``club
pull``, a store recovered. And the guard for text a spreadsheet would run.
Imports nothing of the project but the base.

The rules, decided once:

- a player's name or nickname: control characters (an ANSI or OSC escape,
  BEL, NUL, a newline, a tab) become a space and invisible format ones (a
  right-to-left override, a zero-width space) are dropped — as a name typed
  on a phone or the console always was —, spaces are collapsed; what is left
  must be 1 to :data:`MAX_NAME` characters. A lone surrogate (no encoding can
  write it) is refused, not guessed at.
- a player's id: a UUID (every box and the club's database make one), kept in
  its lower-case form; anything else (``../../etc/passwd``) is refused.
- a tournament's name: its words, one space between, 1 to :data:`MAX_NAME`
  characters; a control, format or separator character is refused, not
  cleaned (the name is a key every box and the club's database look the
  tournament up by: two spellings of one key would be two tournaments), and
  so are «/» and «\\» (the name is one path part of the venue page,
  ``/tournament/NAME``: a browser reads a backslash as a slash) and a name
  that is only «.» or «..» (a browser drops such a part of a path).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.base.text import printable, shorten

MAX_NAME = 60  # characters of a player's name or nickname, and of a tournament's name
MAX_RAW = 1000  # characters of a raw name past which it is refused unread (it can only be too long)
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
NOT_IN_TOURNAMENT_NAME = "/\\"
# control, format, surrogate, line and paragraph separators, private use, unassigned
HIDDEN_KINDS = ("Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn")


class BadName(HostDeviceError, ValueError):
    """A name or an id the box does not take; its message is one line naming it."""


def quoted(text: Any, limit: int = 30) -> str:
    """A value as a refusal quotes it: printable, one line, short."""
    return shorten(" ".join(printable(str(text)).split()), limit)


def terminal(text: Any) -> str:
    """Text kept by the box (maybe before these rules, or by hand) as a terminal or a page may
    show it: no control or invisible character, one line, its words one space apart."""
    shown = str(text)
    if shown.isprintable() and shown == " ".join(shown.split()):
        return shown
    return " ".join(printable(shown).split())


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def player_name(text: Any, what: str = "имя игрока") -> str:
    """A player's name (or, ``what`` «ник», nickname) as the box keeps it; else :class:`BadName`."""
    if not isinstance(text, str):
        raise BadName(f"{what}: не текст ({type(text).__name__})")
    if len(text) > MAX_RAW:
        raise BadName(f"{what} «{quoted(text, 20)}»: длиннее {MAX_NAME} знаков ({len(text)}); сократите")
    if any(unicodedata.category(c) == "Cs" for c in text):
        raise BadName(
            f"{what} «{quoted(text, 20)}» — не текст UTF-8 (одиночный суррогат); наберите его заново"
        )
    name = " ".join(printable(text).split())
    if not name:
        raise BadName(f"{what}: пустое; наберите имя")
    if len(name) > MAX_NAME:
        raise BadName(f"{what} «{shorten(name, 20)}»: длиннее {MAX_NAME} знаков; сократите")
    return name


def player_id(text: Any, what: str = "id игрока") -> str:
    """A player's id as the box keeps it (a UUID, lower case); else :class:`BadName`."""
    if not isinstance(text, str) or not UUID.fullmatch(text):
        raise BadName(
            f"{what} «{quoted(text, 40)}»: не идентификатор игрока (UUID: 32 шестнадцатеричные цифры "
            "группами 8-4-4-4-12 через дефис)"
        )
    return text.lower()


def tournament_name(text: Any) -> str:
    """A tournament's name as the box keeps it and publishes it; else :class:`BadName`."""
    what = "название турнира"
    if not isinstance(text, str):
        raise BadName(f"{what}: не текст ({type(text).__name__})")
    if len(text) > MAX_RAW:
        raise BadName(f"{what} «{quoted(text, 20)}»: длиннее {MAX_NAME} знаков ({len(text)}); сократите")
    name = " ".join(text.split())
    if not name:
        raise BadName("у турнира нет названия; назовите его, например «Осенний кубок»")
    hidden = next((c for c in name if unicodedata.category(c) in HIDDEN_KINDS), None)
    if hidden is not None:
        raise BadName(
            f"{what} «{quoted(name)}»: в нём управляющий или невидимый знак ({_code(hidden)}); "
            "наберите название заново"
        )
    slash = next((c for c in name if c in NOT_IN_TOURNAMENT_NAME), None)
    if slash is not None:
        raise BadName(
            f"{what} «{quoted(name)}»: знак «{slash}» нельзя — название входит в адрес страницы "
            "турнира (/tournament/НАЗВАНИЕ); замените его, например на «-»"
        )
    if name in (".", ".."):
        raise BadName(
            f"{what} «{name}»: из одних точек нельзя (это не адрес страницы); назовите турнир словами"
        )
    if len(name) > MAX_NAME:
        raise BadName(f"{what} «{shorten(name, 20)}»: длиннее {MAX_NAME} знаков; сократите")
    return name


# A spreadsheet cell. OWASP (CSV Injection): a cell beginning with = + - @, a tab or a carriage
# return is a formula to a spreadsheet — prefix an apostrophe. A spreadsheet skips leading
# whitespace and reads fullwidth and small look-alikes of the signs as the signs themselves, so
# the first character that counts is found past whitespace and invisible characters, and read
# in its compatibility form (NFKC: ＝ is =, ﹢ is +); a minus sign (U+2212) counts as a minus.
FORMULA_SIGNS = frozenset("=+-@\u2212")
FORMULA_STARTS = ("\t", "\r", "\n", "\0")  # OWASP's tab and carriage return; a newline and NUL too
PLAIN_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def _first_that_counts(text: str) -> str:
    for char in text:
        if char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp"):
            continue
        return unicodedata.normalize("NFKC", char)[:1]
    return ""


def spreadsheet_cell(value: Any) -> Any:
    """A value as a CSV cell a spreadsheet will not run: text that would be a formula, maybe
    behind whitespace, invisible characters or look-alike signs (`` =1+1``, ``\\u200b=1``,
    ``＝1``), starts with an apostrophe; numbers, and text that is a plain number (``-1``,
    ``0.5``), stay as they are."""
    if not isinstance(value, str) or not value or PLAIN_NUMBER.fullmatch(value):
        return value
    if value.startswith(FORMULA_STARTS) or _first_that_counts(value) in FORMULA_SIGNS:
        return "'" + value
    return value
