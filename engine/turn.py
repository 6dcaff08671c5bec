"""What every part of the rules works on while one input is carried out:
the preset, the state (a copy: the game's own is replaced only when the
input is through), the outputs so far, and the few moves every part makes —
entering a step (its opening from the table of steps), giving the floor,
a player leaving, and the end of the game.

The parts are modules of functions over a :class:`Turn`, each importing
only the parts below it: ``night``, then ``day``, then ``votes``, then
``fouls``; ``machine`` dispatches an input to them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.outputs import GameEnded, Output, PhaseStarted, PlayerLeft, Say, StopTimer
from engine.presets import Preset
from engine.roles import BLACK_ROLES, Role, Team
from engine.state import Phase, State
from engine.steps import NIGHT, opening


@dataclass
class Turn:
    preset: Preset
    s: State
    out: list[Output] = field(default_factory=list)

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

    def give_floor(self, phase: Phase, seat: int) -> None:
        """A timed speech (day speech, tie speech, last word): name the
        speaker and start the timer. The phrase and the timer are named after
        the phase."""
        self.s.speaker = seat
        self.enter(phase, seat=seat)

    def depart(self, seat: int, how: str) -> None:
        s = self.s
        s.out.append(seat)
        if s.phase in NIGHT:
            self.emit(PlayerLeft(seat=seat, how=how, night=s.day))
        else:
            self.emit(PlayerLeft(seat=seat, how=how, day=s.day))

    def game_ended(self) -> bool:
        """The winner, if there is one now: every role revealed, and True."""
        s = self.s
        alive = s.alive()
        black = sum(1 for seat in alive if s.role(seat) in BLACK_ROLES)
        red = len(alive) - black
        if black == 0:
            winner, reason = Team.RED, "no_black_left"
        elif black >= red:
            winner, reason = Team.BLACK, "black_parity"
        else:
            return False
        s.winner = winner
        s.phase = Phase.GAME_OVER
        s.speaker, s.queue, s.last_words, s.vote_round = None, [], [], None
        roles = tuple((seat, s.role(seat)) for seat in range(1, s.seats + 1))
        self.emit(StopTimer())
        self.emit(PhaseStarted(phase=Phase.GAME_OVER.value, day=s.day))
        self.emit(GameEnded(winner=winner, reason=reason, roles=roles))
        self.emit(Say(phrase="winner", team=winner))
        for seat, role in roles:
            if role is not Role.CIVILIAN:
                self.emit(Say(phrase="reveal_role", seat=seat, role=role))
        return True
