"""The devices' health, checked every POLL_S of wall time, paused or not:
stuck buttons and holds (the panel's poll), a lost microphone, a lost
speaker (the game waits, LEDs blinking, until it is back), and a store that
could not record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.microphone import Microphone
from hardware.panel import Panel
from host_device.runtime.clock import Clock, Scheduler
from host_device.runtime.loop import Runtime
from host_device.session.effects import Effects

POLL_S = 0.5


class Health:
    def __init__(
        self,
        runtime: Runtime,
        clock: Clock,
        panel: Panel,
        microphone: Microphone,
        speaker: Any,
        effects: Effects,
        notice: Callable[[str, str], None],
    ) -> None:
        self.runtime, self.clock, self.panel, self.microphone = runtime, clock, panel, microphone
        self.speaker, self.effects, self.notice = speaker, effects, notice
        self.polled = 0.0  # the wall time of the last check
        self.speaker_lost = False

    @property
    def sched(self) -> Scheduler:
        return self.runtime.sched

    def tick(self) -> None:
        now = self.clock.now()
        if now - self.polled < POLL_S:
            return
        self.polled = now
        self.runtime.retry_unrecorded()  # a store that could not record: the game goes on once it can
        self.panel.poll()
        self.microphone.poll()
        alive = getattr(self.speaker, "alive", True)
        if not alive and not self.speaker_lost:
            self.speaker_lost = True
            if not self.sched.paused:
                self.sched.pause()
            self.effects.blink_all()
            self.notice("the speaker is lost; the game waits until it is back", "динамик потерян: игра ждёт")
        if self.speaker_lost and self.speaker.reopen():
            self.speaker_lost = False
            self.effects.show_leds()
            self.runtime.resume_clock(self.sched.now)
            self.notice("the speaker is back; the game goes on", "динамик снова работает")
