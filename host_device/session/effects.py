"""The runtime to the table: each effect it records (a phrase, an LED, the
ten-second tone, a speech's listening window) carried out on the devices at
its time, and the night's sound under the night phases. Every phrase played
goes to the gate, so the listener never hears the device."""

from __future__ import annotations

import functools
import logging

from engine import Phase
from engine.steps import NIGHT, listening
from hardware.panel import BLINK, OFF, PATTERNS, Panel
from hardware.speaker import Playback, Speaker
from host_device.base.sound import Samples
from host_device.listening.listener import Gate, Listener
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import Entry, LedSet, Said, TimerStarted, Tone, when_said
from host_device.sound.announcer import Announcer

log = logging.getLogger(__name__)

UNDER_THE_BED = NIGHT | {Phase.ROLES}  # the phases under the night's sound: the deal and every night step


class Effects:
    def __init__(
        self,
        runtime: Runtime,
        sched: Scheduler,
        panel: Panel,
        speaker: Speaker,
        announcer: Announcer,
        gate: Gate,
        listener: Listener | None,
        bed: Samples | None,
    ) -> None:
        self.runtime, self.sched, self.panel, self.speaker = runtime, sched, panel, speaker
        self.announcer, self.gate, self.listener, self.bed = announcer, gate, listener, bed
        self.bed_on = False
        # (game time, the night's sound on): the same whatever the roles
        self.beds: list[tuple[float, bool]] = []
        self.leaving: Playback | None = None  # «Выключаюсь» said: the game stops, the box powers off
        runtime.recorders.append(self.carry_out)
        runtime.step_hooks.append(self.on_step)

    def carry_out(self, entry: Entry) -> None:
        match entry:
            case Said():  # a step skipped before its announcement began is not announced
                when_said(self.sched, self.runtime.timeline, entry, self._play)
            case LedSet(seat=seat, pattern=pattern):
                self.panel.set_led(seat, PATTERNS[pattern])
            case Tone():
                self.sched.at(entry.t, lambda: self.gate.add(self.announcer.beep()))
            case TimerStarted(purpose=purpose) if self.listener is not None:
                game = self.runtime.game  # the step this timer is the speaker's, and what it listens for
                listens = listening(game.preset, game.state) if purpose == game.phase.value else None
                if listens is not None:
                    self.sched.at(entry.t, functools.partial(self.listener.open_window, listens))
            case _:
                pass

    def _play(self, said: Said) -> None:
        self.gate.add(self.announcer.say(said.key, **said.slot_values))

    def say_now(self, key: str) -> Playback:
        """A phrase outside the game's timeline (a question, a notice), gated too."""
        playback: Playback = self.announcer.say(key)
        self.gate.add(playback)
        return playback

    def on_step(self, runtime: Runtime) -> None:
        if self.listener is not None:
            self.listener.close_window()
        self.night_sound()

    def night_sound(self) -> None:
        """The night's sound on in the night phases, off by day: it follows the
        phases, whose times never depend on a secret."""
        night = self.runtime.game.phase in UNDER_THE_BED and not self.runtime.stopped
        if self.bed is None or night == self.bed_on:
            return
        self.bed_on = night
        self.speaker.set_bed(self.bed if night else None)
        self.beds.append((self.sched.now, night))

    def blink_all(self) -> None:
        """Every LED blinking: the game waits (the speaker is lost)."""
        self.panel.all_leds(BLINK)

    def show_leds(self) -> None:
        """The LEDs as the runtime has them (after blink_all)."""
        self.panel.all_leds(OFF)
        for seat, pattern in self.runtime.leds.items():
            self.panel.set_led(seat, PATTERNS[pattern])

    def leave(self) -> None:
        """«Пауза» held: say «Выключаюсь» and end the game here (it is in the
        store, every input of it; the next start offers it)."""
        if self.leaving is None:
            log.warning("кнопку паузы удержали: выключаюсь")
            self.speaker.set_bed(None)
            self.leaving = self.say_now("powering_off")

    def close(self) -> None:
        """The night's sound off, and «Выключаюсь» heard whole."""
        if self.bed_on:
            self.speaker.set_bed(None)
        if self.leaving is not None:
            self.leaving.wait(10)
