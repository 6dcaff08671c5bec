"""An input given to the engine: checked, recorded in the store before it
takes effect (held, and the game paused, while the store cannot take it),
applied, and its outputs carried out; a new step ends the old one first."""

from __future__ import annotations

import logging
from typing import Any

from engine import DealRoles, IllegalInput, Input, Phase
from engine.outputs import PhaseStarted
from engine.serial import to_dict
from host_device.base.errors import HostDeviceError
from host_device.runtime.effects import Effects

log = logging.getLogger(__name__)


class EngineInputs(Effects):
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
            self.pause_clock()
            self.say_at_once("store_full")
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

    def _rejected(self, inp: Input, exc: IllegalInput, where: dict[str, Any]) -> bool:
        log.info("not accepted: %s", exc)
        self.record("rejected", input=to_dict(inp), reason=exc.reason)
        for reject in self.on_reject:
            reject(inp, exc, where)
        return False

    # ---------------------------------------------------------------- pause

    def resume_clock(self, now: float | None = None) -> float:
        """Go on after a pause: the scheduler, the phrase queue and the timer's start move together."""
        shift = self.sched.resume(now)
        self.speaking_until += shift
        if self.timer is not None:
            self.timer = (self.timer[0] + shift, *self.timer[1:])
        return shift

    def toggle_pause(self, now: float | None = None) -> None:
        """The host's pause button: every timer stops where it is, and goes on
        from there on the next press; the phrase queue moves with it."""
        if self.sched.paused:
            shift = self.resume_clock(now)
            self.say("resumed")
            self.record("resumed", paused_s=round(shift, 3))
        else:
            self.pause_clock()
            self.say_at_once("paused")
