"""A tournament's standings: each player's points over its games, by the
club's scoring table (host_device/club/scoring.py), with per-role figures,
ranked by the total (or, if the table says so, the points per game played)
and then the tiebreakers (data/tiebreakers.toml, mafiaratings' default
order). A table's [round_multipliers] weigh each game by its round. The rating is the club's own, not
mafiaratings' Elo (the pages and exports say so)."""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources

from engine.roles import Role, Team
from host_device.club.record import GameRecord, SeatRecord
from host_device.club.scoring import Table, points

LABEL = "по таблице очков клуба"
KEYS = (
    "total",
    "average",
    "extra",
    "penalty",
    "best_move",
    "wins",
    "special_wins",
    "killed_first",
    "shot_first",
)


@dataclass
class Standing:
    player: str
    games: int = 0
    total: float = 0.0
    result: float = 0.0
    best_move: float = 0.0
    extra: float = 0.0
    penalty: float = 0.0
    wins: int = 0
    wins_red: int = 0
    wins_black: int = 0
    wins_sheriff: int = 0
    wins_don: int = 0
    # shot on night 1 as a red player: mafiaratings' count (include/scoring.php
    # `SUM(IF(p.kill_round = 1 AND p.kill_type = KILL_TYPE_NIGHT AND p.role < 2, 1, 0))`, role < 2:
    # civilian or sheriff), its tiebreaker «k» and the ground of Ci, which is a red player's compensation
    killed_first: int = 0
    shot_first: int = 0  # shot on night 1 whatever his role: Polemica's firstShot, summed over the roles
    ci: float = 0.0  # the compensation of the first killed ([ci] of the table), in the total
    by_round: dict[int, float] = field(default_factory=dict)
    ranked_by: str = "total"  # the table's [standings].rank_by: "total" or "average"
    tiebroken_by: str = "mafiaratings"  # the table's [standings].tiebreakers: whose order

    @property
    def special_wins(self) -> int:
        return self.wins_sheriff + self.wins_don

    @property
    def average(self) -> float:
        """Points per game played (the MAF World Cup's ranking)."""
        return round(self.total / self.games, 6) if self.games else 0.0

    def rank_key(self) -> tuple[float, ...]:
        """What orders the standings, larger first: the total or the average, then the tiebreakers."""
        return tuple(round(self.key(name), 5) for name in (self.ranked_by, *tiebreakers(self.tiebroken_by)))

    def key(self, name: str) -> float:
        return float(sum(getattr(self, part) for part in name.split("+")))


@functools.cache
def tiebreakers(whose: str = "mafiaratings") -> tuple[str, ...]:
    """The tiebreakers after the total, in order (data/tiebreakers.toml): mafiaratings' or Polemica's."""
    text = (resources.files("host_device.tournament") / "data" / "tiebreakers.toml").read_text("utf-8")
    order = tuple(tomllib.loads(text)[whose]["order"])
    for name in order:
        for part in name.split("+"):
            assert part in KEYS, f"tiebreakers.toml: {part}"
    return order


def first_killed_red(seat: SeatRecord) -> bool:
    return (
        seat.team is Team.RED and seat.left is not None and seat.left.how == "shot" and seat.left.night == 1
    )


def ci_points(table: Table, games: int, first_kills: int) -> float:
    """Ci for one game lost after being shot first on night 1 as a red player, by mafiaratings'
    ``max(min(counter(0,1)*0.4/round(counter(0,0)*0.4),0.4),0)``: ``first_kills`` (his first-night
    kills as red in the tournament) times the cap over round(games · share), at most the cap.
    Under three games round(games · 0.4) is 0 (theirs divides by zero): the cap."""
    if table.ci_max is None:
        return 0.0
    whole = math.floor(games * table.ci_share + 0.5)  # PHP's round(): halves away from zero
    if whole == 0:
        return table.ci_max
    return round(max(min(first_kills * table.ci_max / whole, table.ci_max), 0.0), 6)


def standings(games: Iterable[tuple[int, GameRecord]], table: Table) -> list[Standing]:
    """``games``: (round, record); only finished games count. Ranked best first."""
    games = [(r, record) for r, record in games if record.winner is not None]
    played: dict[str, int] = {}
    first: dict[str, int] = {}
    for _r, record in games:
        for seat in record.seats:
            if seat.player is not None:
                played[seat.player] = played.get(seat.player, 0) + 1
                first[seat.player] = first.get(seat.player, 0) + first_killed_red(seat)
    found: dict[str, Standing] = {}
    for round_no, record in games:
        scored = points(record, table)
        weight = table.multiplier(round_no)  # every point of the game, as mafiaratings' round weight
        for seat in record.seats:
            if seat.player is None or seat.seat not in scored:
                continue
            one = scored[seat.seat]
            row = found.setdefault(
                seat.player, Standing(seat.player, ranked_by=table.rank_by, tiebroken_by=table.tiebreakers)
            )
            row.games += 1
            row.total = round(row.total + one.total * weight, 6)
            row.result = round(row.result + one.result * weight, 6)
            row.best_move = round(row.best_move + one.best_move * weight, 6)
            row.extra = round(row.extra + one.extra * weight, 6)
            row.penalty = round(row.penalty + (one.fouls + one.disqualified) * weight, 6)
            ci = 0.0
            if first_killed_red(seat) and seat.team is not record.winner:
                ci = round(ci_points(table, played[seat.player], first[seat.player]) * weight, 6)
            row.ci = round(row.ci + ci, 6)
            row.total = round(row.total + ci, 6)
            game_points = round(one.total * weight + ci, 6)
            row.by_round[round_no] = round(row.by_round.get(round_no, 0.0) + game_points, 6)
            if seat.team is record.winner:
                row.wins += 1
                row.wins_red += seat.team is Team.RED
                row.wins_black += seat.team is Team.BLACK
                row.wins_sheriff += seat.role is Role.SHERIFF
                row.wins_don += seat.role is Role.DON
            row.killed_first += first_killed_red(seat)
            row.shot_first += seat.left is not None and seat.left.how == "shot" and seat.left.night == 1
    return sorted(found.values(), key=lambda s: tuple(-k for k in s.rank_key()))
