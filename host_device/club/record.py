"""A finished (or unfinished) stored game as the club's record: plain frozen
data, built from the store by :func:`record_of` (the game replayed; nothing
here is stored as truth). Everything the scoring table, the rating, the
review page, the protocol and a player's figures read comes from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.inputs import Foul
from engine.presets import PRESETS, SingleCandidate
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
class VoteRound:
    """One round of a day's vote as it was counted, whether anyone pressed or
    not: each candidate with his votes in the order the round took them (the
    non-voters' votes counted for the last candidate where the rules say so;
    in the all-leave question the one pair is (0, votes for)), and in the
    city the votes for killing nobody."""

    day: int
    round: int  # 1, 2 … the rounds of that day in order
    kind: str  # engine.outputs.VoteCounted.kind
    counts: tuple[tuple[int, int], ...]
    nobody: int | None = None

    @property
    def candidates(self) -> tuple[int, ...]:
        return () if self.kind == "all" else tuple(seat for seat, _ in self.counts)


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
    host, or the device for what it heard) and what it heard, and when;
    what a referee reviews of a heard word (engine.inputs.Foul: the
    utterance, the recogniser's confidence in each of its words, the moment
    in the speech); and whether it was withdrawn (a device's foul taken
    back: kept for the referee, counted nowhere). A record from before them
    has none."""

    seat: int
    day: int  # the game's day (0: the introduction night)
    by: str  # host | device (engine.inputs.Foul.by)
    word: str = ""  # what the device heard («честно», …, «время»); "" for a host's foul
    at: float = 0.0  # the game's time, seconds from its start (the store's input time)
    heard: str = ""  # the words of the utterance that held it, joined by spaces
    confidence: tuple[float, ...] = ()  # one a word of ``heard`` (0 … 1)
    speech_s: float | None = None  # seconds into the speech's time
    withdrawn: bool = False  # undone (the console's «снять», the host's «Отмена»): no foul

    @classmethod
    def of(cls, foul: Foul, day: int, at: float = 0.0, withdrawn: bool = False) -> FoulRecord:
        """The record of a foul input given on ``day`` at the game's time ``at``."""
        return cls(
            foul.seat, day, foul.by, foul.word, at, foul.heard, foul.confidence, foul.speech_s, withdrawn
        )


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
    rounds: tuple[VoteRound, ...] = ()  # every vote counted, pressed or not (see vote_rounds)
    nights_played: tuple[int, ...] = ()  # every night that ended (its morning came), shots or none
    best_move: BestMove | None = None
    extras: Mapping[int, float] = field(default_factory=dict)  # seat -> the host's extra points
    uuid: str | None = None  # the game's UUID (its key in the club's database); None: not known
    # every foul in order (SeatRecord.fouls counts them), and the device's withdrawn ones among them
    fouls: tuple[FoulRecord, ...] = ()

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def alone(self, seat: SeatRecord) -> bool:
        """Whether ``seat`` left as his day's lone candidate, without a vote
        (classic after its first day: the rules' ``single_candidate_later``)."""
        left, preset = seat.left, PRESETS.get(self.preset)
        if left is None or left.how != "vote" or preset is None:
            return False
        lone = {n.target for n in self.nominations if n.day == left.day} == {seat.seat}
        return lone and preset.single_candidate_later is SingleCandidate.LEAVES

    def seat(self, number: int) -> SeatRecord:
        for item in self.seats:
            if item.seat == number:
                return item
        raise KeyError(number)


def vote_rounds(record: GameRecord) -> tuple[VoteRound, ...]:
    """The record's rounds of votes, in order. A record made before they were
    kept (the club database's older data, or made by hand) has them read from
    its ballots: a round nobody pressed in is then unknown, and the counts are
    the presses only (with the day's nominees in its first round)."""
    if record.rounds or not record.ballots:
        return record.rounds
    found = []
    for day, number, kind in sorted({(b.day, b.round, b.kind) for b in record.ballots}):
        cast = [b for b in record.ballots if (b.day, b.round) == (day, number)]
        if kind == "all":
            found.append(VoteRound(day, number, kind, ((0, len(cast)),)))
            continue
        named = [n.target for n in record.nominations if n.day == day] if number == 1 else []
        seats = dict.fromkeys([*named, *sorted({b.target for b in cast if b.target is not None})])
        counts = tuple((seat, sum(b.target == seat for b in cast)) for seat in seats)
        found.append(VoteRound(day, number, kind, counts))
    return tuple(found)
