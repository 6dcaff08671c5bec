"""Rule presets: every rule choice is a named field, plus a few hooks.

A preset is data. Where the rule texts leave a choice, the choice is a field
here with the source in its comment, so that a new rule set (``city``) is a
new value of :class:`Preset`, not a new machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.errors import UnknownPreset
from engine.roles import BLACK_ROLES, Role


class NonVoters(StrEnum):
    LAST_CANDIDATE = "last_candidate"  # 000, 001, 004
    NOBODY = "nobody"  # 003


class SingleCandidate(StrEnum):
    LEAVES = "leaves"  # he leaves without a vote (004)
    VOTE = "vote"  # he is voted on (001)


@dataclass(frozen=True, kw_only=True)
class CheckRule:
    """A role that wakes each night (after the first) to check one player."""

    checker: Role
    finds: frozenset[Role]


KillRule = Callable[[Sequence[tuple[int, int]], frozenset[int]], int | None]


def unanimous_single_shot(shots: Sequence[tuple[int, int]], shooters: frozenset[int]) -> int | None:
    """The seat killed by the night's shots, or None for a miss.

    ``shots`` are (shooter, target) pairs in the order given; ``shooters`` are
    the living black seats. A kill needs every one of them to have shot exactly
    once, all at the same seat (004: "каждый чёрный игрок за столом совершил
    выстрел только в него"; 000 rule 8: shooting twice is a miss).
    """
    if not shooters:
        return None
    mine = [(shooter, target) for shooter, target in shots if shooter in shooters]
    if sorted(shooter for shooter, _ in mine) != sorted(shooters):
        return None
    targets = {target for _, target in mine}
    return targets.pop() if len(targets) == 1 else None


@dataclass(frozen=True, kw_only=True)
class Preset:
    name: str
    seats: int
    roles: tuple[tuple[Role, int], ...]  # role counts; civilians fill the rest
    speech_seconds: int
    tie_speech_seconds: int
    last_word_seconds: int
    agreement_seconds: int
    intro_meetings: tuple[Role, ...]  # roles woken alone on the introduction night
    checks: tuple[CheckRule, ...]  # night checks, in the order they wake
    non_voters: NonVoters
    vote_single_candidate_on_day_one: bool  # False: no vote (000, 001, 004)
    single_candidate_later: SingleCandidate
    # A revote tie among a different set repeats the tie procedure (004); the
    # same set goes to the all-leave question. False: any revote tie goes there.
    tie_repeat_when_set_changes: bool
    no_last_word_when_shot: frozenset[Role]  # 001: a killed Commissar has none
    reveal_role_when_shot: bool  # 001: the killed player's card is opened
    silence_at_foul: int  # this foul loses the next speech
    disqualify_at_foul: int  # this foul removes the player at once
    disqualification_cancels_vote: bool  # FIIM practice: that day's vote is not held
    kill_rule: KillRule = field(default=unanimous_single_shot, compare=False)

    @property
    def special_roles(self) -> frozenset[Role]:
        return frozenset(role for role, _ in self.roles)

    @property
    def black_count(self) -> int:
        return sum(count for role, count in self.roles if role in BLACK_ROLES)


CLASSIC = Preset(
    name="classic",
    seats=10,
    roles=((Role.SHERIFF, 1), (Role.DON, 1), (Role.MAFIA, 2)),
    speech_seconds=60,
    tie_speech_seconds=30,
    last_word_seconds=60,
    agreement_seconds=60,
    intro_meetings=(Role.DON, Role.SHERIFF),
    checks=(
        CheckRule(checker=Role.DON, finds=frozenset({Role.SHERIFF})),
        CheckRule(checker=Role.SHERIFF, finds=BLACK_ROLES),
    ),
    non_voters=NonVoters.LAST_CANDIDATE,
    vote_single_candidate_on_day_one=False,
    single_candidate_later=SingleCandidate.LEAVES,
    tie_repeat_when_set_changes=True,
    no_last_word_when_shot=frozenset(),
    reveal_role_when_shot=False,
    silence_at_foul=3,
    disqualify_at_foul=4,
    disqualification_cancels_vote=True,
)

EVENT = Preset(
    name="event",
    seats=12,
    roles=((Role.COMMISSAR, 1), (Role.MAFIA, 3)),
    speech_seconds=30,
    tie_speech_seconds=30,
    last_word_seconds=30,
    agreement_seconds=60,
    intro_meetings=(Role.COMMISSAR,),
    checks=(CheckRule(checker=Role.COMMISSAR, finds=BLACK_ROLES),),
    non_voters=NonVoters.LAST_CANDIDATE,
    vote_single_candidate_on_day_one=False,
    single_candidate_later=SingleCandidate.VOTE,
    tie_repeat_when_set_changes=True,  # 001 is silent; rules/README: use classic's
    no_last_word_when_shot=frozenset({Role.COMMISSAR}),
    reveal_role_when_shot=True,
    silence_at_foul=3,
    disqualify_at_foul=4,
    disqualification_cancels_vote=True,
)

PRESETS: dict[str, Preset] = {preset.name: preset for preset in (CLASSIC, EVENT)}


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPreset(name, sorted(PRESETS)) from None
