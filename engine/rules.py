"""What every part of the rules works on: the preset, the state, the
outputs so far, and entering a step (its opening from the table of steps).
The parts (checks, night, day, votes, fouls) are mixed into
:class:`engine.machine.Machine`; each calls the others through it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.outputs import Output, PhaseStarted, Say
from engine.presets import Preset
from engine.roles import Role
from engine.state import Phase, State
from engine.steps import opening


class Rules:
    def __init__(self, preset: Preset, state: State) -> None:
        self.preset = preset
        self.s = state
        self.out: list[Output] = []

    def emit(self, *items: Output) -> None:
        self.out.extend(items)

    def say(self, key: str, role: Role | None = None) -> Say:
        """A phrase in the preset's own words (:meth:`Preset.words`)."""
        phrase, role = self.preset.words(key, role)
        return Say(phrase=phrase, role=role)

    def enter(self, phase: Phase, seat: int | None = None, role: Role | None = None) -> None:
        """Begin a step: it is announced, then says and starts what the table of steps gives it."""
        self.s.phase = phase
        self.emit(PhaseStarted(phase=phase.value, day=self.s.day, seat=seat, role=role))
        self.emit(*opening(self.preset, self.s))

    if TYPE_CHECKING:  # pragma: no cover - the parts that call each other, for the type checker

        def give_floor(self, phase: Phase, seat: int) -> None:
            raise NotImplementedError

        def start_intro(self) -> None:
            raise NotImplementedError

        def start_night(self) -> None:
            raise NotImplementedError

        def start_speeches(self) -> None:
            raise NotImplementedError

        def begin_day(self, killed: int | None, saved: bool = False) -> None:
            raise NotImplementedError

        def announce_vote(self) -> None:
            raise NotImplementedError

        def next_last_word(self) -> None:
            raise NotImplementedError

        def next_speaker(self) -> None:
            raise NotImplementedError

        def no_vote(self, reason: str) -> None:
            raise NotImplementedError

        def leave_by_vote(self, seats: tuple[int, ...], phrase: str = "leaves") -> None:
            raise NotImplementedError

        def depart(self, seat: int, how: str) -> None:
            raise NotImplementedError

        def game_ended(self) -> bool:
            raise NotImplementedError
