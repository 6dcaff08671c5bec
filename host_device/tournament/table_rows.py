"""The standings as a table's rows (the terminal, the exports, the venue
screen): the place (equal on the total — or the points per game, by the
table — and every tiebreaker: the same place), the name, then the figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from host_device.tournament.standings import Standing

COLUMNS = (  # heading, the Standing's field
    ("место", ""),
    ("игрок", ""),
    ("игр", "games"),
    ("сумма", "total"),
    ("за игру", "average"),
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
    out: list[list[Any]] = []
    place, last = 0, None
    for k, s in enumerate(rows, 1):
        key = s.rank_key()  # the total (or the average, by the table) and the tiebreakers
        place = place if key == last else k
        last = key
        out.append([place, names.get(s.player, s.player)] + [getattr(s, attr) for _h, attr in COLUMNS[2:]])
    return out
