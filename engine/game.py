"""The engine's public face: a game you hand inputs to.

>>> game = Game("classic")
>>> outputs = game.handle(DealRoles(roles=((1, Role.DON), ...)))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine.inputs import (
    Advance,
    Foul,
    GoldenMinute,
    Input,
    Nominate,
    Tally,
    Vote,
    Withdraw,
)
from engine.machine import Machine
from engine.outputs import Output
from engine.presets import Preset, get_preset
from engine.state import Phase, State
from engine.steps import NIGHT_CALLS
from engine.view import public_view
from host_device.base.errors import HostDeviceError


class Game:
    def __init__(self, preset: Preset | str = "classic") -> None:
        self.preset = get_preset(preset) if isinstance(preset, str) else preset
        self._state = State(preset=self.preset.name, seats=self.preset.seats)
        self._record: list[Input] = []

    @property
    def state(self) -> State:
        """A copy of the current state (the game's own cannot be changed)."""
        return self._state.clone()

    @property
    def phase(self) -> Phase:
        return self._state.phase

    def public_view(self) -> dict[str, Any]:
        """What any player may see now (no role before the game ends)."""
        return public_view(self._state)

    @property
    def record(self) -> tuple[Input, ...]:
        """The accepted inputs, in order: replaying them gives an equal game."""
        return tuple(self._record)

    def handle(self, inp: Input) -> list[Output]:
        """Carry out one input and return its events and effects.

        Raises :class:`engine.errors.IllegalInput` (naming the phase and the
        seat) and leaves the game unchanged if the rules do not allow it now.
        """
        machine = Machine(self.preset, self._state.clone())
        outputs = machine.apply(inp)
        self._state = machine.s
        self._record.append(inp)
        return outputs

    def check(self, inp: Input) -> None:
        """Raise :class:`engine.errors.IllegalInput` if the rules do not allow
        ``inp`` now; change nothing either way."""
        Machine(self.preset, self._state).check(inp)

    def is_legal(self, inp: Input) -> bool:
        try:
            self.check(inp)
        except HostDeviceError:
            return False
        return True

    def legal_inputs(self) -> list[Input]:
        """Every input the rules allow now.

        In the roles phase the only legal input is a :class:`DealRoles` with
        the preset's counts; deals are not listed (use :meth:`is_legal`).
        """
        return [inp for inp in self._candidates() if self.is_legal(inp)]

    def _candidates(self) -> Iterator[Input]:
        s = self._state
        if s.phase in (Phase.ROLES, Phase.GAME_OVER):
            return
        yield Advance()
        seats = range(1, s.seats + 1)
        for seat in seats:
            yield Foul(seat=seat)
        if s.phase in (Phase.SPEECH, Phase.NOMINATION) and s.speaker is not None:
            for target in seats:
                yield Nominate(seat=s.speaker, target=target)
                yield Withdraw(seat=s.speaker, target=target)
        elif s.phase in (Phase.JUSTIFICATION, Phase.GOLDEN_ASK):
            for seat in seats:
                yield GoldenMinute(seat=seat)
        elif s.phase is Phase.VOTE:  # only the living vote
            for seat in s.alive():
                yield Vote(seat=seat)
            for count in range(s.seats + 1):
                yield Tally(count=count)
        elif s.phase in NIGHT_CALLS:  # the living choose among the living
            kind = NIGHT_CALLS[s.phase]
            alive = s.alive()
            for seat in alive:
                for target in alive:
                    yield kind(seat=seat, target=target)

    @classmethod
    def replay(cls, preset: Preset | str, record: Iterable[Input]) -> Game:
        game = cls(preset)
        for inp in record:
            game.handle(inp)
        return game
