"""Rule presets: every rule choice is a named field, plus a few hooks.

A preset is data. Where the rule texts leave a choice, the choice is a field
here with the source in its comment, so that a new rule set (``city``) is a
new value of :class:`Preset`, not a new machine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.errors import BadTable, UnknownPreset
from engine.roles import BLACK_ROLES, Role


class NonVoters(StrEnum):
    LAST_CANDIDATE = "last_candidate"  # 000, 001, 004
    NOBODY = "nobody"  # 003


class DayFormat(StrEnum):
    SPEECHES = "speeches"  # 000, 001, 004: each living player speaks in turn and nominates in his speech
    DISCUSSION = "discussion"  # 003: free discussion, a nomination round, justifications, golden minute


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
    # 003 (city) and its decisions; the defaults are the sport rules'
    day_format: DayFormat = DayFormat.SPEECHES
    intro_speech_seconds: int | None = None  # 003 «День спокойствия»: each player introduces himself
    mafia_agree_on_intro: bool = True  # False (003): the mafia only meet («знакомится»), agreement_seconds
    discussion_seconds: int = 0  # 003: «3 минуты на общее обсуждение»
    nomination_seconds: int = 10  # 003: each player's time to name his candidate in the nomination round
    golden_minute_seconds: int | None = None  # 003: once per game a candidate may speak a minute more
    golden_ask_seconds: int = 5  # the time to ask for it after «Кто берёт золотую минуту?»
    tie_speeches_for_two_only: bool = False  # 003: speeches before a revote only when the round had two
    revote_tie_nobody_leaves: bool = False  # 003: a tie again in the revote: nobody leaves that day
    last_word: bool = True  # 003: none (the justification was it)
    fouls: bool = True  # 003 has none: a foul is refused
    visits: tuple[Role, ...] = ()  # 003: roles that wake after the checks (Doctor heals, Lover visits)
    phrases: tuple[tuple[str, str], ...] = ()  # phrase keys said in this preset's own words
    # Beyond the four texts (FIIM practice): the first night's victim names
    # three seats in his last word (docs/engine.md "The best move")
    best_move: bool = False

    def deal_phrase(self) -> str:
        """What is said as the roles are dealt: «Раздаём роли» (003: «Ночь судьбы»); the
        night itself falls after the deal («Наступает ночь», said once)."""
        return dict(self.phrases).get("deal_night", "deal_roles")

    def words(self, key: str, role: Role | None = None) -> tuple[str, Role | None]:
        """A phrase key in this preset's own words, and the role slot it
        keeps: ``phrases`` maps a key (or ``key.role``, a phrase that names
        the role itself) to another."""
        own = dict(self.phrases)
        if role is not None and f"{key}.{role.value}" in own:
            return own[f"{key}.{role.value}"], None
        return own.get(key, key), role

    @property
    def special_roles(self) -> frozenset[Role]:
        return frozenset(role for role, _ in self.roles)


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
    best_move=True,
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
    tie_repeat_when_set_changes=True,  # 001 is silent; docs/rules.md: use classic's
    no_last_word_when_shot=frozenset({Role.COMMISSAR}),
    reveal_role_when_shot=True,
    silence_at_foul=3,
    disqualify_at_foul=4,
    disqualification_cancels_vote=True,
)

TABLE_SIZES = range(6, 17)  # every table the rules are played at: classic 10, event 12, city 6 to 16
MAX_SEATS = TABLE_SIZES[-1]

CITY = Preset(
    name="city",
    seats=10,
    roles=((Role.SHERIFF, 1), (Role.DOCTOR, 1), (Role.LOVER, 1), (Role.MAFIA, 3)),
    speech_seconds=30,  # 003: 30 s of justification for each candidate
    tie_speech_seconds=30,
    last_word_seconds=0,  # no last word (last_word=False)
    agreement_seconds=15,  # «Мафия просыпается и знакомится» … «познакомилась и уснула»: a fixed time
    intro_meetings=(),
    checks=(CheckRule(checker=Role.SHERIFF, finds=BLACK_ROLES),),
    non_voters=NonVoters.NOBODY,
    vote_single_candidate_on_day_one=True,  # a lone candidate is voted the same way (he can survive)
    single_candidate_later=SingleCandidate.VOTE,
    tie_repeat_when_set_changes=False,
    no_last_word_when_shot=frozenset(),
    reveal_role_when_shot=False,  # the card is never shown before the end
    silence_at_foul=0,
    disqualify_at_foul=0,
    disqualification_cancels_vote=False,
    day_format=DayFormat.DISCUSSION,
    intro_speech_seconds=30,
    mafia_agree_on_intro=False,
    discussion_seconds=180,
    golden_minute_seconds=60,
    tie_speeches_for_two_only=True,
    revote_tie_nobody_leaves=True,
    last_word=False,
    fouls=False,
    visits=(Role.DOCTOR, Role.LOVER),
    phrases=(
        ("night_falls", "city_night_falls"),
        ("morning", "city_morning"),
        ("nobody_killed", "city_nobody_killed"),
        ("deal_night", "fate_night"),
        ("hunt", "city_hunt"),
        ("mafia_sleeps", "city_mafia_sleeps"),
        ("role_wakes.sheriff", "sheriff_investigates"),
        ("role_sleeps.sheriff", "sheriff_investigated"),
        ("role_wakes.doctor", "doctor_wakes"),
        ("role_sleeps.doctor", "doctor_sleeps"),
        ("role_wakes.lover", "lover_wakes"),
        ("role_sleeps.lover", "lover_sleeps"),
    ),
)


def city_preset(seats: int, mafia: int | None = None, lover: bool | None = None) -> Preset:
    """The city table for ``seats`` players: mafia = (seats + 2) // 4, the
    Sheriff and the Doctor always, the Lover from 8 seats (decisions where
    003 is silent); ``mafia`` and ``lover`` override (``[city]`` in the config)."""
    if seats not in TABLE_SIZES:
        raise BadTable(
            f"city: {seats} seats; the city rules are played at {TABLE_SIZES[0]} to {MAX_SEATS} seats",
            seats=seats,
        )
    mafia = (seats + 2) // 4 if mafia is None else mafia
    lover = seats >= 8 if lover is None else lover
    if mafia < 1:
        raise BadTable(f"city: {mafia} mafia; there must be at least one", code="no_mafia", mafia=mafia)
    if mafia >= seats - mafia:
        raise BadTable(
            f"city: {mafia} mafia at {seats} seats; the mafia must be fewer than the others",
            code="mafia_majority",
            seats=seats,
            mafia=mafia,
        )
    roles = ((Role.SHERIFF, 1), (Role.DOCTOR, 1), *(((Role.LOVER, 1),) if lover else ()), (Role.MAFIA, mafia))
    visits = (Role.DOCTOR, Role.LOVER) if lover else (Role.DOCTOR,)
    return dataclasses.replace(CITY, seats=seats, roles=roles, visits=visits)


PRESETS: dict[str, Preset] = {preset.name: preset for preset in (CLASSIC, EVENT, CITY)}


def get_preset(
    name: str, seats: int | None = None, mafia: int | None = None, lover: bool | None = None
) -> Preset:
    """A preset by name; ``seats`` (and ``mafia``, ``lover``) set a variable
    table (city); a fixed table's ``seats`` must be its own."""
    try:
        preset = PRESETS[name]
    except KeyError:
        raise UnknownPreset(name, sorted(PRESETS)) from None
    if preset.day_format is DayFormat.DISCUSSION:
        return city_preset(preset.seats if seats is None else seats, mafia, lover)
    if seats is None or seats == preset.seats:
        return preset
    raise BadTable(f"{name}: the table has {preset.seats} seats, not {seats}", seats=seats)


def table_of(preset: Preset) -> dict[str, int | bool]:
    """What makes a variable table what it is (``get_preset(name, **table)``
    gives it back); nothing for a fixed one."""
    if preset.day_format is not DayFormat.DISCUSSION:
        return {}
    counts = dict(preset.roles)
    return {"seats": preset.seats, "mafia": counts[Role.MAFIA], "lover": Role.LOVER in counts}
