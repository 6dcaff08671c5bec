"""The club's part of a game's export (``games export``): who sat where and
each player's points, for a finished game only (before its end the points,
and with them the roles, are secret)."""

from __future__ import annotations

from typing import Any

from host_device.base.names import spreadsheet_cell
from host_device.club.record import GameRecord
from host_device.club.scoring import SeatPoints, Table, points

# the CSV's columns after the inputs' own: who the row's seat is, and on a game's
# "points" rows (one a seat, after its inputs) his points and their breakdown
CSV_FIELDS = ["player", "name", "result", "best_move", "fouls", "disqualified", "extra", "points"]


def breakdown(scored: SeatPoints) -> dict[str, float]:
    return {
        "result": scored.result,
        "best_move": scored.best_move,
        "fouls": scored.fouls,
        "disqualified": scored.disqualified,
        "extra": scored.extra,
        "total": scored.total,
    }


def json_part(record: GameRecord, table: Table) -> dict[str, Any]:
    """The JSON object's club keys: {} for an unfinished game."""
    if not record.finished:
        return {}
    scored = points(record, table)
    best = record.best_move
    return {
        "scoring": table.name,
        "best_move": None
        if best is None
        else {"seat": best.seat, "named": list(best.named), "black": best.black},
        "players": [
            {
                "seat": seat.seat,
                "player": seat.player,
                "name": seat.name,
                "role": seat.role.value,
                "fouls": seat.fouls,
                "points": breakdown(scored[seat.seat]),
            }
            for seat in record.seats
        ],
    }


def csv_who(record: GameRecord, seat: Any) -> list[Any]:
    """The club's columns of an input row: who the row's seat is (finished games only)."""
    if not record.finished or not isinstance(seat, int) or not 1 <= seat <= len(record.seats):
        return [""] * len(CSV_FIELDS)
    return _who(record, seat) + [""] * (len(CSV_FIELDS) - 2)


def _who(record: GameRecord, seat: int) -> list[Any]:
    """A seat's player and name as CSV cells: a name (or an id, kept before the one door) that
    a spreadsheet would run as a formula, behind spaces or look-alike signs too, is text
    (host_device/base/names.py ``spreadsheet_cell``, OWASP's advice)."""
    sat = record.seat(seat)
    return [spreadsheet_cell(sat.player or ""), spreadsheet_cell(sat.name or "")]


def csv_points(record: GameRecord, table: Table) -> list[tuple[int, list[Any]]]:
    """One (seat, club columns) a seat for the game's "points" rows; none before its end."""
    if not record.finished:
        return []
    rows = []
    for seat, scored in sorted(points(record, table).items()):
        parts = breakdown(scored)
        rows.append(
            (
                seat,
                _who(record, seat)
                + [
                    f"{parts[k]:g}"
                    for k in ("result", "best_move", "fouls", "disqualified", "extra", "total")
                ],
            )
        )
    return rows
