"""Undo (assist mode): back to the game as it was before the host's last
action, no further than the start of the day — or than the restart, in a
game resumed from its record."""

from __future__ import annotations

import logging

from engine import Game
from host_device.base.errors import HostDeviceError
from host_device.runtime.engine_inputs import EngineInputs

log = logging.getLogger(__name__)


class Undo(EngineInputs):
    def adopt(self, game: Game) -> None:
        """Carry on ``game``, rebuilt from its record (a resume after a
        crash; then :meth:`resume` says its step again): undo reaches back to
        the restart, no further, and the step the game is in began there."""
        self.game = game
        restart = len(game.record)
        self.day_start, self.step_starts, self.marks = restart, [restart], []

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
            self.pause_clock()
            self.say_at_once("store_full")
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
