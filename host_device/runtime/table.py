"""What the table does, as the engine's input: a seat's press and an intent
heard in the speaker's words, read by what the step allows
(:data:`engine.steps.ALLOWS`). Pure: the runtime hands in the moment, the
open vote window and the night's calls, and gets an input — or why the
press counts for nothing."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from engine import Advance, BestMove, GoldenMinute, Input, Nominate, Phase, Preset, State, Vote, Withdraw
from engine.outputs import Say
from engine.steps import ALLOWS, FLOOR, NIGHT_CALLS, Listen, Press, listening
from host_device.listening.intents import Intent
from host_device.runtime.pace import Slot, called_at


@dataclass(frozen=True)
class Moment:
    """Where the step stands when a press is made."""

    at: float
    window: tuple[float, float] | None  # the open vote window
    slots: tuple[Slot, ...]  # the night's calls
    announced_until: float | None  # the end of the speaker's «ваша минута» (his timer's start)


@dataclass(frozen=True)
class NoInput:
    """A press that counts for nothing now: ``reason`` for the timeline ("" when
    the step has no use for a seat's press at all)."""

    reason: str = ""


@dataclass(frozen=True)
class Proposal:
    """A nomination (a withdrawal, a foul for a forbidden word) heard in a speech, waiting for the host."""

    input: Input
    at: float
    text: str
    where: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Unrecorded:
    """An input the store could not take yet: the game waits for it."""

    input: Input
    by_host: bool
    paused_before: bool  # the host had paused the game himself


def phrase_slots(say: Say) -> dict[str, Any]:
    """A phrase's slot values (the fields of its ``Say`` that are set)."""
    return {
        f.name: value
        for f in dataclasses.fields(say)
        if f.name != "phrase" and (value := getattr(say, f.name)) not in (None, ())
    }


def press_input(
    state: State, seat: int, moment: Moment, grace_s: float, table_ends_speech: bool
) -> Input | NoInput:
    """A seat's button, pressed at ``moment.at``: what it means in this step."""
    s = state
    match ALLOWS[s.phase].press:
        case Press.ENDS_SPEECH:
            if seat != s.speaker or not table_ends_speech:
                return NoInput()
            if moment.announced_until is not None and moment.at < moment.announced_until + grace_s:
                # his «Игрок номер N, ваша минута» is not over (or only just): a press meant for the
                # step before, or a reflex, does not throw his whole speech away
                return NoInput("his press during his own announcement")
            return Advance()
        case Press.VOTE:
            if moment.window is not None and moment.window[0] <= moment.at < moment.window[1]:
                return Vote(seat=seat)
            return NoInput("a press outside the vote window")
        case Press.GOLDEN:  # a candidate asks for his golden minute
            return GoldenMinute(seat=seat)
        case Press.CALLED:
            target = called_at(moment.slots, moment.at)
            if target is None:
                return NoInput("a press between the night's calls")
            return NIGHT_CALLS[s.phase](seat=seat, target=target)
        case _:
            return NoInput()


def heard_input(preset: Preset, state: State, intent: Intent, table_ends_speech: bool) -> Input | None:
    """An intent heard in the speaker's words: what it means in this step, or None."""
    s = state
    listens = listening(preset, s)
    if listens is None or s.speaker is None:
        return None
    ends = intent.intent == "end" or (intent.intent == "pass" and listens is Listen.ROUND)
    match listens:
        case Listen.BEST_MOVE:  # the best move is all a last word is heard for
            return BestMove(seat=s.speaker, seats=intent.seats) if intent.intent == "best_move" else None
        case _ if ends:
            return Advance() if table_ends_speech else None
        case Listen.JUSTIFICATION:
            return GoldenMinute(seat=s.speaker) if intent.intent == "golden" else None
        case _ if intent.seat is None:
            return None
        case Listen.ROUND:
            return Nominate(seat=s.speaker, target=intent.seat) if intent.intent == "nominate" else None
        case _:
            if intent.intent == "nominate":
                return Nominate(seat=s.speaker, target=intent.seat)
            return Withdraw(seat=s.speaker, target=intent.seat) if intent.intent == "withdraw" else None


def listened(preset: Preset, state: State) -> bool:
    """Whether the step listens to its speaker now (what he says is recorded as heard)."""
    return listening(preset, state) is not None and state.speaker is not None


def lit(state: State) -> list[int]:
    """The seats whose LEDs are on as a step begins: the speaker's; in a vote
    (resumed, or back to by an undo), those whose vote for the candidate asked
    about is already taken."""
    if state.phase in FLOOR and state.speaker is not None:
        return [state.speaker]
    rnd = state.vote_round
    if rnd is None or state.phase is not Phase.VOTE:
        return []
    return sorted(seat for seat, candidate in rnd.ballots.items() if candidate == rnd.current)
