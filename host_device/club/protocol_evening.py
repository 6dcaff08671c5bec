"""The evening of a date: its finished games' forms (protocol.py) and the
summary page — every game of the date (an unfinished one named, nothing
else of it), and a row a player: games, wins, points a game, their sum."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from host_device.club.protocol import Page, Table, game_page, local_day
from host_device.club.record import GameRecord
from host_device.club.scoring import SeatPoints
from voices.words import WINS, local_time, number, preset_name

PointsOf = Callable[[GameRecord], Mapping[int, SeatPoints]]


@dataclass(frozen=True)
class Evening:
    day: datetime.date
    summary: Page
    games: tuple[Page, ...]  # one page a finished game, in the order they started


def games_table(records: list[GameRecord]) -> Table:
    """The evening's games in the order they started; an unfinished one is named and nothing else."""
    rows = []
    for r in sorted(records, key=lambda r: (r.started_at, r.id)):
        start = local_time(r.started_at)[11:]
        if r.winner is None:
            rows.append((str(r.id), start, "", "не окончена", ""))
        else:
            rows.append((str(r.id), start, preset_name(r.preset), WINS[r.winner], str(r.days)))
    return Table("Игры вечера", ("№", "Начата", "Правила", "Итог", "Дней"), tuple(rows))


@dataclass
class _Player:
    name: str
    points: dict[int, float | None]  # game -> his points there (None: not scored)
    wins: int = 0

    def total(self) -> float:
        return sum(p for p in self.points.values() if p is not None)


def players_table(finished: list[GameRecord], scored: Mapping[int, Mapping[int, SeatPoints]]) -> Table:
    """A row a player (by his roster id, else his name): games, wins, points a game, their sum."""
    players: dict[str, _Player] = {}
    for r in finished:
        for s in r.seats:
            key = s.player or s.name
            if not key:
                continue
            player = players.setdefault(key, _Player(s.name or key, {}))
            got = scored.get(r.id, {}).get(s.seat)
            player.points[r.id] = got.total if got else None
            player.wins += s.team == r.winner
    ids = [r.id for r in finished]
    ranked = sorted(players.values(), key=lambda p: (-p.total(), p.name))
    rows = []
    for p in ranked:
        cells = [_points_cell(p.points, i) for i in ids]
        scored_any = any(v is not None for v in p.points.values())
        total = number(p.total()) if scored_any else ""
        rows.append((p.name, str(len(p.points)), str(p.wins), *cells, total))
    header = ("Игрок", "Игр", "Побед", *(f"Игра {i}" for i in ids), "Σ баллов")
    return Table("Итоги игроков", header, tuple(rows))


def _points_cell(points: Mapping[int, float | None], game: int) -> str:
    value = points.get(game)
    return number(value) if value is not None else ""


def summary_page(
    day: datetime.date,
    finished: list[GameRecord],
    unfinished: list[GameRecord],
    scored: Mapping[int, Mapping[int, SeatPoints]],
) -> Page:
    unnamed = []
    for r in finished:
        empty = [str(s.seat) for s in r.seats if not (s.player or s.name)]
        if empty:
            unnamed.append(f"игра {r.id} — {'место' if len(empty) == 1 else 'места'} {', '.join(empty)}")
    tables = (games_table([*finished, *unfinished]), players_table(finished, scored))
    notes = (f"Без имени (в итоги не вошли): {'; '.join(unnamed)}.",) if unnamed else ()
    lines = (f"Игр окончено: {len(finished)}; не окончено: {len(unfinished)}",)
    return Page(f"Протокол вечера {day.isoformat()}", lines, tables, notes)


def evening(records: Iterable[GameRecord], day: datetime.date, points: PointsOf) -> Evening:
    """The evening of ``day`` (by each game's local start date); LookupError
    if no game started that day."""
    of_day = sorted(
        (r for r in records if local_day(r.started_at) == day.isoformat()), key=lambda r: (r.started_at, r.id)
    )
    if not of_day:
        raise LookupError(day.isoformat())
    finished = [r for r in of_day if r.finished]
    unfinished = [r for r in of_day if not r.finished]
    scored = {r.id: points(r) for r in finished}
    pages = tuple(game_page(r, scored[r.id]) for r in finished)
    return Evening(day, summary_page(day, finished, unfinished, scored), pages)
