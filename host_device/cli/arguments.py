"""Argument types shared by the commands: each refuses a bad value in one
line that names it (argparse turns ArgumentTypeError into a usage error)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from engine.presets import MAX_SEATS, TABLE_SIZES
from host_device.base.text import shorten

MAX_GAME_ID = 2**63 - 1  # SQLite's largest row id


def _whole(text: str) -> int | None:
    """A whole number written with the digits 0-9 (not ², ٣ or ３), or None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else None


def game_id(text: str) -> int:
    value = _whole(text)
    if value is None or not 1 <= value <= MAX_GAME_ID:
        raise argparse.ArgumentTypeError(
            f"{shorten(text, 30)!r} — не номер игры (1, 2, 3 …; см.: host-device games list)"
        )
    return value


def seat_number(text: str) -> int:
    value = _whole(text)
    if value is None or not 1 <= value <= MAX_SEATS:
        raise argparse.ArgumentTypeError(f"{shorten(text, 30)!r} — не номер места (от 1 до {MAX_SEATS})")
    return value


def number_in(low: float, high: float, what: str, whole: bool = True) -> Callable[[str], float]:
    """A type for a number from ``low`` to ``high`` (finite; a whole number if ``whole``)."""

    def parse(text: str) -> float:
        try:
            value = float(text) if not whole else float(_whole(text) or math.nan)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            kind = "целое число" if whole else "число"
            quoted = shorten(text, 30)
            raise argparse.ArgumentTypeError(f"{quoted!r}: {what} — {kind} от {low:g} до {high:g}")
        return int(value) if whole else value

    return parse


SPEED = number_in(0.1, 100_000, "--speed", whole=False)  # times faster than life


def table_size(text: str) -> int:
    """The number of seats at a table: any size the rules are played at."""
    value = _whole(text)
    if value is None or value not in TABLE_SIZES:
        raise argparse.ArgumentTypeError(
            f"{shorten(text, 30)!r}: за столом от {TABLE_SIZES[0]} до {MAX_SEATS} мест"
        )
    return value


def extra_points(text: str) -> float | None:
    """The host's extra points as a club writes them (0,3; -0,5; +1; the minus sign too); 0, «-»: none."""
    if text.strip() in ("", "-", "—", "−"):
        return None
    try:
        value = float(text.strip().replace(",", ".").replace("−", "-"))
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            f"{shorten(text, 30)!r} — не доп. баллы (число: 0,3 или -0,5; 0 или «-» — убрать)"
        )
    return value or None
