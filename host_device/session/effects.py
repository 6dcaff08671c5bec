"""The runtime to the table: each effect it records (a phrase, an LED, the
ten-second tone, a speech's listening window) carried out on the devices at
its time, and the night's sound under the night phases. Every phrase played
goes to the gate, so the listener never hears the device."""

from __future__ import annotations

import functools
import logging
from typing import Any

from engine import Phase
from engine.steps import NIGHT, best_move_now
from hardware.panel import BLINK, OFF, PATTERNS, Panel
from hardware.speaker import Playback, Speaker
from host_device.base.sound import Samples
from host_device.listening.listener import Gate
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.timeline import when_said

log = logging.getLogger(__name__)

UNDER_THE_BED = NIGHT | {Phase.ROLES}  # the phases under the night's sound: the deal and every night step
LISTENED = frozenset({"speech", "nomination", "justification"})  # the timers a voice can act in
# and the last word that has a best move (engine.steps.best_move_now), with the best move's patterns


class Effects:
    def __init__(
        self,
        runtime: Runtime,
        sched: Scheduler,
        panel: Panel,
        speaker: Speaker,
        announcer: Any,
        gate: Gate,
        listener: Any,
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

    def carry_out(self, entry: dict[str, Any]) -> None:
        kind = entry["type"]
        if kind == "say":  # a step skipped before its announcement began is not announced
            when_said(self.runtime, entry, self._play)
        elif kind == "led":
            self.panel.set_led(entry["seat"], PATTERNS[entry["pattern"]])
        elif kind == "tone":
            self.sched.at(entry["t"], lambda: self.gate.add(self.announcer.beep()))
        elif kind == "timer" and self.listener is not None:
            opening = self.listener.open_window
            if entry["purpose"] == "nomination":  # the city's round: «Игрок номер семь» nominates too
                opening = functools.partial(opening, in_round=True)
            elif entry["purpose"] == "last_word" and best_move_now(
                self.runtime.game.preset, self.runtime.game.state
            ):
                opening = functools.partial(opening, best_move=True)  # «Лучший ход: три, пять, восемь»
            elif entry["purpose"] not in LISTENED:
                return
            self.sched.at(entry["t"], opening)

    def _play(self, entry: dict[str, Any], slots: dict[str, Any]) -> None:
        self.gate.add(self.announcer.say(entry["key"], **slots))

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
