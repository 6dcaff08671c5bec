"""``host-device simulate``: a game script played through the whole runtime
on virtual time, by a scripted table.

The table does what the script says, when a table would: a speaker says his
nominations one after another once his time has started (and «спасибо» at
the end, if his transcript ends with it), voters press half a second into a
vote window, the mafia and the checkers press during their target's number.
The script is read by the same code as ``play`` (host_device/play.py), so
the two agree; only the timing is added here.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from engine import Check, Game, Input, Phase, Shot, Vote
from host_device.intents import Intent, IntentPatterns
from host_device.play import Runner
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Duration, Runtime, Settings
from host_device.script import Script, ScriptDay

FIRST_WORDS_S = 1.0  # a speaker starts talking this long after his time starts
WORD_GAP_S = 2.0  # between one intent and the next in a speech
PRESS_DELAY_S = 0.5  # a voter's press after the window opens
SLOT_DELAY_S = 0.2  # a press after its number is called


class ScriptedTable(Runner):
    def __init__(self, script: Script, runtime: Runtime, patterns: IntentPatterns | None = None) -> None:
        super().__init__(script, patterns, game=runtime.game)
        self.runtime = runtime
        runtime.observers.append(self.observe)
        runtime.on_reject.append(self._rejected)
        runtime.step_hooks.append(self._on_step)

    def _rejected(self, inp: Input, exc: Exception, where: dict[str, Any]) -> None:
        if where:
            self.ignored.append({**where, "reason": getattr(exc, "reason", str(exc))})

    def _on_step(self, runtime: Runtime) -> None:
        if not self.act() and self.game.phase is not Phase.GAME_OVER:
            runtime.stop()  # the script has run out

    # the script's inputs, each at its moment
    def feed(self, inp: Input, **where: Any) -> bool:
        rt = self.runtime
        sched = rt.sched
        match inp:
            case Vote(seat=seat):
                assert rt.window is not None
                sched.at(rt.window[0] + PRESS_DELAY_S, functools.partial(self._press, seat, where))
            case Shot(seat=seat, target=target) | Check(seat=seat, target=target):
                slot = next((start for s, start, _ in rt.slots if s == target), None)
                if slot is None:  # no number is called for it (a dead seat): the rules refuse it
                    return rt.handle(inp, **where)
                sched.at(slot + SLOT_DELAY_S, functools.partial(self._press, seat, where))
            case _:  # fouls, the deal: at once
                return rt.handle(inp, **where)
        return True

    def _press(self, seat: int, where: dict[str, Any]) -> None:
        self.runtime.press(seat, **where)

    def speech(self, script_day: ScriptDay, day: int, seat: int) -> None:
        """The speaker says his intents one by one, after his time has started."""
        rt = self.runtime
        start = rt.speaking_until + FIRST_WORDS_S
        n = 0

        def schedule(intent: Intent, where: dict[str, Any]) -> None:
            nonlocal n
            at = start + n * WORD_GAP_S
            n += 1
            rt.sched.at(at, lambda: self._say_if_speaking(seat, intent, where))

        self.spoken.add(seat)
        text = script_day.speeches.get(seat, "")
        intents = self.patterns.parse(text, self.game.preset.seats)
        for intent in intents:
            if intent.intent == "forbidden":
                self.forbidden.append({"day": day, "seat": seat, "word": intent.word})
            elif intent.seat is not None:
                where = {"day": day, "what": intent.intent, "seat": seat, "target": intent.seat}
                schedule(intent, where)
        if intents and intents[-1].intent == "end":
            schedule(intents[-1], {})

    def _say_if_speaking(self, seat: int, intent: Intent, where: dict[str, Any]) -> None:
        state = self.game.state
        if state.phase is Phase.SPEECH and state.speaker == seat:
            self.runtime.heard(intent, **where)


def builtin_durations() -> Duration:
    """Phrase lengths from the built-in voice pack (built if missing)."""
    from host_device.voice_commands import ensure_builtin
    from voices.announcer import Announcer
    from voices.catalogue import russian

    catalogue = russian()
    announcer = Announcer(catalogue, ensure_builtin(catalogue))

    def duration(key: str, slots: dict[str, Any]) -> float:
        return len(announcer.compose(key, slots)) / announcer.rate

    return duration


def simulate(
    script: Script, duration: Duration | None = None, settings: Settings | None = None, store: Any = None
) -> tuple[dict[str, Any], Runtime]:
    sched = Scheduler()
    runtime = Runtime(Game(script.preset), sched, duration or builtin_durations(), settings)
    if store is not None:
        from host_device.store import record_runtime

        record_runtime(store, runtime, "simulate")
    table = ScriptedTable(script, runtime)
    table.deal()  # the cards are dealt; the introduction night begins
    sched.run_virtual()
    return table.result(), runtime


def write_timeline(runtime: Runtime, path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for entry in runtime.sorted_timeline():
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
