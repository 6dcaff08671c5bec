"""A test table: a Game plus a few moves that read like the table's story."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from engine import Advance, DealRoles, Game, Input, Nominate, Phase, Preset, Role, Vote
from engine.outputs import Output, Say

T = TypeVar("T")

CLASSIC_ROLES = {3: Role.DON, 5: Role.MAFIA, 8: Role.MAFIA, 6: Role.SHERIFF}
EVENT_ROLES = {2: Role.MAFIA, 7: Role.MAFIA, 11: Role.MAFIA, 4: Role.COMMISSAR}


class Table:
    def __init__(self, preset: Preset | str = "classic", roles: dict[int, Role] | None = None) -> None:
        self.game = Game(preset)
        if roles is None:
            roles = EVENT_ROLES if self.game.preset.seats == 12 else CLASSIC_ROLES
        self.outputs: list[Output] = []
        self.do(DealRoles(roles=tuple(sorted(roles.items()))))

    # -------------------------------------------------------- moves
    def do(self, *inputs: Input) -> list[Output]:
        new: list[Output] = []
        for inp in inputs:
            new += self.game.handle(inp)
        self.outputs += new
        return new

    def advance(self, times: int = 1) -> list[Output]:
        return self.do(*[Advance()] * times)

    def until(self, phase: Phase, seat: int | None = None, limit: int = 200) -> list[Output]:
        """Advance until the phase (and speaker) is reached."""
        new: list[Output] = []
        for _ in range(limit):
            state = self.game.state
            if state.phase is phase and (seat is None or state.speaker == seat):
                return new
            if state.phase is Phase.GAME_OVER:
                raise AssertionError(f"game over before {phase}")
            new += self.advance()
        raise AssertionError(f"{phase} not reached")

    def day_speeches(self, nominations: dict[int, int] | None = None) -> list[int]:
        """Run today's speeches (each speaker nominates as given); return the order."""
        nominations = nominations or {}
        order = []
        self.until(Phase.SPEECH)
        while self.game.phase is Phase.SPEECH:
            speaker = self.game.state.speaker
            assert speaker is not None
            order.append(speaker)
            if speaker in nominations:
                self.do(Nominate(seat=speaker, target=nominations[speaker]))
            self.advance()
        return order

    def vote(self, *windows: Iterable[int]) -> list[Output]:
        """One vote round: the voters pressing in each window, in order."""
        new: list[Output] = []
        for voters in windows:
            assert self.game.phase is Phase.VOTE, self.game.phase
            new += self.do(*[Vote(seat=v) for v in voters])
            new += self.advance()
        return new

    def to_night(self) -> None:
        self.until(Phase.NIGHT_HUNT)

    # -------------------------------------------------------- looking
    @property
    def state(self):  # type: ignore[no-untyped-def]
        return self.game.state

    def alive(self) -> list[int]:
        return self.game.state.alive()


def of(kind: type[T], outputs: Iterable[object]) -> list[T]:
    return [item for item in outputs if isinstance(item, kind)]


def phrases(outputs: Iterable[object]) -> list[str]:
    return [item.phrase for item in of(Say, outputs)]


def to_vote(nominations, preset="classic", day=1):
    table = Table(preset)
    for _ in range(day - 1):  # quiet days and misses to reach later days
        table.day_speeches()
        table.advance()
        table.until(Phase.MORNING)
    table.day_speeches(nominations)
    table.advance()
    return table
