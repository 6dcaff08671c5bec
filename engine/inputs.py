"""What the engine is told: small frozen dataclasses, one per kind of input.

Each serialises as ``{"type": ..., ...}`` (see :mod:`engine.serial`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.roles import Role


@dataclass(frozen=True, kw_only=True)
class DealRoles:
    """The roles of the seats with a special role (the rest are civilians).

    Randomness stays outside the engine: the runtime deals, or registers
    cards, and hands the result in as this input.
    """

    TYPE: ClassVar[str] = "deal_roles"
    roles: tuple[tuple[int, Role], ...]


@dataclass(frozen=True, kw_only=True)
class Advance:
    """The current step is over: a timer ran out, the speaker said "Спасибо",
    the host closed a vote window ("Спасибо"), a night step's time is up."""

    TYPE: ClassVar[str] = "advance"


@dataclass(frozen=True, kw_only=True)
class Nominate:
    TYPE: ClassVar[str] = "nominate"
    seat: int  # the speaker
    target: int


@dataclass(frozen=True, kw_only=True)
class Withdraw:
    TYPE: ClassVar[str] = "withdraw"
    seat: int  # the speaker
    target: int


@dataclass(frozen=True, kw_only=True)
class Vote:
    """A press during the open vote window: a vote for the current candidate
    (or "for" in the all-leave question)."""

    TYPE: ClassVar[str] = "vote"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Tally:
    """The votes of the open window counted by a human host (hands, no
    buttons): ``count`` players voted for the current candidate (or "for" in
    the all-leave question). It closes the window, as «Спасибо» does."""

    TYPE: ClassVar[str] = "tally"
    count: int


FOUL_GIVERS = ("host", "device")  # who may give a foul (Foul.by)


@dataclass(frozen=True, kw_only=True)
class Foul:
    """A foul («замечание») to ``seat``. ``by``: who gave it, the host
    ("host": a human host's key, a script's line) or the device ("device":
    a forbidden word it heard, a speech it heard go on after «Время!»);
    ``word``: what it heard («честно», …, or "время"), "" for a host's foul.

    The evidence a referee reviews (a foul for a heard word: the device's,
    or one the host accepted from the device's proposal): ``heard``, the
    words of the utterance that held it, joined by spaces; ``confidence``,
    the recogniser's confidence in each of them (0 … 1, one a word of
    ``heard``; none for typed words); ``speech_s``, how far into the speech
    (seconds from the start of its time) it was said. A foul stored before
    they were kept reads back with none of them."""

    TYPE: ClassVar[str] = "foul"
    seat: int
    by: str = "host"
    word: str = ""
    heard: str = ""
    confidence: tuple[float, ...] = ()
    speech_s: float | None = None


@dataclass(frozen=True, kw_only=True)
class Shot:
    """A press during the hunt. Presses of seats that do not shoot are taken
    and have no effect, so that nothing outside the engine needs to know who
    the mafia are."""

    TYPE: ClassVar[str] = "shot"
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class Check:
    """A press during a night check. Only the first check of the woken role's
    living player counts; other presses are taken and have no effect."""

    TYPE: ClassVar[str] = "check"
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class Visit:
    """A press during a night visit (003): the Doctor's heal or the Lover's
    visit, by the step's role. Presses of other seats, a second press, or a
    choice the rules forbid are taken and change nothing."""

    TYPE: ClassVar[str] = "visit"
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class GoldenMinute:
    """A candidate asks for his golden minute (003): during his justification
    or when the host asks «Кто берёт золотую минуту?»."""

    TYPE: ClassVar[str] = "golden_minute"
    seat: int


@dataclass(frozen=True, kw_only=True)
class BestMove:
    """The best move («лучший ход»): in his last word the player killed on
    the first night names three seats he believes black. A second statement
    replaces the first until his last word ends."""

    TYPE: ClassVar[str] = "best_move"
    seat: int  # the speaker of the last word
    seats: tuple[int, ...]  # the three seats he names


Input = (
    DealRoles
    | Advance
    | Nominate
    | Withdraw
    | Vote
    | Tally
    | Foul
    | Shot
    | Check
    | Visit
    | GoldenMinute
    | BestMove
)
INPUT_TYPES: tuple[type[Input], ...] = (
    DealRoles,
    Advance,
    Nominate,
    Withdraw,
    Vote,
    Tally,
    Foul,
    Shot,
    Check,
    Visit,
    GoldenMinute,
    BestMove,
)
