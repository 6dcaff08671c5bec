"""Where an undo (assist mode) may go back to: the record lengths at which
the host acted, at which each step began and at which the day began, and
the time each timed step had run when it ended — so that the step an undo
returns to goes on with the time it had left."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class History:
    marks: list[int] = field(default_factory=list)  # record lengths before each host action
    step_starts: list[int] = field(default_factory=lambda: [0])  # record lengths at which each step began
    day_start: int = 0  # undo never goes back before this record length
    ran: dict[int, float] = field(default_factory=dict)  # a timed step's elapsed time, by its start
    ran_before: float = 0.0  # the current timed step's time already run before it was resumed

    def restart(self, length: int, step_began: int) -> None:
        """A game carried on from its record (a resume): undo reaches back to
        here, no further; the step it is in began at ``step_began`` (what was
        done in it before the stop still counts in it: a check's answer)."""
        self.day_start, self.step_starts, self.marks = length, [step_began], []

    def host_acted(self, length: int) -> None:
        self.marks.append(length)

    def step_began(self, length: int, day_began: bool) -> None:
        self.step_starts.append(length)
        if day_began:
            self.day_start = length

    def step_ended(self, ran: float | None) -> None:
        """The step ends; ``ran``: its timer's seconds run (None: it had no timer)."""
        if ran is not None:
            self.ran[self.step_starts[-1]] = self.ran_before + ran
        self.ran_before = 0.0

    def target(self, length: int) -> int | None:
        """The record length the next undo goes back to (the last host action
        of the day, or the start of the day), or None: nothing to undo today."""
        if length <= self.day_start:
            return None
        return max([m for m in self.marks if self.day_start <= m < length], default=self.day_start)

    def keep(self, keep: int) -> float | None:
        """Back to the first ``keep`` inputs: None if the step the game is in
        is the same, else the time the step it is back in had run."""
        self.marks = [m for m in self.marks if m < keep]
        self.ran = {start: ran for start, ran in self.ran.items() if start <= keep}
        same_step = max(i for i in self.step_starts if i <= keep) == self.step_starts[-1]
        self.step_starts = [i for i in self.step_starts if i <= keep]
        if same_step:
            return None
        return self.ran.pop(self.step_starts[-1], 0.0)
