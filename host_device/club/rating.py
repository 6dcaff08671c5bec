"""The club's rating: Elo, team against team, replayed over the finished
games in the order they were played (docs/club.md has the formula and a
worked example). Recomputed from the records every time, never stored.
A club's scoring table may choose mafiaratings' rating instead
(:func:`replay_mafiaratings`, ``[rating] method = "mafiaratings"``).

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


# mafiaratings' K by the class of the event, (a winner's, a loser's): include/game_ratings.php
# (github.com/szotin/mafiaratings, read 2026-12 at 0ab7207), halved in a game of under ten players
# (`count($players) < 10`): club 4/3 (2/1.5), tournament 16/12 (8/6), elite 64/48 (32/24)
MAFIARATINGS_K = {"club": (4.0, 3.0), "tournament": (16.0, 12.0), "elite": (64.0, 48.0)}


def replay_mafiaratings(
    records: Iterable[GameRecord], games: str = "club", start: float = START
) -> list[Change]:
    """mafiaratings' rating (include/game_ratings.php ``update_game_ratings``), every rated seat's
    change in the order given. Each player has a red and a black rating beside his total, all from
    0 (shown from ``START``, their USER_INITIAL_RATING 1000); each team averages its players' rating
    of its own side, and

        $civ_odds = 1.0 / (1.0 + pow(10.0, ($maf_sum / $maf_count - $civ_sum / $civ_count) / 400));
        red:   won ? $WINNING_K * (1 - $civ_odds) : - $LOOSING_K * $civ_odds
        black: won ? $WINNING_K * $civ_odds       : $LOOSING_K * ($civ_odds - 1)

    goes to his total and to his rating of that side, unrounded. A seat with no roster id is no
    rated player and counts in no average (a team of none averages 0); K by ``games``, their class."""
    total: dict[str, float] = {}
    side: dict[tuple[str, Team], float] = {}
    changes = []
    for record in records:
        if record.winner is None:
            continue
        win_k, lose_k = MAFIARATINGS_K[games]
        if len(record.seats) < 10:
            win_k, lose_k = win_k / 2, lose_k / 2
        rated = {}
        for seat in record.seats:
            if seat.player is not None and seat.player not in rated:
                rated[seat.player] = seat
        average = {}
        for team in Team:
            values = [side.get((p, team), 0.0) for p, s in rated.items() if s.team is team]
            average[team] = sum(values) / len(values) if values else 0.0
        red_odds = 1.0 / (1.0 + float(10.0 ** ((average[Team.BLACK] - average[Team.RED]) / SCALE)))
        for player, seat in rated.items():
            won = seat.team is record.winner
            if seat.team is Team.RED:
                delta = win_k * (1 - red_odds) if won else -lose_k * red_odds
            else:
                delta = win_k * red_odds if won else lose_k * (red_odds - 1)
            before = start + total.get(player, 0.0)
            total[player] = total.get(player, 0.0) + delta
            side[(player, seat.team)] = side.get((player, seat.team), 0.0) + delta
            e = red_odds if seat.team is Team.RED else 1 - red_odds
            changes.append(
                Change(record.id, player, seat.seat, seat.team, e, before, start + total[player], won)
            )
    return changes


def rating_name(method: str = "club", games: str = "club") -> str:
    """What the pages and the terminal call the rating the club chose."""
    if method == "mafiaratings":
        kind = {"club": "клубные игры", "tournament": "турнир", "elite": "элитный турнир"}[games]
        return f"рейтинг mafiaratings ({kind})"
    return "рейтинг клуба (Эло)"


def replay_by(records: Iterable[GameRecord], method: str = "club", games: str = "club") -> list[Change]:
    """The rating a club chose (its scoring table's ``[rating]``): the club's Elo or mafiaratings'."""
    return replay_mafiaratings(records, games) if method == "mafiaratings" else replay(records)


def ratings(
    records: Iterable[GameRecord],
    k: float = K,
    start: float = START,
    method: str = "club",
    games: str = "club",
) -> dict[str, Rating]:
    """Each rated player's rating after the last game, with his games and wins."""
    out: dict[str, Rating] = {}
    changes = (
        replay_mafiaratings(records, games, start) if method == "mafiaratings" else replay(records, k, start)
    )
    for change in changes:
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
