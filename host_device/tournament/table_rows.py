"""The standings as a table's rows (the terminal, the exports, the venue
screen): the place (equal on the total and every tiebreaker: the same
place), the name, then the figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from host_device.tournament.standings import Standing, tiebreakers

COLUMNS = (  # heading, the Standing's field
    ("место", ""),
    ("игрок", ""),
    ("игр", "games"),
    ("сумма", "total"),
    ("победы", "wins"),
    ("красным", "wins_red"),
    ("чёрным", "wins_black"),
    ("шерифом", "wins_sheriff"),
    ("доном", "wins_don"),
    ("лучший ход", "best_move"),
    ("Ci", "ci"),
    ("доп", "extra"),
    ("штраф", "penalty"),
    ("убит первым", "killed_first"),
)


def table_rows(rows: Sequence[Standing], names: Mapping[str, str]) -> list[list[Any]]:
    order = ("total", *tiebreakers())
    out: list[list[Any]] = []
    place, last = 0, None
    for k, s in enumerate(rows, 1):
        key = tuple(round(s.key(name), 5) for name in order)
        place = place if key == last else k
        last = key
        out.append([place, names.get(s.player, s.player)] + [getattr(s, attr) for _h, attr in COLUMNS[2:]])
    return out
