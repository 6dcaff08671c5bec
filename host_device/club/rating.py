"""The club's rating: Elo, team against team, replayed over the finished
games in the order they were played (docs/club.md has the formula and a
worked example). Recomputed from the records every time, never stored.

For a game, each team's average is the mean of its rated players' ratings
(a team with none counts as ``START``); every player of a team has the same
expected result, ``E = 1 / (1 + 10 ** ((opponents - own) / 400))``, scores
``S`` = 1 for a win and 0 for a loss, and moves by ``K * (S - E)``. A seat
without a roster id is not rated and does not count in the averages; a new
player starts at ``START``; an unfinished game is not rated."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.roles import Team
from host_device.club.record import GameRecord

START = 1000.0
K = 20.0  # points a rating moves at most in one game
SCALE = 400.0  # a difference of SCALE between the teams' averages: 10 to 1 expected


@dataclass(frozen=True)
class Change:
    game: int
    player: str
    seat: int
    team: Team
    expected: float
    before: float
    after: float
    won: bool


@dataclass(frozen=True)
class Rating:
    player: str
    rating: float
    games: int
    wins: int


def expected(own: float, opponents: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** ((opponents - own) / SCALE)))


def replay(records: Iterable[GameRecord], k: float = K, start: float = START) -> list[Change]:
    """Every rated seat's change in every finished game, in the order given
    (``build.records`` gives them oldest first)."""
    now: dict[str, float] = {}
    changes = []
    for record in records:
        if record.winner is None:
            continue
        rated = {}  # player -> his seat (a player listed at two seats counts once, at the first)
        for seat in record.seats:
            if seat.player is not None and seat.player not in rated:
                rated[seat.player] = seat
        average = {}
        for team in Team:
            values = [now.get(p, start) for p, s in rated.items() if s.team is team]
            average[team] = sum(values) / len(values) if values else start
        for player, seat in rated.items():
            other = Team.BLACK if seat.team is Team.RED else Team.RED
            e = expected(average[seat.team], average[other])
            won = seat.team is record.winner
            before = now.get(player, start)
            now[player] = after = before + k * ((1.0 if won else 0.0) - e)
            changes.append(Change(record.id, player, seat.seat, seat.team, e, before, after, won))
    return changes


def ratings(records: Iterable[GameRecord], k: float = K, start: float = START) -> dict[str, Rating]:
    """Each rated player's rating after the last game, with his games and wins."""
    out: dict[str, Rating] = {}
    for change in replay(records, k, start):
        was = out.get(change.player, Rating(change.player, start, 0, 0))
        out[change.player] = Rating(change.player, change.after, was.games + 1, was.wins + change.won)
    return out


def standings(
    table: Mapping[str, Rating], points: Mapping[str, float] | None = None
) -> list[tuple[int, Rating]]:
    """The leaderboard: highest rating first, as it is shown (to a tenth); an
    equal rating goes by more ``points`` (each player's total by the club's
    table of points); a place is shared only by an equal rating and equal
    points (those are listed by more games, then by id, for a stable order)."""
    points = points or {}

    def rank(r: Rating) -> tuple[float, float]:
        return round(r.rating, 1), round(points.get(r.player, 0.0), 6)

    order = sorted(table.values(), key=lambda r: (*(-v for v in rank(r)), -r.games, r.player))
    out: list[tuple[int, Rating]] = []
    for index, item in enumerate(order):
        tied = out and rank(out[-1][1]) == rank(item)
        out.append((out[-1][0] if tied else index + 1, item))
    return out
