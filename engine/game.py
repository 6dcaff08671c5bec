"""The engine's public face: a game you hand inputs to.

>>> game = Game("classic")
>>> outputs = game.handle(DealRoles(roles=((1, Role.DON), ...)))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.checks import check
from engine.inputs import (
    Advance,
    BestMove,
    Check,
    DealRoles,
    Foul,
    GoldenMinute,
    Input,
    Nominate,
    Shot,
    Tally,
    Visit,
    Vote,
    Withdraw,
)
from engine.machine import apply
from engine.outputs import Output, PhaseStarted
from engine.presets import Preset, get_preset
from engine.state import Phase, State
from engine.steps import ALLOWS
from engine.view import public_view
from host_device.base.errors import HostDeviceError


@dataclass(frozen=True)
class Move:
    """An input the rules took, carried out on a copy of the game: it takes
    effect when the game makes it (:meth:`Game.make`), after it is recorded."""

    input: Input
    outputs: tuple[Output, ...]
    state: State = field(repr=False)  # the game after it
    base: State = field(repr=False)  # the game it was carried out on


def _seats(s: State) -> range:
    return range(1, s.seats + 1)


def _pairs(kind: type[Shot] | type[Check] | type[Visit]) -> Callable[[State], Iterator[Input]]:
    """The night's choices: the living choose among the living."""
    return lambda s: (kind(seat=seat, target=target) for seat in s.alive() for target in s.alive())


def _speaker(s: State) -> Iterator[Input]:
    """The speaker's nominations and withdrawals, target by target."""
    if s.speaker is not None:
        for target in _seats(s):
            yield Nominate(seat=s.speaker, target=target)
            yield Withdraw(seat=s.speaker, target=target)


# every input of a kind the rules could take, given the state, in the order legal_inputs lists them
# (which kinds a step takes is the table of steps'; which of them it takes, the checks')
CANDIDATES: dict[type[Input], Callable[[State], Iterator[Input]]] = {
    Advance: lambda s: iter((Advance(),)),
    Foul: lambda s: (Foul(seat=seat) for seat in _seats(s)),
    Nominate: _speaker,  # one list for both kinds, each target's nomination then its withdrawal
    Withdraw: _speaker,
    GoldenMinute: lambda s: (GoldenMinute(seat=seat) for seat in _seats(s)),
    Vote: lambda s: (Vote(seat=seat) for seat in s.alive()),  # only the living vote
    Tally: lambda s: (Tally(count=count) for count in range(s.seats + 1)),
    Shot: _pairs(Shot),
    Check: _pairs(Check),
    Visit: _pairs(Visit),
    BestMove: lambda s: iter(()),  # three seats of many: asked with is_legal
    DealRoles: lambda s: iter(()),  # deals are not listed (use is_legal)
}


class Game:
    def __init__(self, preset: Preset | str = "classic") -> None:
        self.preset = get_preset(preset) if isinstance(preset, str) else preset
        self._state = State(preset=self.preset.name, seats=self.preset.seats)
        self._record: list[Input] = []
        self.step_began = 0  # the record's length when the step the game is in began

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
        return self.make(self.prepare(inp))

    def prepare(self, inp: Input) -> Move:
        """Check ``inp`` and carry it out on a copy of the game, which stays
        as it is until :meth:`make` (so the input can be recorded first).

        Raises :class:`engine.errors.IllegalInput` if the rules do not allow it now.
        """
        state = self._state.clone()
        outputs = apply(self.preset, state, inp)
        return Move(input=inp, outputs=tuple(outputs), state=state, base=self._state)

    def make(self, move: Move) -> list[Output]:
        """The prepared input takes effect; returns its events and effects."""
        if move.base is not self._state:
            raise ValueError("the move was prepared for the game as it was before another input")
        self._state = move.state
        self._record.append(move.input)
        if any(isinstance(output, PhaseStarted) for output in move.outputs):
            self.step_began = len(self._record)
        return list(move.outputs)

    def check(self, inp: Input) -> None:
        """Raise :class:`engine.errors.IllegalInput` if the rules do not allow
        ``inp`` now; change nothing either way."""
        check(self.preset, self._state, inp)

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
        takes = ALLOWS[s.phase].inputs
        listed = set()
        for kind, candidates in CANDIDATES.items():
            if kind in takes and candidates not in listed:
                listed.add(candidates)
                yield from (inp for inp in candidates(s) if type(inp) in takes)

    @classmethod
    def replay(cls, preset: Preset | str, record: Iterable[Input]) -> Game:
        game = cls(preset)
        for inp in record:
            game.handle(inp)
        return game
