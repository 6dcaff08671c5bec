"""A player's figures over the finished games: one pure function of the
records (``build.records``), his roster id and the scoring table. The
/player/ID page and ``host-device players stats NAME`` both show these."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.roles import Role, Team
from host_device.club.record import GameRecord, SeatRecord
from host_device.club.scoring import Table, points


@dataclass(frozen=True)
class RoleRecord:
    games: int = 0
    wins: int = 0


@dataclass(frozen=True)
class PlayerStats:
    player: str
    games: int = 0
    wins: int = 0
    roles: dict[Role, RoleRecord] = field(default_factory=dict)  # only roles he has played
    points: float = 0.0
    best_moves: dict[int, int] = field(default_factory=dict)  # black seats named -> times (0 … 3)
    best_move_points: float = 0.0
    killed_first: int = 0  # times he was the first killed at night
    fouls: int = 0
    device_fouls: int = 0  # of them, given by the device for what it heard (docs/fouls.md)
    disqualified: int = 0
    votes: int = 0  # his ballots for a candidate (the all-leave question not counted)
    votes_against_black: int = 0
    red_votes: int = 0  # the same, in the games he played red
    red_votes_against_black: int = 0

    @property
    def best_move_count(self) -> int:
        return sum(self.best_moves.values())

    @property
    def against_black(self) -> float | None:
        """The share of his day votes cast against black players (None: no votes)."""
        return self.votes_against_black / self.votes if self.votes else None

    @property
    def red_against_black(self) -> float | None:
        return self.red_votes_against_black / self.red_votes if self.red_votes else None

    @property
    def average(self) -> float | None:
        return self.points / self.games if self.games else None


def first_killed(record: GameRecord) -> int | None:
    """The seat of the first player shot at night (None: nobody was)."""
    shot = [s for s in record.seats if s.left is not None and s.left.how == "shot"]
    shot.sort(key=lambda s: s.left.night if s.left and s.left.night is not None else 0)
    return shot[0].seat if shot else None


def player_stats(records: Iterable[GameRecord], player_id: str, table: Table) -> PlayerStats:
    """His figures over the finished ``records`` (an unfinished one is left out)."""
    games = wins = killed = fouls = device_fouls = disqualified = 0
    votes = against = red_votes = red_against = 0
    total = best_points = 0.0
    roles: dict[Role, RoleRecord] = {}
    best: dict[int, int] = {}
    for record in records:
        seat = _his_seat(record, player_id)
        if seat is None or record.winner is None:
            continue
        won = seat.team is record.winner
        games += 1
        wins += won
        was = roles.get(seat.role, RoleRecord())
        roles[seat.role] = RoleRecord(was.games + 1, was.wins + won)
        scored = points(record, table)[seat.seat]
        total += scored.total
        if record.best_move is not None and record.best_move.seat == seat.seat:
            best[record.best_move.black] = best.get(record.best_move.black, 0) + 1
            best_points += scored.best_move
        killed += first_killed(record) == seat.seat
        fouls += seat.fouls
        device_fouls += sum(
            f.seat == seat.seat and f.by == "device" and not f.withdrawn for f in record.fouls
        )
        disqualified += seat.left is not None and seat.left.how == "disqualified"
        for ballot in record.ballots:
            if ballot.voter != seat.seat or ballot.target is None:
                continue
            black = record.seat(ballot.target).team is Team.BLACK
            votes += 1
            against += black
            if seat.team is Team.RED:
                red_votes += 1
                red_against += black
    return PlayerStats(
        player=player_id,
        games=games,
        wins=wins,
        roles=roles,
        points=round(total, 6),
        best_moves=best,
        best_move_points=round(best_points, 6),
        killed_first=killed,
        fouls=fouls,
        device_fouls=device_fouls,
        disqualified=disqualified,
        votes=votes,
        votes_against_black=against,
        red_votes=red_votes,
        red_votes_against_black=red_against,
    )


def _his_seat(record: GameRecord, player_id: str) -> SeatRecord | None:
    return next((s for s in record.seats if s.player == player_id), None)
