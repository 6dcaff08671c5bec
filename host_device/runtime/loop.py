"""The runtime: feeds the engine with what the table does and carries out
what the engine asks, on one schedule (virtual or real time).

Every phrase is queued after the one before it (``speaking_until``); a timer
starts when the phrase that announces it has ended; a vote window opens when
the question has been said and closes when «Спасибо» starts; the night calls
the living seat numbers at a fixed pace, and a press counts for the number
whose slot it falls in. What the runtime does is written to a timeline, each
entry with its time.

Host mode and assist mode differ only in :class:`Settings`: which steps the
device ends by itself (``auto``: host mode all of them; assist mode the vote
windows and the night on buttons, if the host wants them), whether the table
ends a speech (the speaker's button, «спасибо»), and whether a heard
nomination waits for the host's confirmation (``confirm``). Assist mode adds
free timers and undo (:meth:`Runtime.undo_to`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import (
    Advance,
    DealRoles,
    Game,
    GoldenMinute,
    HostDeviceError,
    IllegalInput,
    Input,
    Nominate,
    Phase,
    Vote,
    Withdraw,
)
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
from engine.serial import to_dict
from engine.steps import FLOOR, NIGHT_CALLS, opening, seconds
from host_device.listening.intents import Intent
from host_device.runtime.clock import Scheduled, Scheduler

log = logging.getLogger(__name__)

QUIET_TIMERS = frozenset({"nomination", "golden_ask"})  # short windows that end without «Время!»
TIMED_PHRASES = frozenset(phase.value for phase in FLOOR)  # «Игрок номер N, ваша минута» and the like
EVERY_STEP = frozenset(Phase)


@dataclass(frozen=True)
class Settings:
    vote_window_s: float = 2.5  # from the end of the question to «Спасибо»
    call_s: float = 1.2  # one number's slot in the night's calls
    meet_s: float = 5.0  # a role meeting the host on the introduction night
    answer_s: float = 3.0  # a check's answer on the checker's LED, the same whether or not he checked
    gap_s: float = 0.4  # a breath between one step's phrases and the next step
    warn_s: float = 10.0  # the tone this long before the end of a speech
    blink_s: float = 1.0  # the nominated seat's LED after «Принято»
    auto: frozenset[Phase] = EVERY_STEP  # steps the device ends by itself (timer, window, night pace)
    table_ends_speech: bool = True  # the speaker's button or «спасибо» ends his speech
    confirm: bool = False  # a heard nomination waits for the host's confirmation


@dataclass(frozen=True)
class Proposal:
    """A nomination (or withdrawal) heard in a speech, waiting for the host."""

    input: Nominate | Withdraw
    at: float
    text: str
    where: tuple[tuple[str, Any], ...] = ()


Duration = Callable[[str, dict[str, Any]], float]
Reject = Callable[[Input, IllegalInput, dict[str, Any]], None]


def slots_of(say: Say) -> dict[str, Any]:
    return {
        f.name: getattr(say, f.name)
        for f in dataclasses.fields(say)
        if f.name != "phrase" and getattr(say, f.name) not in (None, ())
    }


SAY_FIELDS = ("t", "type", "key", "dropped")  # a say entry's fields that are not the phrase's slots


def entry_slots(entry: dict[str, Any]) -> dict[str, Any]:
    """The slot values of a timeline ``say`` entry."""
    return {k: v for k, v in entry.items() if k not in SAY_FIELDS}


def when_said(
    runtime: Runtime, entry: dict[str, Any], then: Callable[[dict[str, Any], dict[str, Any]], Any]
) -> None:
    """``then(entry, slots)`` at the moment a ``say`` entry's phrase is said;
    never, if its step ended before it began (the entry is then marked dropped)."""

    def said() -> None:
        if not entry.get("dropped"):
            then(entry, entry_slots(entry))

    runtime.sched.at(entry["t"], said)


class Runtime:
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
        self.step_hooks: list[Callable[[Runtime], None]] = []
        self.on_reject: list[Reject] = []
        self.before_input: list[Callable[[Input], None]] = []  # e.g. the store's commit
        self.recorders: list[Callable[[dict[str, Any]], None]] = []  # told of every timeline entry
        self.window: tuple[float, float] | None = None  # the open vote window
        self.slots: list[tuple[int, float, float]] = []  # night calls: (seat, start, end)
        self.leds: dict[int, str] = {}
        self._step = 0
        self._timers: list[Scheduled] = []
        self.stopped = False
        self.timer: tuple[float, int, str] | None = None  # the step's timer: (start, seconds, purpose)
        self.free: tuple[float, int] | None = None  # the host's free timer: (start, seconds)
        self._free: list[Scheduled] = []
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

    # ---------------------------------------------------------------- the engine

    def handle(self, inp: Input, by_host: bool = False, **where: Any) -> bool:
        """Give the engine one input; ``by_host`` marks a host's action, a
        point that undo returns to."""
        if self.stopped or not self.retry_unrecorded():
            return False  # while the store cannot take the waiting input, nothing else is taken
        try:
            self.game.check(inp)
        except IllegalInput as exc:
            return self._rejected(inp, exc, where)
        try:
            self._commit(inp)
        except HostDeviceError as exc:  # the store cannot take it (a full disk): stop, and say so
            log.error("not recorded, the game is paused until the store takes it: %s", exc)
            self.record("not_recorded", input=to_dict(inp), reason=str(exc))
            self.unrecorded = (inp, by_host, self.sched.paused)
            if not self.sched.paused:
                self.sched.pause()
            self.say("store_full")
            return False
        self._apply(inp, by_host)
        return True

    def _commit(self, inp: Input) -> None:
        for commit in self.before_input:  # the record first: nothing is carried out unrecorded
            commit(inp)

    def retry_unrecorded(self) -> bool:
        """The input the store could not take, tried again (the table polls
        this): once it is recorded it takes effect and the game goes on where
        it stopped. True when nothing waits any more."""
        if self.unrecorded is None:
            return True
        inp, by_host, paused_before = self.unrecorded
        try:
            self._commit(inp)
        except HostDeviceError:
            return False
        self.unrecorded = None
        self.record("recorded", input=to_dict(inp))
        if not paused_before:  # a pause the host made stays his to end
            shift = self.resume_clock()
            self.record("resumed", paused_s=round(shift, 3))
            self.say("resumed")
        self._apply(inp, by_host)
        return True

    def _apply(self, inp: Input, by_host: bool) -> None:
        if by_host:
            self.marks.append(len(self.game.record))
        outputs = self.game.handle(inp)
        self.record("input", input=to_dict(inp))
        new_step = any(isinstance(o, PhaseStarted) for o in outputs)
        if new_step:  # before the effects: the new step's timers belong to it
            self._end_step()
            self.step_starts.append(len(self.game.record))
            if isinstance(inp, DealRoles) or any(
                isinstance(o, PhaseStarted) and o.phase == Phase.MORNING.value for o in outputs
            ):
                self.day_start = len(self.game.record)
        for observe in self.observers:
            observe(outputs)
        for output in outputs:
            self._carry_out(output)
        if new_step:
            self._begin_step()

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
        for timer in self._timers:
            timer.cancel()
        self._timers = []
        self._end_step()
        self.say(phrase)
        s, preset = self.game.state, self.game.preset
        for effect in opening(preset, s, elapsed):
            self._carry_out(effect)
        full = seconds(s.phase, preset)
        if self.timer is not None and full is not None:
            self._ran_before = full - self.timer[1]
        self._begin_step()

    def _rejected(self, inp: Input, exc: IllegalInput, where: dict[str, Any]) -> bool:
        log.info("not accepted: %s", exc)
        self.record("rejected", input=to_dict(inp), reason=exc.reason)
        for reject in self.on_reject:
            reject(inp, exc, where)
        return False

    def _carry_out(self, output: Output) -> None:
        match output:
            case Say():
                start = self.say(output.phrase, **slots_of(output))
                if output.phrase in TIMED_PHRASES:
                    self._announcement = (self.timeline[-1], start, self.speaking_until)
            case StartTimer(seconds=seconds, purpose=purpose):
                self._start_timer(seconds, purpose)
            case StopTimer():
                for timer in self._timers:
                    timer.cancel()
                self._timers = []
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

    def led(self, seat: int, pattern: str) -> None:
        if self.leds.get(seat, "off") != pattern:
            self.leds[seat] = pattern
            self.record("led", seat=seat, pattern=pattern)

    def all_leds_off(self) -> None:
        for seat in list(self.leds):
            self.led(seat, "off")

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
            self.slots = [
                (seat, ready + k * cfg.call_s, ready + (k + 1) * cfg.call_s) for k, seat in enumerate(alive)
            ]
            for seat, start, _ in self.slots:
                self.sched.at(start, functools.partial(self._call, step, seat))
            tail = cfg.answer_s if phase is Phase.NIGHT_CHECK else cfg.gap_s
            self.sched.at(ready + len(alive) * cfg.call_s + tail, lambda: self._advance(step))
        for hook in self.step_hooks:
            hook(self)

    # ---------------------------------------------------------------- the table

    def press(self, key: int | str, at: float | None = None, **where: Any) -> bool:
        """A button pressed at ``at`` (default: now)."""
        at = self.sched.now if at is None else at
        s = self.game.state
        self.record("press", t=at, key=key)
        if key == "next":
            return self.handle(Advance())
        if key == "pause":
            self.toggle_pause()
            return True
        if not isinstance(key, int):
            return False
        if s.phase in FLOOR:
            return key == s.speaker and self.settings.table_ends_speech and self.handle(Advance())
        if s.phase is Phase.VOTE:
            if self.window is not None and self.window[0] <= at < self.window[1]:
                return self.handle(Vote(seat=key), **where)
            self.record("ignored", t=at, key=key, reason="a press outside the vote window")
            return False
        if s.phase is Phase.GOLDEN_ASK:  # a candidate asks for his golden minute
            return self.handle(GoldenMinute(seat=key), **where)
        if s.phase in NIGHT_CALLS:
            for target, start, end in self.slots:
                if start <= at < end:
                    return self.handle(NIGHT_CALLS[s.phase](seat=key, target=target), **where)
            self.record("ignored", t=at, key=key, reason="a press between the night's calls")
            return False
        return False

    def resume_clock(self, now: float | None = None) -> float:
        """Go on after a pause: the scheduler, the phrase queue and the timers' starts move together."""
        shift = self.sched.resume(now)
        self.speaking_until += shift
        if self.timer is not None:
            self.timer = (self.timer[0] + shift, *self.timer[1:])
        if self.free is not None:
            self.free = (self.free[0] + shift, self.free[1])
        return shift

    def toggle_pause(self, now: float | None = None) -> None:
        """The host's pause button: every timer stops where it is, and goes on
        from there on the next press; the phrase queue moves with it."""
        if self.sched.paused:
            shift = self.resume_clock(now)
            self.say("resumed")
            self.record("resumed", paused_s=round(shift, 3))
        else:
            self.sched.pause()
            self.record("paused")
            self.say("paused")

    def heard(self, intent: Intent, at: float | None = None, text: str = "", **where: Any) -> bool:
        """An intent heard in the open speech (or in the city's nomination
        round, or a justification asking for the golden minute)."""
        s = self.game.state
        if s.phase not in (Phase.SPEECH, Phase.NOMINATION, Phase.JUSTIFICATION) or s.speaker is None:
            return False
        at = self.sched.now if at is None else at
        self.record("heard", t=at, **intent.to_dict())
        if intent.intent == "golden":
            return s.phase is Phase.JUSTIFICATION and self.handle(GoldenMinute(seat=s.speaker), **where)
        if intent.intent == "end" or (intent.intent == "pass" and s.phase is Phase.NOMINATION):
            return self.settings.table_ends_speech and self.handle(Advance())
        if s.phase is Phase.JUSTIFICATION or (s.phase is Phase.NOMINATION and intent.intent != "nominate"):
            return False
        if intent.seat is not None and intent.intent in ("nominate", "withdraw"):
            kind = Nominate if intent.intent == "nominate" else Withdraw
            inp = kind(seat=s.speaker, target=intent.seat)
            if not self.settings.confirm:
                return self.handle(inp, **where)
            try:
                self.game.check(inp)
            except IllegalInput as exc:
                return self._rejected(inp, exc, where)
            self.proposals.append(Proposal(inp, at, text, tuple(where.items())))
            self.record("proposal", input=to_dict(inp))
            self.record("tone", why="proposal")
            return True
        return False

    def decide(self, accept: bool) -> bool:
        """The host confirms (or rejects) the oldest heard nomination."""
        if not self.proposals:
            return False
        proposal = self.proposals.pop(0)
        self.record("confirmed" if accept else "declined", input=to_dict(proposal.input))
        return not accept or self.handle(proposal.input, by_host=True, **dict(proposal.where))

    # ---------------------------------------------------------------- the host's tools (assist mode)

    def start_free_timer(self, length: int, phrase: str = "timer", **slots: Any) -> None:
        """A timer on demand, outside the game's steps: announced, the tone ten
        seconds before the end (for more than ten seconds), then «Время!»."""
        self.stop_free_timer()
        self.say(phrase, **slots)
        start = self.speaking_until
        self.free = (start, length)
        self.record("free_timer", t=start, seconds=length)
        if length > self.settings.warn_s:
            self._free.append(self.sched.at(start + length - self.settings.warn_s, self._free_tone))
        self._free.append(self.sched.at(start + length, self._free_up))

    def stop_free_timer(self) -> bool:
        running = self.free is not None
        for item in self._free:
            item.cancel()
        self._free, self.free = [], None
        return running

    def _free_tone(self) -> None:
        self.record("tone")

    def _free_up(self) -> None:
        self._free, self.free = [], None
        self.say("time_up")

    def undo_target(self) -> int | None:
        """The record length the next undo goes back to (the last host action
        of the day, or the start of the day), or None: nothing to undo today."""
        n = len(self.game.record)
        if n <= self.day_start:
            return None
        return max([m for m in self.marks if self.day_start <= m < n], default=self.day_start)

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
            log.error("the undo is not recorded, the game is paused: %s", exc)
            self.record("not_recorded", undo=keep, reason=str(exc))
            if not self.sched.paused:
                self.sched.pause()
            self.say("store_full")
            return False
        self.game = game
        self.marks = [m for m in self.marks if m < keep]
        self._ran = {start: ran for start, ran in self._ran.items() if start <= keep}
        same_step = max(i for i in self.step_starts if i <= keep) == self.step_starts[-1]
        self.step_starts = [i for i in self.step_starts if i <= keep]
        self.record("undo", kept=keep)
        if same_step:
            self.proposals = []
            self.say("undo")
            return True
        self.timer = None  # the undone step's time is not kept: it is not run again as it was
        self.resume(elapsed=self._ran.pop(self.step_starts[-1], 0.0), phrase="undo")
        return True
