"""Play a whole game from a script through the engine: no audio, no clock.

The runner stands in for the table: at each step it gives the engine what
the script says happened there, and ``Advance`` when the step is over. What
the engine refuses is not an error of the script; it is reported under
``ignored`` with the engine's reason, as a host would note a wrong call.
"""

from __future__ import annotations

from typing import Any

from engine import IllegalInput, Input, Nominate, Phase, Withdraw
from engine.steps import seconds
from host_device.scripts.runner import Runner, best_move_result
from host_device.scripts.script import (
    ROUND_GAP_S,
    UTTERANCE_GAP_S,
    Script,
    ScriptDay,
    ScriptError,
    said_at,
    too_late,
)

__all__ = ["Play", "best_move_result", "play"]


class Play(Runner):
    """The script played straight into the engine."""

    def run(self) -> dict[str, Any]:
        over = next((n for n, day in enumerate(self.script.days) if day.over), None)
        if over is not None:  # the grace, «…, время!» and the foul are the clock's: simulate's
            raise ScriptError(f"days[{over}].over", "going on after «Время!» needs the clock: use simulate")
        return super().run()

    def feed(self, inp: Input, **where: Any) -> bool:
        try:
            outputs = self.game.handle(inp)
        except IllegalInput as exc:
            self.ignored.append({**where, "reason": exc.reason})
            return False
        self.observe(outputs)
        return True

    def speech(self, script_day: ScriptDay, day: int, seat: int) -> None:
        """The speaker's nominations and withdrawals, paced as the format says
        (:func:`.script.said_at`): one said after his time is up is ignored."""
        self.spoken.add(seat)
        text = script_day.speeches.get(seat, "")
        limit = seconds(Phase.SPEECH, self.game.preset)
        said = 0
        for intent in self.patterns.parse(text, self.game.preset.seats):
            if intent.intent == "forbidden":  # heard with the utterance it comes before
                foul = self.device_foul(intent, day, seat, too_late(said_at(said, UTTERANCE_GAP_S), limit))
                if foul is not None:
                    self.feed(foul, day=day, what="forbidden", seat=seat, word=intent.word)
            elif intent.seat is not None:
                where = {"day": day, "what": intent.intent, "seat": seat, "target": intent.seat}
                late = too_late(said_at(said, UTTERANCE_GAP_S), limit)
                said += 1
                if late:
                    self.ignored.append({**where, "reason": late})
                    continue
                kind = Nominate if intent.intent == "nominate" else Withdraw
                self.feed(kind(seat=seat, target=intent.seat), **where)

    def nomination(self, script_day: ScriptDay, day: int, seat: int) -> None:
        """The city's round: what the caller says when called (his candidate,
        or «пас»); a refused name (an alibi) leaves him to name another."""
        self.spoken.add(seat)
        text = script_day.speeches.get(seat, "")
        limit = seconds(Phase.NOMINATION, self.game.preset)
        said = 0
        for intent in self.round_patterns.parse(text, self.game.preset.seats):
            if intent.intent == "forbidden":  # the city's round: the city rules have no fouls
                self.device_foul(intent, day, seat)
                continue
            late = too_late(said_at(said, ROUND_GAP_S), limit)
            said += 1
            if intent.intent == "nominate" and intent.seat is not None:
                where = {"day": day, "what": "nominate", "seat": seat, "target": intent.seat}
                if late:
                    self.ignored.append({**where, "reason": late})
                elif (
                    self.feed(Nominate(seat=seat, target=intent.seat), **where)
                    and self.game.state.speaker != seat
                ):
                    self.moved = True  # named: the next player is called
                    return


def play(script: Script) -> dict[str, Any]:
    return Play(script).run()
