"""What the table does, as the engine's inputs by phase: a button pressed
(the speaker ending his speech, a vote in its window, a press at a called
number at night), an intent heard in a speech, and the host's decision on a
nomination heard while it waits for him."""

from __future__ import annotations

import logging
from typing import Any

from engine import Advance, BestMove, GoldenMinute, IllegalInput, Nominate, Phase, Vote, Withdraw
from engine.serial import to_dict
from engine.steps import FLOOR, NIGHT_CALLS
from host_device.listening.intents import Intent
from host_device.runtime.effects import Proposal
from host_device.runtime.engine_inputs import EngineInputs
from host_device.runtime.night_calls import called_at

log = logging.getLogger(__name__)


class TableInputs(EngineInputs):
    def made_here(self, key: int | str, made_in: int, at: float) -> bool:
        """Whether a press made in step ``made_in`` (a phone's, which may
        arrive late: it was offline) may count now. One made in a step that
        is over is refused, recorded and logged, never counted in another."""
        if made_in == self.step:
            return True
        log.info(
            "the press of %s was made in a step that is over (%d, now %d): refused", key, made_in, self.step
        )
        self.record("ignored", t=at, key=key, reason="a press made in a step that is over")
        return False

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
            if key != s.speaker or not self.settings.table_ends_speech:
                return False
            if self.timer is not None and at < self.timer[0] + self.settings.own_press_grace_s:
                # his «Игрок номер N, ваша минута» is not over (or only just): a press meant for the
                # step before, or a reflex, does not throw his whole speech away
                self.record("ignored", t=at, key=key, reason="his press during his own announcement")
                return False
            return self.handle(Advance())
        if s.phase is Phase.VOTE:
            if self.window is not None and self.window[0] <= at < self.window[1]:
                return self.handle(Vote(seat=key), **where)
            self.record("ignored", t=at, key=key, reason="a press outside the vote window")
            return False
        if s.phase is Phase.GOLDEN_ASK:  # a candidate asks for his golden minute
            return self.handle(GoldenMinute(seat=key), **where)
        if s.phase in NIGHT_CALLS:
            target = called_at(self.slots, at)
            if target is not None:
                return self.handle(NIGHT_CALLS[s.phase](seat=key, target=target), **where)
            self.record("ignored", t=at, key=key, reason="a press between the night's calls")
            return False
        return False

    def heard(self, intent: Intent, at: float | None = None, text: str = "", **where: Any) -> bool:
        """An intent heard in the open speech (or in the city's nomination
        round, or a justification asking for the golden minute, or the first
        night's victim's best move in his last word)."""
        s = self.game.state
        listened = (Phase.SPEECH, Phase.NOMINATION, Phase.JUSTIFICATION, Phase.LAST_WORD)
        if s.phase not in listened or s.speaker is None:
            return False
        at = self.sched.now if at is None else at
        self.record("heard", t=at, **intent.to_dict())
        if s.phase is Phase.LAST_WORD:  # the best move is all a last word is heard for
            return intent.intent == "best_move" and self.handle(
                BestMove(seat=s.speaker, seats=intent.seats), **where
            )
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
