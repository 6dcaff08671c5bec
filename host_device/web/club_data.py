"""The leaderboard's and a player's page's data, from the finished games'
records: the filters (a period, a preset) read from the address, the
rating replayed (:mod:`host_device.club.rating`), the points
(:mod:`host_device.club.scoring`) and a player's figures
(:mod:`host_device.club.stats`). Pure: records in, frozen data out.

A filter chooses the games: the leaderboard's games, points and rating are
those of the chosen games alone (the rating replayed over them from its
start, as if the club had begun then); with no filter, the club's one
rating over every game."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.roles import Role, Team
from host_device.base.errors import HostDeviceError
from host_device.club.plots import Point, RoleRate
from host_device.club.protocol import local_day
from host_device.club.rating import START, Change, rating_name, ratings, replay_by, standings
from host_device.club.record import GameRecord
from host_device.club.scoring import Table, points, totals
from host_device.club.stats import PlayerStats, player_stats
from host_device.web.review import ROLE_NAMES


class BadFilter(HostDeviceError, ValueError):
    """A filter in the address that cannot be read: one Russian line, 400."""


@dataclass(frozen=True)
class Filters:
    start: datetime.date | None = None  # from (inclusive), by the game's start (UTC)
    end: datetime.date | None = None  # to (inclusive)
    preset: str | None = None

    def keeps(self, record: GameRecord) -> bool:
        day = datetime.date.fromisoformat(
            local_day(record.started_at)
        )  # the evening's date, as the protocol's
        return (
            (self.start is None or day >= self.start)
            and (self.end is None or day <= self.end)
            and (self.preset is None or record.preset == self.preset)
        )


def _date(query: Mapping[str, str], key: str) -> datetime.date | None:
    text = query.get(key, "").strip()
    if not text:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise BadFilter(f"{key}={text!r}: дата читается как ГГГГ-ММ-ДД, например 2026-11-20") from None


def filters_of(query: Mapping[str, str]) -> Filters:
    found = Filters(_date(query, "from"), _date(query, "to"), query.get("preset", "").strip() or None)
    if found.start and found.end and found.start > found.end:
        raise BadFilter(f"from={found.start} позже to={found.end}: поменяйте даты местами")
    return found


@dataclass(frozen=True)
class Row:
    place: int
    player: str
    name: str
    rating: float
    games: int
    wins: int
    points: float


@dataclass(frozen=True)
class Board:
    rows: tuple[Row, ...]
    games: int  # the finished games chosen
    presets: tuple[str, ...]  # every preset the store has (the filter's choices)
    filters: Filters
    rating_name: str = "рейтинг клуба (Эло)"  # which rating the club's table chose


def names(records: Iterable[GameRecord]) -> dict[str, str]:
    """Each player's name as his latest game has it (the roster's, merged entries resolved)."""
    found: dict[str, str] = {}
    for record in records:
        for seat in record.seats:
            if seat.player is not None and seat.name:
                found[seat.player] = seat.name
    return found


def leaderboard(records: Sequence[GameRecord], table: Table, filters: Filters) -> Board:
    chosen = [r for r in records if r.finished and filters.keeps(r)]
    got = totals(chosen, table)
    called = names(records)
    rows = tuple(
        Row(
            place,
            r.player,
            called.get(r.player, r.player[:8]),
            r.rating,
            r.games,
            r.wins,
            got.get(r.player, 0),
        )
        for place, r in standings(ratings(chosen, method=table.rating, games=table.rating_games), got)
    )
    presets = tuple(sorted({r.preset for r in records}))
    return Board(rows, len(chosen), presets, filters, rating_name(table.rating, table.rating_games))


@dataclass(frozen=True)
class GameLine:
    game: int
    date: str
    role: str
    team: Team
    won: bool
    points: float
    rating: float | None  # after the game (None: not rated)


@dataclass(frozen=True)
class PlayerPage:
    player: str
    name: str
    stats: PlayerStats
    rating: float
    games: tuple[GameLine, ...]
    roles: tuple[RoleRate, ...]


class UnknownPlayer(HostDeviceError, LookupError):
    def __init__(self, player: str) -> None:
        super().__init__(f"Игрок {player} не сыграл ни одной оконченной игры в этом хранилище")


def player_page(records: Sequence[GameRecord], player: str, table: Table) -> PlayerPage:
    finished = [r for r in records if r.finished]
    played = [r for r in finished if any(s.player == player for s in r.seats)]
    if not played:
        raise UnknownPlayer(player)
    replayed = replay_by(finished, table.rating, table.rating_games)
    after: dict[int, Change] = {c.game: c for c in replayed if c.player == player}
    lines = []
    for record in played:
        seat = next(s for s in record.seats if s.player == player)
        got = points(record, table).get(seat.seat)
        change = after.get(record.id)
        lines.append(
            GameLine(
                record.id,
                record.started_at[:10],
                ROLE_NAMES.get(seat.role, seat.role.value),
                seat.team,
                seat.team is record.winner,
                got.total if got is not None else 0.0,
                change.after if change is not None else None,
            )
        )
    stats = player_stats(finished, player, table)
    rates = tuple(
        RoleRate(ROLE_NAMES.get(role, role.value), held.games, held.wins, role.team is Team.BLACK)
        for role, held in sorted(stats.roles.items(), key=lambda item: list(Role).index(item[0]))
    )
    rating = next((line.rating for line in reversed(lines) if line.rating is not None), START)
    return PlayerPage(player, names(finished).get(player, player[:8]), stats, rating, tuple(lines), rates)


def day_month(date: str) -> str:
    return f"{date[8:10]}.{date[5:7]}"


def rating_points(page: PlayerPage) -> list[Point]:
    return [Point(day_month(line.date), line.rating) for line in page.games if line.rating is not None]


def points_points(page: PlayerPage) -> list[Point]:
    return [Point(day_month(line.date), line.points) for line in page.games]
