"""What the engine gives back: events (what happened, for the record and the
screen) and effects (what the runtime must do: say, time, show)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.roles import Role, Team

# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class PhaseStarted:
    TYPE: ClassVar[str] = "phase_started"
    phase: str
    day: int
    seat: int | None = None  # the speaker, or the woken role's step has none
    role: Role | None = None  # the role woken (its seat is never given)


@dataclass(frozen=True, kw_only=True)
class NominationAccepted:
    TYPE: ClassVar[str] = "nomination_accepted"
    day: int
    seat: int
    target: int
    replaced: int | None = None


@dataclass(frozen=True, kw_only=True)
class NominationWithdrawn:
    TYPE: ClassVar[str] = "nomination_withdrawn"
    day: int
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class SpeechSkipped:
    TYPE: ClassVar[str] = "speech_skipped"
    day: int
    seat: int


@dataclass(frozen=True, kw_only=True)
class SpeechesEnded:
    TYPE: ClassVar[str] = "speeches_ended"
    day: int
    candidates: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class VoteTaken:
    TYPE: ClassVar[str] = "vote_taken"
    seat: int
    candidate: int | None  # None in the all-leave question


@dataclass(frozen=True, kw_only=True)
class VoteCounted:
    """A round's result. ``counts`` pairs each candidate with his votes; in
    the all-leave question the single pair is (0, votes for)."""

    TYPE: ClassVar[str] = "vote_counted"
    day: int
    kind: str
    counts: tuple[tuple[int, int], ...]
    voters: tuple[tuple[int, tuple[int, ...]], ...]  # who pressed, per candidate
    nobody: int | None = None  # 003: the votes for "kill nobody" (the non-voters)


@dataclass(frozen=True, kw_only=True)
class Tie:
    TYPE: ClassVar[str] = "tie"
    day: int
    seats: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class NoVote:
    TYPE: ClassVar[str] = "no_vote"
    day: int
    reason: str  # no_candidates | single_candidate_day_one | cancelled | nobody (003) | tie_again (003)


@dataclass(frozen=True, kw_only=True)
class FoulGiven:
    TYPE: ClassVar[str] = "foul_given"
    seat: int
    count: int
    by: str = "host"  # host | device (engine.inputs.Foul)
    word: str = ""  # what the device heard


@dataclass(frozen=True, kw_only=True)
class Silenced:
    TYPE: ClassVar[str] = "silenced"
    seat: int
    day: int  # the day whose speech he loses


@dataclass(frozen=True, kw_only=True)
class PlayerLeft:
    TYPE: ClassVar[str] = "player_left"
    seat: int
    how: str  # vote | shot | disqualified
    day: int | None = None
    night: int | None = None


@dataclass(frozen=True, kw_only=True)
class RoleRevealed:
    """A role made public during the game (event: the killed player's card)."""

    TYPE: ClassVar[str] = "role_revealed"
    seat: int
    role: Role


@dataclass(frozen=True, kw_only=True)
class ShotTaken:
    """Private (host view only): a black seat's shot."""

    TYPE: ClassVar[str] = "shot_taken"
    night: int
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class CheckMade:
    """Private (host view only): a night check and its answer."""

    TYPE: ClassVar[str] = "check_made"
    night: int
    by: Role
    seat: int
    target: int
    result: bool


@dataclass(frozen=True, kw_only=True)
class VisitMade:
    """Private (host view only): a Doctor's heal or a Lover's visit (003);
    ``ignored`` names the rule that made it count for nothing."""

    TYPE: ClassVar[str] = "visit_made"
    night: int
    by: Role
    seat: int
    target: int
    ignored: str | None = None  # self_again | same_as_last_night


@dataclass(frozen=True, kw_only=True)
class LifeSaved:
    """Private: the Doctor healed the mafia's victim (the morning says only that he saved a life)."""

    TYPE: ClassVar[str] = "life_saved"
    night: int
    seat: int


@dataclass(frozen=True, kw_only=True)
class AlibiRefused:
    """A nomination of a player with the Lover's alibi for this day (003)."""

    TYPE: ClassVar[str] = "alibi_refused"
    day: int
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class NamedOutOfGame:
    """A nomination in the city's round of a player already out of the game:
    the caller is told «Игрок номер N выбыл» and may name another."""

    TYPE: ClassVar[str] = "named_out_of_game"
    day: int
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class GoldenMinuteTaken:
    TYPE: ClassVar[str] = "golden_minute_taken"
    day: int
    seat: int


@dataclass(frozen=True, kw_only=True)
class BestMoveMade:
    """A best move accepted (the last one made counts). Public: the seats
    were said aloud; how many of them are black is told after the game."""

    TYPE: ClassVar[str] = "best_move_made"
    night: int  # the night he was killed (the first night of shooting)
    seat: int
    seats: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class GameEnded:
    TYPE: ClassVar[str] = "game_ended"
    winner: Team
    reason: str
    roles: tuple[tuple[int, Role], ...]


Event = (
    PhaseStarted
    | NominationAccepted
    | NominationWithdrawn
    | SpeechSkipped
    | SpeechesEnded
    | VoteTaken
    | VoteCounted
    | Tie
    | NoVote
    | FoulGiven
    | Silenced
    | PlayerLeft
    | RoleRevealed
    | ShotTaken
    | CheckMade
    | VisitMade
    | LifeSaved
    | AlibiRefused
    | NamedOutOfGame
    | GoldenMinuteTaken
    | BestMoveMade
    | GameEnded
)

# --------------------------------------------------------------- effects


@dataclass(frozen=True, kw_only=True)
class Say:
    """Say a phrase of the catalogue (a key, never text) with its slots."""

    TYPE: ClassVar[str] = "say"
    phrase: str
    seat: int | None = None
    seats: tuple[int, ...] = ()
    count: int | None = None
    seconds: int | None = None
    role: Role | None = None
    team: Team | None = None
    word: str | None = None  # a forbidden word the device heard (foul_heard)


@dataclass(frozen=True, kw_only=True)
class StartTimer:
    """Start the one step timer; Advance when it runs out."""

    TYPE: ClassVar[str] = "start_timer"
    seconds: int
    purpose: str  # agreement | speech | tie_speech | last_word


@dataclass(frozen=True, kw_only=True)
class StopTimer:
    TYPE: ClassVar[str] = "stop_timer"


@dataclass(frozen=True, kw_only=True)
class ShowCheck:
    """Private: show a check's answer to the checker alone (his own LED)."""

    TYPE: ClassVar[str] = "show_check"
    seat: int
    result: bool


Effect = Say | StartTimer | StopTimer | ShowCheck
Output = Event | Effect
