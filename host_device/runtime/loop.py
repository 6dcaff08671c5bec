"""The runtime: feeds the engine with what the table does and carries out
what the engine asks, on one schedule (virtual or real time).

Every phrase is queued after the one before it (``speaking_until``); a timer
starts when the phrase that announces it has ended; the device's own pace in
a step (vote windows, the night's calls) is :mod:`.pace`'s plan. An input is
checked, recorded in the store, and only then takes effect (held, and the
game paused, while the store cannot take it). :class:`Runtime` holds its
parts: the timeline, the undo history, the host's free timer, the device's
own fouls (:mod:`.discipline`); what a press or a heard intent means is
:mod:`.table`'s. Host mode and assist mode differ only in :class:`.settings.Settings`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from engine import Advance, DealRoles, Game, IllegalInput, Input, Nominate, Phase, Withdraw
from engine.game import Move
from engine.outputs import (
    NominationAccepted,
    Output,
    PhaseStarted,
    Say,
    ShowCheck,
    StartTimer,
    StopTimer,
    VoteTaken,
)
from engine.steps import FLOOR, resumption, seconds
from host_device.base.errors import HostDeviceError
from host_device.listening.intents import Intent
from host_device.runtime.clock import Scheduled, Scheduler, time_left
from host_device.runtime.discipline import HEARD, Discipline, Hearing
from host_device.runtime.free_timers import FreeTimer
from host_device.runtime.pace import Slot, plan
from host_device.runtime.settings import Settings
from host_device.runtime.table import (
    Moment,
    NoInput,
    Proposal,
    Unrecorded,
    heard_input,
    listened,
    lit,
    phrase_slots,
    press_input,
)
from host_device.runtime.timeline import (
    Decided,
    Entry,
    HeardIntent,
    Ignored,
    InputTaken,
    Key,
    LedSet,
    NotRecorded,
    Paused,
    Pressed,
    Proposed,
    Recorded,
    Rejected,
    Resumed,
    Said,
    Timeline,
    TimerStarted,
    Tone,
    Undone,
    Unsaid,
    slots_of,
)
from host_device.runtime.undo import History

log = logging.getLogger(__name__)

QUIET_TIMERS = frozenset({"nomination", "golden_ask"})  # short windows that end without «Время!»
TIMED_PHRASES = frozenset(phase.value for phase in FLOOR)  # «Игрок номер N, ваша минута» and the like

Duration = Callable[[str, dict[str, Any]], float]
Where = dict[str, Any]  # where an input came from (a phone's seat and token), for whoever is told of it
Reject = Callable[[Input, IllegalInput, Where], None]


class Runtime:
    """One game hosted: ``Runtime(game, scheduler, duration, settings)``."""

    def __init__(
        self, game: Game, sched: Scheduler, duration: Duration, settings: Settings | None = None
    ) -> None:
        self.game = game
        self.sched = sched
        self.duration = duration
        self.settings = settings or Settings()
        self.timeline = Timeline()
        self.history = History()
        self.free = FreeTimer(
            sched, self.say, lambda: self.speaking_until, self.note, lambda: self.settings.warn_s
        )
        self.speaking_until = self.opened_until = sched.now  # the queue's end; the step's opening's end
        self.discipline = Discipline(self)  # the fouls the device gives from what it hears
        # who is told: of each step as it begins, of each input's outputs, of each refused input,
        # before each input takes effect (the store's commit), of each undo (how many inputs it keeps)
        self.step_hooks: list[Callable[[Runtime], None]] = []
        self.observers: list[Callable[[list[Output]], None]] = []
        self.on_reject: list[Reject] = []
        self.before_input: list[Callable[[Input], None]] = []
        self.undo_hooks: list[Callable[[int], None]] = []
        self.window: tuple[float, float] | None = None  # the open vote window
        self.slots: tuple[Slot, ...] = ()  # the night's calls
        self.leds: dict[int, str] = {}
        self.stopped = False
        self.timer: tuple[float, int, str] | None = None  # the step's timer: (start, seconds, purpose)
        self.proposals: list[Proposal] = []
        self.unrecorded: Unrecorded | None = None
        self.refusal: IllegalInput | None = None  # the engine's last refusal of an input
        self._step = 0
        self._timers: list[Scheduled] = []
        self._announcement: tuple[Said, float, float] | None = None  # «Игрок номер N, …», start, end

    @property
    def step_said(self) -> bool:
        """The step's own words said by now («…Победа мафии!»): its news is shown from then on."""
        return self.sched.now >= self.opened_until

    @property
    def step(self) -> int:
        """The current step's number: a callback scheduled for one step checks it is still that step."""
        return self._step

    @property
    def recorders(self) -> list[Callable[[Entry], None]]:
        """Who follows the timeline, entry by entry."""
        return self.timeline.followers

    def note(self, entry: Entry) -> Entry:
        return self.timeline.add(entry)

    def stop(self) -> None:
        """End the game's hosting here (the simulation's script ran out)."""
        self.stopped = True
        self._step += 1
        self.sched.clear()

    # ---------------------------------------------------------------- the engine's inputs

    def handle(self, inp: Input, by_host: bool = False, **where: Any) -> bool:
        """One input to the engine: checked, recorded, carried out (``by_host``: an undo's point)."""
        self.refusal = None
        if self.stopped or not self.retry_unrecorded():
            return False  # while the store cannot take the waiting input, nothing else is taken
        try:
            move = self.game.prepare(inp)
        except IllegalInput as exc:
            return self._rejected(inp, exc, where)
        try:
            self._commit(inp)
        except HostDeviceError as exc:  # the store cannot take it (a full disk): stop, and say so
            log.error("ход не записан, игра на паузе, пока хранилище его не примет: %s", exc)
            self.note(NotRecorded(t=self.sched.now, input=inp, reason=str(exc)))
            self.unrecorded = Unrecorded(inp, by_host, self.sched.paused)
            self.pause_clock()
            self.say_at_once("store_full")
            return False
        self._make(move, by_host)
        return True

    def _commit(self, inp: Input) -> None:
        for commit in self.before_input:  # the record first: nothing is carried out unrecorded
            commit(inp)

    def retry_unrecorded(self) -> bool:
        """The input the store could not take, tried again (the table polls this): once recorded it
        takes effect and the game goes on where it stopped. True when nothing waits any more."""
        waiting = self.unrecorded
        if waiting is None:
            return True
        try:
            self._commit(waiting.input)
        except HostDeviceError:
            return False
        self.unrecorded = None
        self.note(Recorded(t=self.sched.now, input=waiting.input))
        if not waiting.paused_before:  # a pause the host made stays his to end
            shift = self.resume_clock()
            self.note(Resumed(t=self.sched.now, paused_s=round(shift, 3)))
            self.say("resumed")
        self._make(self.game.prepare(waiting.input), waiting.by_host)
        return True

    def _make(self, move: Move, by_host: bool) -> None:
        if by_host:
            self.history.host_acted(len(self.game.record))
        outputs = self.game.make(move)
        self.note(InputTaken(t=self.sched.now, input=move.input))
        new_step = any(isinstance(o, PhaseStarted) for o in outputs)
        if new_step:  # before the effects: the new step's timers belong to it
            self._end_step()
            new_day = isinstance(move.input, DealRoles) or any(
                isinstance(o, PhaseStarted) and o.phase == Phase.MORNING.value for o in outputs
            )
            self.history.step_began(len(self.game.record), new_day)
        for observe in self.observers:
            observe(outputs)
        for output in outputs:
            self._carry_out(output)
        if new_step:
            self._begin_step()

    def _rejected(self, inp: Input, exc: IllegalInput, where: Where) -> bool:
        log.info("not accepted: %s", exc)
        self.refusal = exc
        self.note(Rejected(t=self.sched.now, input=inp, reason=exc.reason))
        for reject in self.on_reject:
            reject(inp, exc, where)
        return False

    # ---------------------------------------------------------------- what the table does

    def press(self, key: Key, at: float | None = None, **where: Any) -> bool:
        """A button pressed at ``at`` (default: now): «Дальше», «Пауза», or a seat's."""
        at = self.sched.now if at is None else at
        self.note(Pressed(t=at, key=key))
        if key == "next":
            return self.handle(Advance())
        if key == "pause":
            self.toggle_pause()
            return True
        if not isinstance(key, int):
            return False
        announced = self.timer[0] if self.timer is not None else None
        moment = Moment(at, self.window, self.slots, announced)
        cfg = self.settings
        meant = press_input(self.game.state, key, moment, cfg.own_press_grace_s, cfg.table_ends_speech)
        if isinstance(meant, NoInput):
            if meant.reason:
                self.note(Ignored(t=at, key=key, reason=meant.reason))
            return False
        return self.handle(meant, **({} if isinstance(meant, Advance) else where))

    def made_here(self, key: Key, made_in: int, at: float) -> bool:
        """Whether a press made in step ``made_in`` (a phone's, which may
        arrive late: it was offline) may count now. One made in a step that
        is over is refused, recorded and logged, never counted in another."""
        if made_in == self.step:
            return True
        log.info("a press of %s made in step %d came in step %d: refused", key, made_in, self.step)
        self.note(Ignored(t=at, key=key, reason="a press made in a step that is over"))
        return False

    def heard(
        self, intent: Intent, at: float | None = None, text: str = "", how: Hearing = HEARD, **where: Any
    ) -> bool:
        """An intent heard in the speaker's words (``how``: heard or typed), in a step that listens to him."""
        game, cfg = self.game, self.settings
        if not listened(game.preset, game.state):
            return False
        at = self.sched.now if at is None else at
        self.note(HeardIntent(t=at, intent=intent))
        if intent.intent == "forbidden":
            return self.discipline.forbidden(intent.word or "", at, text, where, how)
        meant = heard_input(game.preset, game.state, intent, cfg.table_ends_speech)
        if meant is None:
            return False
        if not isinstance(meant, Nominate | Withdraw) or not cfg.confirm:
            return self.handle(meant, **({} if isinstance(meant, Advance) else where))
        return self.propose(meant, at, text, where)

    def propose(self, inp: Input, at: float, text: str, where: dict[str, Any]) -> bool:
        """Put a heard input to the host (assist mode), with a tone: he confirms it or not."""
        try:
            self.game.check(inp)
        except IllegalInput as exc:
            return self._rejected(inp, exc, where)
        self.proposals.append(Proposal(inp, at, text, tuple(where.items())))
        self.note(Proposed(t=self.sched.now, input=inp))
        self.note(Tone(t=self.sched.now, why="proposal"))
        return True

    def decide(self, accept: bool) -> bool:
        """The host confirms (or rejects) the oldest heard nomination."""
        if not self.proposals:
            return False
        proposal = self.proposals.pop(0)
        self.note(Decided(t=self.sched.now, input=proposal.input, accepted=accept))
        return not accept or self.handle(proposal.input, by_host=True, **dict(proposal.where))

    # ---------------------------------------------------------------- undo and resume

    def adopt(self, game: Game) -> None:
        """Carry on ``game``, rebuilt from its record (a resume after a
        crash; then :meth:`resume` says its step again): undo reaches back to
        the restart, no further; what its step took before it still counts."""
        self.game = game
        self.history.restart(len(game.record), game.step_began)

    def undo_target(self) -> int | None:
        """The record length the next undo goes back to, or None: nothing to undo today."""
        return self.history.target(len(self.game.record))

    def undo_to(self, keep: int) -> bool:
        """Go back to the game as it was with the first ``keep`` inputs: the
        store marks the rest undone, «Отмена» is said, and the step the game
        is back in goes on (a speech with the time it had left) — or simply
        continues if the undone inputs were all within it. False (and nothing
        undone) if the store cannot record the undo."""
        game = Game.replay(self.game.preset, self.game.record[:keep])
        try:
            for hook in self.undo_hooks:
                hook(keep)
        except HostDeviceError as exc:
            log.error("отмена не записана, игра на паузе: %s", exc)
            self.note(NotRecorded(t=self.sched.now, undo=keep, reason=str(exc)))
            self.pause_clock()
            self.say_at_once("store_full")
            return False
        self.game = game
        ran = self.history.keep(keep)
        self.note(Undone(t=self.sched.now, kept=keep))
        if ran is None:  # the same step: it simply goes on
            self.proposals = []
            self.say("undo")
            return True
        self.timer = None  # the undone step's time is not kept: it is not run again as it was
        self.resume(elapsed=ran, phrase="undo")
        return True

    def resume(self, elapsed: float = 0.0, phrase: str = "game_resumed") -> None:
        """Carry on a game rebuilt from its record at the step it was in, said again as the step
        says it when it begins (:func:`engine.steps.opening`; a speech with the time it had left
        after ``elapsed`` s, a vote window from its question with its ballots and LEDs)."""
        self._cancel_timers()
        self._end_step()
        self.say(phrase)
        s, preset = self.game.state, self.game.preset
        for effect in resumption(preset, s, elapsed):
            self._carry_out(effect)
        full = seconds(s.phase, preset)
        if self.timer is not None and full is not None:
            self.history.ran_before = full - self.timer[1]
        self._begin_step()

    # ---------------------------------------------------------------- pause

    def pause_clock(self) -> None:
        """Pause the game: every timer and the phrase queue stop where they are."""
        if not self.sched.paused:
            self.sched.pause()
            self.note(Paused(t=self.sched.now))

    def resume_clock(self, now: float | None = None) -> float:
        """Go on after a pause: the scheduler, the phrase queue and the timers' starts move together."""
        shift = self.sched.resume(now)
        self.speaking_until += shift
        self.opened_until += shift
        if self.timer is not None:
            self.timer = (self.timer[0] + shift, *self.timer[1:])
        self.free.shift(shift)
        return shift

    def toggle_pause(self, now: float | None = None) -> None:
        """The host's pause button: every timer and the phrase queue stop, and go on at the next press."""
        if self.sched.paused:
            shift = self.resume_clock(now)
            self.say("resumed")
            self.note(Resumed(t=self.sched.now, paused_s=round(shift, 3)))
        else:
            self.pause_clock()
            self.say_at_once("paused")

    # ---------------------------------------------------------------- phrases and LEDs

    def say(self, key: str, **slots: Any) -> float:
        """Queue a phrase after the ones before it; returns when it starts."""
        return self._queue(key, slots)[1]

    def _queue(self, key: str, slots: dict[str, Any]) -> tuple[Said, float]:
        start = max(self.sched.now, self.speaking_until)
        self.speaking_until = start + self.duration(key, slots)
        said = Said(t=start, key=key, slots=slots_of(slots), n=self.timeline.number())
        self.note(said)
        return said, start

    def say_at_once(self, key: str) -> None:
        """A phrase of the pause itself («Пауза.», «Нет места для записи»):
        said now, over whatever is being said, outside the phrase queue,
        which stands still while the game is paused."""
        self.note(Said(t=self.sched.now, key=key, at_once=True, n=self.timeline.number()))

    def led(self, seat: int, pattern: str) -> None:
        if self.leds.get(seat, "off") != pattern:
            self.leds[seat] = pattern
            self.note(LedSet(t=self.sched.now, seat=seat, pattern=pattern))

    def time_left(self) -> float | None:
        """Seconds left now on the step's timer (all of them before it starts); None without one."""
        return None if self.timer is None else time_left(self.sched.now, *self.timer[:2])

    # ---------------------------------------------------------------- steps

    def _carry_out(self, output: Output) -> None:
        match output:
            case Say():
                said, start = self._queue(output.phrase, phrase_slots(output))
                if output.phrase in TIMED_PHRASES:
                    self._announcement = (said, start, self.speaking_until)
            case StartTimer(seconds=seconds, purpose=purpose):
                self._start_timer(seconds, purpose)
            case StopTimer():
                self._cancel_timers()
                self.timer = None
            case ShowCheck(seat=seat, result=result):
                self.led(seat, "on" if result else "blink")
                off = functools.partial(self.led, seat, "off")
                self.sched.after(self.settings.answer_s, functools.partial(self._in_step, self._step, off))
            case NominationAccepted(target=target):
                self.led(target, "blink")
                self.sched.after(self.settings.blink_s, lambda: self.led(target, "off"))
            case VoteTaken(seat=seat):
                self.led(seat, "on")
            case _:
                pass

    def _end_step(self) -> None:
        self._drop_unsaid_announcement()
        ran = None
        if self.timer is not None:
            start, length, _ = self.timer
            ran = min(length, max(0.0, self.sched.now - start))
        self.history.step_ended(ran)
        self.timer = None
        self.proposals = []
        self._step += 1
        self.window, self.slots = None, ()

    def _drop_unsaid_announcement(self) -> None:
        """A timed step ended before its announcement began (the host pressed
        "next" again at once): the announcement is not said, and what follows
        takes its place in the queue — nothing stale is read out."""
        announced, self._announcement = self._announcement, None
        if announced is None:
            return
        said, start, end = announced
        if self.sched.now < start and self.speaking_until == end:
            self.timeline.dropped.add(said.n)
            self.speaking_until = start
            self.note(Unsaid(t=self.sched.now, key=said.key, seat=said.slot("seat")))

    def _cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers = []

    def _start_timer(self, length: int, purpose: str) -> None:
        start = self.speaking_until
        step = self._step
        self.timer = (start, length, purpose)
        self.note(TimerStarted(t=start, seconds=length, purpose=purpose))
        if purpose != "agreement" and length > self.settings.warn_s:
            self._timers.append(
                self.sched.at(start + length - self.settings.warn_s, lambda: self._in_step(step, self._tone))
            )
        self._timers.append(self.sched.at(start + length, lambda: self._time_up(step, purpose)))

    def _tone(self) -> None:
        self.note(Tone(t=self.sched.now))

    def _in_step(self, step: int, then: Callable[[], Any]) -> None:
        """``then()``, if the step ``step`` has not ended meanwhile (a callback scheduled in it)."""
        if step == self._step:
            then()

    def _time_up(self, step: int, purpose: str = "") -> None:
        if step == self._step:
            if purpose not in QUIET_TIMERS or self.game.phase not in self.settings.auto:
                self.say("time_up")  # a human host is told; the device goes on by itself quietly
            if self.game.phase in self.settings.auto and not self.discipline.time_up(purpose):
                self.handle(Advance())  # else the watch on the speaker ends the step

    def _begin_step(self) -> None:
        step = self._step
        s = self.game.state
        self.opened_until = self.speaking_until  # the step's opening phrases are queued by now
        for seat in list(self.leds):  # all off, then the speaker's; a vote's voters' when it is resumed
            self.led(seat, "off")
        for seat in lit(s):
            self.led(seat, "on")
        paced = plan(s, self.settings, self.speaking_until)
        self.window, self.slots = paced.window, paced.slots
        for seat, start, _ in paced.slots:
            self.sched.at(
                start, functools.partial(self._in_step, step, functools.partial(self.say, "call", seat=seat))
            )
        if paced.ends_at is not None:
            ends = functools.partial(self._in_step, step, functools.partial(self.handle, Advance()))
            self.sched.at(paced.ends_at, ends)
        for hook in self.step_hooks:
            hook(self)
