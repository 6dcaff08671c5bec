"""The after-game review's data: a finished game's record as what its page
shows — the seats (names, revealed roles, fouls, how each left, points),
and for each day the vote map (who nominated whom, who voted for whom in
each round, every mark with the teams of voter and target), the nights'
shots and checks, the best move. Pure: a record (and its points) in,
frozen data out; :mod:`host_device.web.club_html` draws it.

Only a finished game has a review: an unfinished one is refused before
this is reached (:class:`Unfinished`), so that nothing here can leak."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.roles import Role, Team
from host_device.base.errors import HostDeviceError
from host_device.club.protocol import departure
from host_device.club.record import FoulRecord, GameRecord, SeatRecord, vote_rounds

ROLE_NAMES = {
    Role.CIVILIAN: "мирный",
    Role.SHERIFF: "шериф",
    Role.COMMISSAR: "комиссар",
    Role.MAFIA: "мафия",
    Role.DON: "дон",
    Role.DOCTOR: "доктор",
    Role.LOVER: "любовница",
}
ROUND_NAMES = {"main": "голосование", "revote": "переголосование", "all": "все уходят?"}
NIGHT_KINDS = {"shot": "выстрел", "check": "проверка", "visit": "визит", "saved": "спасён"}


class Unfinished(HostDeviceError, LookupError):
    """A game still being played: its review does not exist yet."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"Игра {game_id} ещё идёт: её разбор откроется, когда она закончится")
        self.game_id = game_id


@dataclass(frozen=True)
class SeatLine:
    seat: int
    name: str | None
    player: str | None
    role: str  # its Russian name
    team: Team
    fouls: int
    left: str | None  # «ночь 1, убит», «день 2, голосованием» …; None: to the end
    points: float | None


@dataclass(frozen=True)
class Column:
    """One candidate of one round (in the all-leave question: the question)."""

    round: int
    kind: str
    target: int | None
    team: Team | None  # the target's revealed team; None for the all-leave question
    nominated_by: int | None  # who put him up (the day's nomination), if anyone did
    votes: int = 0  # as counted: the presses, and the non-voters' where the rules give them to him


@dataclass(frozen=True)
class Mark:
    voter: int
    column: int  # an index into the day's columns
    voter_team: Team
    target_team: Team | None


@dataclass(frozen=True)
class DayMap:
    day: int
    columns: tuple[Column, ...]
    voters: tuple[int, ...]  # the rows: every seat that voted that day, in seat order
    marks: tuple[Mark, ...]
    nominations: tuple[tuple[int, int], ...]  # (by, target) in order
    silent: tuple[int, ...] = ()  # in the game that day, and never pressed: rows without a mark
    teams: tuple[tuple[int, Team], ...] = ()  # every row's revealed team

    @property
    def rows(self) -> tuple[int, ...]:
        return tuple(sorted({*self.voters, *self.silent}))

    def team(self, seat: int) -> Team:
        return dict(self.teams)[seat]

    def mark(self, voter: int, column: int) -> Mark | None:
        for item in self.marks:
            if item.voter == voter and item.column == column:
                return item
        return None


@dataclass(frozen=True)
class NightLine:
    night: int
    kind: str  # its Russian name
    by: str  # the role's Russian name (the mafia: the team's shot)
    target: int | None  # None: a night nobody shot in («промах»)
    target_team: Team | None
    result: bool | None


@dataclass(frozen=True)
class Review:
    id: int
    preset: str
    started_at: str
    finished_at: str | None
    winner: Team
    seats: tuple[SeatLine, ...]
    days: tuple[DayMap, ...]
    nights: tuple[NightLine, ...]
    best_move: tuple[int, tuple[int, ...], int] | None  # who, the seats he named, how many black
    # each foul: whose, the day, who gave it, the word and what was heard, when; the withdrawn ones marked
    fouls: tuple[FoulRecord, ...] = ()


def left_text(record: GameRecord, seat: SeatRecord) -> str | None:
    """«день 4, голосованием», «ночь 1, убит»: as the protocol says it."""
    return departure(seat.left, record.alone(seat)) or None


def day_map(record: GameRecord, day: int) -> DayMap:
    team = {s.seat: s.team for s in record.seats}
    nominations = tuple((n.by, n.target) for n in record.nominations if n.day == day)
    nominated_by = {target: by for by, target in reversed(nominations)}  # the first to put him up
    ballots = [b for b in record.ballots if b.day == day]
    columns: list[Column] = []
    where: dict[tuple[int, int | None], int] = {}
    for rnd in (r for r in vote_rounds(record) if r.day == day):  # a round nobody pressed in too
        for seat, votes in rnd.counts:  # every candidate of the round, even one nobody voted for
            target = None if rnd.kind == "all" else seat
            where[rnd.round, target] = len(columns)
            columns.append(
                Column(
                    rnd.round,
                    rnd.kind,
                    target,
                    team.get(target) if target is not None else None,
                    nominated_by.get(target) if target is not None else None,
                    votes,
                )
            )
    marks = tuple(
        Mark(b.voter, where[b.round, b.target], team[b.voter], team.get(b.target) if b.target else None)
        for b in ballots
    )
    voters = tuple(sorted({b.voter for b in ballots}))
    silent = (
        tuple(s.seat for s in record.seats if in_game(s, day) and s.seat not in voters) if columns else ()
    )
    teams = tuple((seat, team[seat]) for seat in sorted({*voters, *silent}))
    return DayMap(day, tuple(columns), voters, marks, nominations, silent, teams)


def in_game(seat: SeatRecord, day: int) -> bool:
    """Whether he was still at the table when ``day``'s votes were taken (night N comes after day N)."""
    gone = seat.left
    if gone is None:
        return True
    if gone.night is not None:
        return gone.night >= day
    return gone.day is not None and gone.day >= day


MISSED = "промах"  # a night nobody shot in: its line's kind


def night_lines(record: GameRecord) -> tuple[NightLine, ...]:
    """The nights in order; the mafia's shots at one target on one night are
    one line (its shooters named); a night played without a shot, one line
    «промах» before its checks."""
    team = {s.seat: s.team for s in record.seats}
    lines: list[NightLine] = []
    shot = {a.night for a in record.nights if a.kind == "shot"}
    for night in sorted(set(record.nights_played) - shot):
        lines.append(NightLine(night, MISSED, "мафия", None, None, None))
    shooters: dict[tuple[int, int], list[int]] = {}
    for a in sorted(record.nights, key=lambda a: a.night):
        if a.kind == "shot":
            if (a.night, a.target) in shooters:
                shooters[a.night, a.target] += [a.seat] if a.seat is not None else []
                continue
            shooters[a.night, a.target] = [a.seat] if a.seat is not None else []
        role = ROLE_NAMES.get(a.by, a.by.value)
        if a.kind != "shot" and a.seat is not None:
            role = f"{role} ({a.seat})"
        lines.append(
            NightLine(a.night, NIGHT_KINDS.get(a.kind, a.kind), role, a.target, team[a.target], a.result)
        )
    lines.sort(key=lambda line: line.night)  # stable: a miss before that night's checks
    for index, line in enumerate(lines):
        shot_at = (line.night, line.target) if line.target is not None else None
        seats = shooters.get(shot_at) if shot_at and line.kind == NIGHT_KINDS["shot"] else None
        if seats:
            lines[index] = replace(line, by=f"мафия: {', '.join(map(str, sorted(seats)))}")
        elif line.kind == NIGHT_KINDS["shot"]:
            lines[index] = replace(line, by="мафия")
    return tuple(lines)


def review(record: GameRecord, points: Mapping[int, float] | None = None) -> Review:
    """The review of a finished game; ``points`` by seat (the scoring's)."""
    if record.winner is None:
        raise Unfinished(record.id)
    seats = tuple(
        SeatLine(
            s.seat,
            s.name,
            s.player,
            ROLE_NAMES.get(s.role, s.role.value),
            s.team,
            s.fouls,
            left_text(record, s),
            None if points is None else points.get(s.seat),
        )
        for s in sorted(record.seats, key=lambda s: s.seat)
    )
    days = sorted({r.day for r in vote_rounds(record)} | {n.day for n in record.nominations})
    nights = night_lines(record)
    best = record.best_move
    return Review(
        record.id,
        record.preset,
        record.started_at,
        record.finished_at,
        record.winner,
        seats,
        tuple(day_map(record, day) for day in days),
        nights,
        None if best is None else (best.seat, best.named, best.black),
        record.fouls,
    )
