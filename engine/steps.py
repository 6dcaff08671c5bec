"""The table of steps: for each phase, what it allows (the inputs it takes,
what a seat's press means in it, what it listens for), its timer's seconds
and what it says when it begins.

What a step allows is written here once (:data:`ALLOWS`): the engine's
checks refuse any other input, :meth:`engine.game.Game.legal_inputs` lists
from it, the runtime reads a press and a heard intent by it, the session
opens the listener by it, and the host's screen says why a key does nothing.

The machine enters every step through :func:`opening`, and the runtime
resumes a step (after a crash, or an undo) through :func:`resumption`, the
same opening, so a resumed step says exactly what it says when it is entered
(the morning's last word after the morning's news).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from engine.inputs import (
    Advance,
    BestMove,
    Check,
    DealRoles,
    Foul,
    GoldenMinute,
    Input,
    Nominate,
    Shot,
    Tally,
    Visit,
    Vote,
    Withdraw,
)
from engine.outputs import Say, StartTimer
from engine.presets import Preset
from engine.state import Phase, RoundKind, State


class Press(StrEnum):
    """What a seat's own button means in a step."""

    NOTHING = "nothing"
    ENDS_SPEECH = "ends_speech"  # the speaker's own press ends his speech (Advance)
    VOTE = "vote"  # in the open window: his vote for the candidate asked about
    GOLDEN = "golden"  # a candidate asks for his golden minute
    CALLED = "called"  # at night: the step's input, at the number being called


class Listen(StrEnum):
    """What a step listens for in the speaker's words (the patterns it hears with)."""

    SPEECH = "speech"  # a nomination, a withdrawal, the end of the speech
    ROUND = "round"  # the city's round: a number alone nominates too; «никого»; the end
    JUSTIFICATION = "justification"  # the golden minute asked; the end
    BEST_MOVE = "best_move"  # the first night's victim's three seats (only while he has one)
    FLOOR = "floor"  # any other speaker with the floor: the forbidden words, the end of the speech


@dataclass(frozen=True)
class Allows:
    """What one step allows: the inputs the engine takes in it, what a seat's
    press means in it, what it listens for."""

    inputs: frozenset[type[Input]]
    press: Press = Press.NOTHING
    listens: Listen | None = None


def _dealt(*inputs: type[Input], press: Press = Press.NOTHING, listens: Listen | None = None) -> Allows:
    """A step after the deal: the host may always end it and give a foul."""
    return Allows(frozenset({Advance, Foul, *inputs}), press, listens)


_FLOOR = Press.ENDS_SPEECH
ALLOWS: Mapping[Phase, Allows] = MappingProxyType(
    {
        Phase.ROLES: Allows(frozenset({DealRoles})),
        Phase.INTRO_SPEECH: _dealt(press=_FLOOR, listens=Listen.FLOOR),
        Phase.INTRO_MAFIA: _dealt(),
        Phase.INTRO_MEET: _dealt(),
        Phase.MORNING: _dealt(),
        Phase.LAST_WORD: _dealt(BestMove, press=_FLOOR, listens=Listen.BEST_MOVE),
        Phase.SPEECH: _dealt(Nominate, Withdraw, press=_FLOOR, listens=Listen.SPEECH),
        Phase.DISCUSSION: _dealt(),
        Phase.NOMINATION: _dealt(Nominate, press=_FLOOR, listens=Listen.ROUND),
        Phase.JUSTIFICATION: _dealt(GoldenMinute, press=_FLOOR, listens=Listen.JUSTIFICATION),
        Phase.GOLDEN_ASK: _dealt(GoldenMinute, press=Press.GOLDEN),
        Phase.GOLDEN_MINUTE: _dealt(press=_FLOOR, listens=Listen.FLOOR),
        Phase.VOTE_ANNOUNCE: _dealt(),
        Phase.VOTE: _dealt(Vote, Tally, press=Press.VOTE),
        Phase.TIE_SPEECH: _dealt(press=_FLOOR, listens=Listen.FLOOR),
        Phase.NIGHT_HUNT: _dealt(Shot, press=Press.CALLED),
        Phase.NIGHT_CHECK: _dealt(Check, press=Press.CALLED),
        Phase.NIGHT_VISIT: _dealt(Visit, press=Press.CALLED),
        Phase.GAME_OVER: Allows(frozenset()),
    }
)

NIGHT = frozenset(
    {Phase.INTRO_MAFIA, Phase.INTRO_MEET, Phase.NIGHT_HUNT, Phase.NIGHT_CHECK, Phase.NIGHT_VISIT}
)
FLOOR = frozenset(phase for phase, allows in ALLOWS.items() if allows.press is Press.ENDS_SPEECH)
# a player has the floor, on a timer: his own button ends it
NIGHT_CALLS: Mapping[Phase, type[Shot] | type[Check] | type[Visit]] = MappingProxyType(
    {
        phase: next(kind for kind in (Shot, Check, Visit) if kind in allows.inputs)
        for phase, allows in ALLOWS.items()
        if allows.press is Press.CALLED
    }
)  # the night steps called seat by seat: a press at a number is this input
DAY = frozenset(Phase) - NIGHT - {Phase.ROLES, Phase.GAME_OVER}
KEEP_TIME_LEFT = FLOOR | {Phase.DISCUSSION}  # resumed with the time they had left

Opening = tuple[Say | StartTimer, ...]

BEST_MOVE_NIGHT = 1  # the first night of shooting (the introduction night, night 0, has no shot)


def best_move_now(preset: Preset, state: State) -> bool:
    """Whether the speaker may name his best move now: the preset has it, and
    this is the last word, on the morning after the first night of shooting,
    of the player that night's shot killed (a miss that night: nobody has one)."""
    s = state
    return (
        preset.best_move
        and s.phase is Phase.LAST_WORD
        and s.last_words_then is Phase.SPEECH
        and s.day == BEST_MOVE_NIGHT + 1
        and s.speaker is not None
        and s.speaker == s.night_killed
    )


def listening(preset: Preset, state: State) -> Listen | None:
    """What the step ``state`` is in listens for now: the table's, but the
    last word for a best move only while it has one (:func:`best_move_now`;
    else, as every step a speaker has the floor in, for the forbidden words
    and the end of his speech)."""
    listens = ALLOWS[state.phase].listens
    if listens is Listen.BEST_MOVE and not best_move_now(preset, state):
        return Listen.FLOOR
    return listens


def seconds(phase: Phase, preset: Preset) -> int | None:
    """The step's timer, or None for a step without one."""
    p = preset
    return {
        Phase.SPEECH: p.speech_seconds,
        Phase.TIE_SPEECH: p.tie_speech_seconds,
        Phase.LAST_WORD: p.last_word_seconds,
        Phase.INTRO_SPEECH: p.intro_speech_seconds,
        Phase.NOMINATION: p.nomination_seconds,
        Phase.JUSTIFICATION: p.speech_seconds,
        Phase.GOLDEN_MINUTE: p.golden_minute_seconds,
        Phase.DISCUSSION: p.discussion_seconds,
        Phase.GOLDEN_ASK: p.golden_ask_seconds,
        Phase.INTRO_MAFIA: p.agreement_seconds,
    }.get(phase)


def time_left(phase: Phase, preset: Preset, elapsed: float) -> int | None:
    """The step's timer after ``elapsed`` seconds of it have run (a speech
    keeps the time it had left, at least a second; the others start anew)."""
    full = seconds(phase, preset)
    if full is None or phase not in KEEP_TIME_LEFT or not elapsed:
        return full
    return max(1, round(full - elapsed))


def opening(preset: Preset, state: State, elapsed: float = 0.0) -> Opening:
    """What the step ``state`` is in says and starts when it begins (or is
    resumed after ``elapsed`` seconds of its timer)."""
    s, p, phase = state, preset, state.phase
    left = time_left(phase, p, elapsed)
    if phase in FLOOR:
        assert left is not None
        best_move = (Say(phrase="best_move"),) if best_move_now(p, s) else ()
        return (
            Say(phrase=phase.value, seat=s.speaker, seconds=left),
            *best_move,
            StartTimer(seconds=left, purpose=phase.value),
        )
    match phase:
        case Phase.INTRO_MAFIA:
            assert left is not None
            said = (
                (Say(phrase="mafia_wakes"), Say(phrase="agreement", seconds=left))
                if p.mafia_agree_on_intro
                else (Say(phrase="mafia_meets"),)
            )
            return (*said, StartTimer(seconds=left, purpose="agreement"))
        case Phase.INTRO_MEET | Phase.NIGHT_CHECK | Phase.NIGHT_VISIT:
            return (_in_words(p, "role_wakes", s),)
        case Phase.NIGHT_HUNT:
            return (_in_words(p, "hunt"),)
        case Phase.MORNING:
            return _morning(p, s)
        case Phase.DISCUSSION:
            assert left is not None
            return Say(phrase="discussion", seconds=left), StartTimer(seconds=left, purpose="discussion")
        case Phase.GOLDEN_ASK:
            assert left is not None
            return Say(phrase="golden_question"), StartTimer(seconds=left, purpose="golden_ask")
        case Phase.VOTE_ANNOUNCE:
            if s.candidates:
                return (Say(phrase="candidates", seats=tuple(s.candidates)),)
            return (Say(phrase="no_candidates"),)
        case Phase.VOTE:
            rnd = s.vote_round
            assert rnd is not None
            if rnd.kind is RoundKind.ALL:
                return (Say(phrase="all_leave_question", seats=rnd.candidates),)
            return (Say(phrase="vote_question", seat=rnd.current),)
        case _:  # the roles, the game's end
            return ()


def resumption(preset: Preset, state: State, elapsed: float = 0.0) -> Opening:
    """What the step ``state`` is in says when it is resumed: what it says
    when it begins, and for the morning's last word the morning's news first
    (the table is told again who died that night, and why he speaks); a best
    move already made in it is said back («Лучший ход: …. Принято.») where the
    step would ask for it."""
    s = state
    morning = s.phase is Phase.LAST_WORD and s.last_words_then is Phase.SPEECH and s.night_killed == s.speaker
    news = _morning(preset, s) if morning else ()
    said = opening(preset, s, elapsed)
    if best_move_now(preset, s) and s.best_move_seat == s.speaker:  # made before the stop: said back
        made = Say(phrase="best_move_accepted", seats=s.best_move)
        said = tuple(made if effect == Say(phrase="best_move") else effect for effect in said)
    return (*news, *said)


def _in_words(preset: Preset, key: str, state: State | None = None) -> Say:
    role = None if state is None else state.step_role
    phrase, kept = preset.words(key, role)
    return Say(phrase=phrase, role=kept)


def _morning(preset: Preset, s: State) -> Opening:
    """The night's news: nothing after the introduction night; the victim (or
    nobody), the Doctor's save, the victim's card where the rules open it."""
    said = [_in_words(preset, "morning")]
    if s.day > 1:
        killed = s.night_killed
        said.append(
            _in_words(preset, "nobody_killed") if killed is None else Say(phrase="killed", seat=killed)
        )
        if s.night_saved:
            said.append(Say(phrase="doctor_saved"))
    if s.night_killed is not None and preset.reveal_role_when_shot:
        said.append(Say(phrase="reveal_role", seat=s.night_killed, role=s.role(s.night_killed)))
    return tuple(said)
