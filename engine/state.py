"""The game state: plain data, compared by value (a replay gives an equal one)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from engine.roles import Role, Team


class Phase(StrEnum):
    ROLES = "roles"  # waiting for the roles
    INTRO_SPEECH = "intro_speech"  # 003 «День спокойствия»: each player introduces himself
    INTRO_MAFIA = "intro_mafia"  # introduction night: the mafia agree
    INTRO_MEET = "intro_meet"  # introduction night: a role meets the host
    MORNING = "morning"  # the night's result is announced
    LAST_WORD = "last_word"
    SPEECH = "speech"
    DISCUSSION = "discussion"  # 003: free discussion for the whole table
    NOMINATION = "nomination"  # 003: each player in turn is asked for his candidate
    JUSTIFICATION = "justification"  # 003: each candidate justifies himself
    GOLDEN_ASK = "golden_ask"  # 003: «Кто берёт золотую минуту?»
    GOLDEN_MINUTE = "golden_minute"  # 003: a candidate's extra minute
    VOTE_ANNOUNCE = "vote_announce"  # speeches are over: the candidates are named
    VOTE = "vote"  # a vote window is open for one candidate
    TIE_SPEECH = "tie_speech"
    NIGHT_HUNT = "night_hunt"
    NIGHT_CHECK = "night_check"
    NIGHT_VISIT = "night_visit"  # 003: the Doctor heals, the Lover visits (step_role)
    GAME_OVER = "game_over"


class RoundKind(StrEnum):
    MAIN = "main"
    REVOTE = "revote"
    ALL = "all"  # "Кто за то, чтобы все голосуемые покинули игру?"


@dataclass
class VoteRound:
    kind: RoundKind
    candidates: tuple[int, ...]
    window: int = 0  # index of the candidate whose window is open
    ballots: dict[int, int] = field(default_factory=dict)  # voter -> candidate (0 in ALL)
    tallies: dict[int, int] = field(default_factory=dict)  # candidate (0 in ALL) -> hands counted by the host

    @property
    def votes(self) -> int:
        """Votes cast in this round so far, pressed or counted."""
        return len(self.ballots) + sum(self.tallies.values())

    @property
    def current(self) -> int:
        return 0 if self.kind is RoundKind.ALL else self.candidates[self.window]

    @property
    def windows(self) -> int:
        return 1 if self.kind is RoundKind.ALL else len(self.candidates)


@dataclass
class State:
    preset: str
    seats: int
    phase: Phase = Phase.ROLES
    roles: dict[int, Role] = field(default_factory=dict)
    out: list[int] = field(default_factory=list)  # seats gone, in order
    day: int = 0  # 0 during the introduction night; night N follows day N
    step_role: Role | None = None  # role woken in INTRO_MEET / NIGHT_CHECK
    fouls: dict[int, int] = field(default_factory=dict)
    silenced: dict[int, int] = field(default_factory=dict)  # seat -> day of lost speech
    opener: int | None = None  # the seat that actually spoke first on opener_day (a silenced one never)
    opener_day: int = 0  # the day whose first turn was given to opener
    speaker: int | None = None
    queue: list[int] = field(default_factory=list)  # speakers after the current one
    nominations: dict[int, int] = field(default_factory=dict)  # nominator -> candidate
    candidates: list[int] = field(default_factory=list)  # in the order accepted
    vote_cancelled: bool = False
    vote_round: VoteRound | None = None
    tied: tuple[int, ...] = ()
    last_words: list[int] = field(default_factory=list)  # still to speak, after speaker
    last_words_then: Phase | None = None  # SPEECH (morning) or NIGHT_HUNT (after a vote)
    shots: list[tuple[int, int]] = field(default_factory=list)  # black shots this night
    checked: list[Role] = field(default_factory=list)  # roles that checked this night
    revealed: dict[int, Role] = field(default_factory=dict)  # roles made public
    golden_used: list[int] = field(default_factory=list)  # seats that have had their golden minute
    golden_asked: list[int] = field(default_factory=list)  # this day's requests, in the order made
    visits: list[tuple[int, Role, int]] = field(default_factory=list)  # (night, role, target) that counted
    visited: list[Role] = field(default_factory=list)  # roles that visited this night (counted or not)
    alibi: dict[int, int] = field(default_factory=dict)  # day -> the seat the Lover's visit protects
    night_killed: int | None = None  # the last night's victim, told in the morning
    night_saved: bool = False  # the Doctor saved the last night's victim
    best_move_seat: int | None = None  # who named a best move (the first night's victim)
    best_move: tuple[int, ...] = ()  # the three seats he named (his last statement)
    winner: Team | None = None

    def clone(self) -> State:
        """A copy that shares nothing mutable with this state (the containers
        hold only ints, enums and tuples, so one level of copying is enough)."""
        rnd = self.vote_round
        return replace(
            self,
            roles=dict(self.roles),
            out=list(self.out),
            fouls=dict(self.fouls),
            silenced=dict(self.silenced),
            queue=list(self.queue),
            nominations=dict(self.nominations),
            candidates=list(self.candidates),
            vote_round=(
                None if rnd is None else replace(rnd, ballots=dict(rnd.ballots), tallies=dict(rnd.tallies))
            ),
            last_words=list(self.last_words),
            shots=list(self.shots),
            checked=list(self.checked),
            revealed=dict(self.revealed),
            golden_used=list(self.golden_used),
            golden_asked=list(self.golden_asked),
            visits=list(self.visits),
            visited=list(self.visited),
            alibi=dict(self.alibi),
        )

    def alive(self) -> list[int]:
        return [seat for seat in range(1, self.seats + 1) if seat not in self.out]

    def role(self, seat: int) -> Role:
        return self.roles.get(seat, Role.CIVILIAN)
