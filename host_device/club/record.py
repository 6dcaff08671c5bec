"""A finished (or unfinished) stored game as the club's record: plain frozen
data, built from the store by :func:`record_of` (the game replayed; nothing
here is stored as truth). Everything the scoring table, the rating, the
review page, the protocol and a player's figures read comes from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.roles import Role, Team


@dataclass(frozen=True)
class Departure:
    how: str  # vote | shot | disqualified (engine.outputs.PlayerLeft.how)
    day: int | None = None  # the day he left by day (vote, disqualified by day)
    night: int | None = None  # the night he left at night (shot, disqualified at night)


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    role: Role  # the dealt role (known to the record; shown only once the game has ended)
    player: str | None = None  # the roster's UUID of who sat there, None: nobody named
    name: str | None = None  # his name as the roster has it now (merged entries resolved)
    fouls: int = 0
    left: Departure | None = None  # None: alive at the end

    @property
    def team(self) -> Team:
        return self.role.team


@dataclass(frozen=True)
class Nomination:
    day: int
    by: int
    target: int


@dataclass(frozen=True)
class Ballot:
    """One seat's vote in one round of a day: ``target`` is the candidate he
    voted for; in the all-leave question ``target`` is None and ``kind``
    says so. A seat that did not press in a round has no ballot."""

    day: int
    round: int  # 1, 2 … the rounds of that day in order
    kind: str  # engine.outputs.VoteCounted.kind
    voter: int
    target: int | None


@dataclass(frozen=True)
class NightAction:
    night: int
    kind: str  # shot | check | visit | saved
    by: Role  # MAFIA for the mafia's shot (the team's shot), SHERIFF/DON/COMMISSAR for checks …
    target: int
    result: bool | None = None  # a check's answer (True: the target is what the checker looks for)
    seat: int | None = None  # who acted: the shooter, the checker, the visitor (None: a save)
    ignored: str | None = None  # a visit that counted for nothing (engine.outputs.VisitMade.ignored)


@dataclass(frozen=True)
class BestMove:
    seat: int  # who named them (killed on the first night of shooting)
    named: tuple[int, ...]  # the seats he named, in the order he said them
    black: int  # how many of them were black


@dataclass(frozen=True)
class FoulRecord:
    """One foul as it was given: to whom, on which day, who gave it (the
    host, or the device for what it heard) and what it heard, and when."""

    seat: int
    day: int  # the game's day (0: the introduction night)
    by: str  # host | device (engine.inputs.Foul.by)
    word: str = ""  # what the device heard («честно», …, «время»); "" for a host's foul
    at: float = 0.0  # the game's time, seconds from its start (the store's input time)


@dataclass(frozen=True)
class GameRecord:
    id: int
    started_at: str
    finished_at: str | None
    preset: str
    mode: str
    winner: Team | None  # None: unfinished
    days: int
    seats: tuple[SeatRecord, ...]
    nominations: tuple[Nomination, ...] = ()
    ballots: tuple[Ballot, ...] = ()
    nights: tuple[NightAction, ...] = ()
    best_move: BestMove | None = None
    extras: Mapping[int, float] = field(default_factory=dict)  # seat -> the host's extra points
    uuid: str | None = None  # the game's UUID (its key in the club's database); None: not known
    fouls: tuple[FoulRecord, ...] = ()  # every foul in order (SeatRecord.fouls counts them)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def seat(self, number: int) -> SeatRecord:
        for item in self.seats:
            if item.seat == number:
                return item
        raise KeyError(number)
