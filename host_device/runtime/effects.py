"""What the engine asks, carried out on one schedule (virtual or real
time): phrases queued, timers, LEDs, and each step's windows and night calls
begun and ended.

Every phrase is queued after the one before it (``speaking_until``); a timer
starts when the phrase that announces it has ended; a vote window opens when
the question has been said and closes when «Спасибо» starts; the night calls
the living seat numbers (:mod:`.night_calls`). What the runtime does is
written to a timeline, each entry with its time (:mod:`.timeline`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Advance, Game, IllegalInput, Input, Nominate, Phase, Withdraw
from engine.outputs import (
    NominationAccepted,
    Output,
    Say,
    ShowCheck,
    StartTimer,
    StopTimer,
    VoteTaken,
)
from engine.steps import FLOOR, NIGHT_CALLS, resumption, seconds
from host_device.runtime.clock import Scheduled, Scheduler, time_left
from host_device.runtime.night_calls import Slot, call_slots
from host_device.runtime.settings import Settings

QUIET_TIMERS = frozenset({"nomination", "golden_ask"})  # short windows that end without «Время!»
TIMED_PHRASES = frozenset(phase.value for phase in FLOOR)  # «Игрок номер N, ваша минута» and the like

Duration = Callable[[str, dict[str, Any]], float]
Reject = Callable[[Input, IllegalInput, dict[str, Any]], None]


@dataclass(frozen=True)
class Proposal:
    """A nomination (or withdrawal) heard in a speech, waiting for the host."""

    input: Nominate | Withdraw
    at: float
    text: str
    where: tuple[tuple[str, Any], ...] = ()


def slots_of(say: Say) -> dict[str, Any]:
    """A phrase's slot values (the fields of its ``Say`` that are set)."""
    return {
        f.name: getattr(say, f.name)
        for f in dataclasses.fields(say)
        if f.name != "phrase" and getattr(say, f.name) not in (None, ())
    }


class Effects:
    """The runtime's ground floor: the engine's inputs are given over it
    (:class:`.engine_inputs.EngineInputs`), and the parts (the table, undo,
    free timers) are mixed over those into :class:`.loop.Runtime`."""

    def __init__(
        self, game: Game, sched: Scheduler, duration: Duration, settings: Settings | None = None
    ) -> None:
        self.game = game
        self.sched = sched
        self.duration = duration
        self.settings = settings or Settings()
        self.timeline: list[dict[str, Any]] = []
        self.speaking_until = sched.now
        self.observers: list[Callable[[list[Output]], None]] = []
        self.step_hooks: list[Callable[[Any], None]] = []  # given the runtime as a step begins
        self.on_reject: list[Reject] = []  # told of each refused input
        self.before_input: list[Callable[[Input], None]] = []  # e.g. the store's commit
        self.recorders: list[Callable[[dict[str, Any]], None]] = []  # told of every timeline entry
        self.window: tuple[float, float] | None = None  # the open vote window
        self.slots: list[Slot] = []  # the night's calls
        self.leds: dict[int, str] = {}
        self._step = 0
        self._timers: list[Scheduled] = []
        self.stopped = False
        self.timer: tuple[float, int, str] | None = None  # the step's timer: (start, seconds, purpose)
        self.proposals: list[Proposal] = []
        self.unrecorded: tuple[Input, bool, bool] | None = None  # an input the store could not take yet
        self.undo_hooks: list[Callable[[int], None]] = []  # told how many inputs an undo keeps
        self.marks: list[int] = []  # record lengths before each host action: where undo returns
        self.step_starts: list[int] = [0]  # record lengths at which each step began
        self.day_start = 0  # undo never goes back before this record length
        self._ran: dict[int, float] = {}  # a timed step's elapsed time, by its start, when it ended
        self._ran_before = 0.0  # the current timed step's time already run before it was resumed
        # the step's «Игрок номер N, …»: (timeline entry, start, end)
        self._announcement: tuple[dict[str, Any], float, float] | None = None

    @property
    def step(self) -> int:
        """The current step's number: a callback scheduled for one step checks it is still that step."""
        return self._step

    # ---------------------------------------------------------------- recording

    def record(self, kind: str, t: float | None = None, **data: Any) -> None:
        entry = {"t": round(self.sched.now if t is None else t, 3), "type": kind, **data}
        self.timeline.append(entry)
        for listen in self.recorders:
            listen(entry)

    def sorted_timeline(self) -> list[dict[str, Any]]:
        return sorted(self.timeline, key=lambda e: e["t"])

    def stop(self) -> None:
        """End the game's hosting here (the simulation's script ran out)."""
        self.stopped = True
        self._step += 1
        self.sched.clear()

    def _end_step(self) -> None:
        self._drop_unsaid_announcement()
        if self.timer is not None:
            start, seconds, _ = self.timer
            ran = min(seconds, max(0.0, self.sched.now - start))
            self._ran[self.step_starts[-1]] = self._ran_before + ran
        self.timer, self._ran_before = None, 0.0
        self.proposals = []
        self._step += 1
        self.window, self.slots = None, []

    def _drop_unsaid_announcement(self) -> None:
        """A timed step ended before its announcement began (the host pressed
        "next" again at once): the announcement is not said, and what follows
        takes its place in the queue — nothing stale is read out."""
        announced, self._announcement = self._announcement, None
        if announced is None:
            return
        entry, start, end = announced
        if self.sched.now < start and self.speaking_until == end:
            entry["dropped"] = True
            self.speaking_until = start
            self.record("unsaid", key=entry["key"], seat=entry.get("seat"))

    def resume(self, elapsed: float = 0.0, phrase: str = "game_resumed") -> None:
        """Carry on a game rebuilt from its record at the step it was in: said
        again as the step says it when it begins (:func:`engine.steps.opening`;
        a speech with the time it had left after ``elapsed`` seconds, a vote
        window from its question, a night step from its beginning)."""
        self._cancel_timers()
        self._end_step()
        self.say(phrase)
        s, preset = self.game.state, self.game.preset
        for effect in resumption(preset, s, elapsed):
            self._carry_out(effect)
        full = seconds(s.phase, preset)
        if self.timer is not None and full is not None:
            self._ran_before = full - self.timer[1]
        self._begin_step()

    def _cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers = []

    def _carry_out(self, output: Output) -> None:
        match output:
            case Say():
                start = self.say(output.phrase, **slots_of(output))
                if output.phrase in TIMED_PHRASES:
                    self._announcement = (self.timeline[-1], start, self.speaking_until)
            case StartTimer(seconds=seconds, purpose=purpose):
                self._start_timer(seconds, purpose)
            case StopTimer():
                self._cancel_timers()
                self.timer = None
            case ShowCheck(seat=seat, result=result):
                self.led(seat, "on" if result else "blink")
                step = self._step
                self.sched.after(self.settings.answer_s, lambda: self._led_off(step, seat))
            case NominationAccepted(target=target):
                self.led(target, "blink")
                self.sched.after(self.settings.blink_s, lambda: self.led(target, "off"))
            case VoteTaken(seat=seat):
                self.led(seat, "on")
            case _:
                pass

    def say(self, key: str, **slots: Any) -> float:
        """Queue a phrase after the ones before it; returns when it starts."""
        start = max(self.sched.now, self.speaking_until)
        self.speaking_until = start + self.duration(key, slots)
        self.record(
            "say", t=start, key=key, **{k: list(v) if isinstance(v, tuple) else v for k, v in slots.items()}
        )
        return start

    def say_at_once(self, key: str) -> None:
        """A phrase of the pause itself («Пауза.», «Нет места для записи»):
        said now, over whatever is being said, outside the phrase queue,
        which stands still while the game is paused (:func:`.timeline.when_said`)."""
        self.record("say", key=key, at_once=True)

    def pause_clock(self) -> None:
        """Pause the game: every timer and the phrase queue stop where they are."""
        if not self.sched.paused:
            self.sched.pause()
            self.record("paused")

    def led(self, seat: int, pattern: str) -> None:
        if self.leds.get(seat, "off") != pattern:
            self.leds[seat] = pattern
            self.record("led", seat=seat, pattern=pattern)

    def all_leds_off(self) -> None:
        for seat in list(self.leds):
            self.led(seat, "off")

    def handle(self, inp: Input, by_host: bool = False, **where: Any) -> bool:
        """Give the engine one input (:meth:`.engine_inputs.EngineInputs.handle`)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- steps

    def _start_timer(self, seconds: int, purpose: str) -> None:
        start = self.speaking_until
        step = self._step
        self.timer = (start, seconds, purpose)
        self.record("timer", t=start, seconds=seconds, purpose=purpose)
        if purpose != "agreement" and seconds > self.settings.warn_s:
            self._timers.append(
                self.sched.at(start + seconds - self.settings.warn_s, lambda: self._tone(step))
            )
        self._timers.append(self.sched.at(start + seconds, lambda: self._time_up(step, purpose)))

    def _tone(self, step: int) -> None:
        if step == self._step:
            self.record("tone")

    def _time_up(self, step: int, purpose: str = "") -> None:
        if step == self._step:
            if purpose not in QUIET_TIMERS or self.game.phase not in self.settings.auto:
                self.say("time_up")  # a human host is told; the device goes on by itself quietly
            if self.game.phase in self.settings.auto:
                self.handle(Advance())

    def _led_off(self, step: int, seat: int) -> None:
        if step == self._step:
            self.led(seat, "off")

    def _call(self, step: int, seat: int) -> None:
        if step == self._step:
            self.say("call", seat=seat)

    def _advance(self, step: int) -> None:
        if step == self._step:
            self.handle(Advance())

    def _begin_step(self) -> None:
        step = self._step
        s = self.game.state
        phase, cfg = s.phase, self.settings
        self.all_leds_off()
        if phase in FLOOR and s.speaker is not None:
            self.led(s.speaker, "on")
        ready = self.speaking_until + cfg.gap_s
        auto = phase in cfg.auto
        if phase is Phase.INTRO_MEET and auto:
            self.sched.at(self.speaking_until + cfg.meet_s, lambda: self._advance(step))
        elif phase in (Phase.MORNING, Phase.VOTE_ANNOUNCE) and auto:
            self.sched.at(ready, lambda: self._advance(step))
        elif phase is Phase.VOTE:
            opens = self.speaking_until
            self.window = (opens, opens + cfg.vote_window_s if auto else float("inf"))
            if auto:
                self.sched.at(self.window[1], lambda: self._advance(step))
        elif phase in NIGHT_CALLS and auto:
            alive = s.alive()
            self.slots = call_slots(alive, ready, cfg.call_s)
            for seat, start, _ in self.slots:
                self.sched.at(start, functools.partial(self._call, step, seat))
            tail = cfg.answer_s if phase is Phase.NIGHT_CHECK else cfg.gap_s
            self.sched.at(ready + len(alive) * cfg.call_s + tail, lambda: self._advance(step))
        for hook in self.step_hooks:
            hook(self)

    def time_left(self) -> float | None:
        """Seconds left now on the step's timer (all of them before it starts); None without one."""
        return None if self.timer is None else time_left(self.sched.now, *self.timer[:2])
