"""Roles registered with cards, before the introduction night.

The players have drawn cards. Each group is woken and presses its own
buttons during a window of fixed length: first every black player («Мафия,
нажмите свои кнопки»), then each special role alone («Дон, нажмите свою
кнопку» …). A group whose count is wrong (or a Don who is not among the
mafia, a red role among them) is asked again («Повторим»), without saying
who erred; every window lasts the same, whoever pressed. When every group
is right, the roles go to the engine as one DealRoles.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import DealRoles, Role
from engine.roles import BLACK_ROLES
from host_device.runtime.loop import Runtime

WINDOW_S = 6.0  # each group's time to press


class CardRegistration:
    def __init__(
        self, runtime: Runtime, then: Callable[[DealRoles], object], window_s: float = WINDOW_S
    ) -> None:
        self.runtime = runtime
        self.then = then
        self.window_s = window_s
        preset = runtime.game.preset
        black = sum(n for role, n in preset.roles if role in BLACK_ROLES)
        specials = [(role, n) for role, n in preset.roles if role is not Role.MAFIA]
        # the whole mafia (None), then the Don among them, then the red roles: the night's own order
        self.steps: list[tuple[Role | None, int]] = [(None, black)]
        self.steps += sorted(specials, key=lambda step: step[0] not in BLACK_ROLES)
        self.index = 0
        self.pressed: set[int] = set()
        self.open = False
        self.black: set[int] = set()
        self.roles: dict[int, Role] = {}
        self.repeats = 0

    def start(self) -> None:
        self.runtime.say(self.runtime.game.preset.deal_phrase())
        self._ask()

    def _ask(self) -> None:
        role, _ = self.steps[self.index]
        if role is None:
            self.runtime.say("mafia_press")
        else:
            self.runtime.say("press_your_button", role=role.value)
        opens = self.runtime.speaking_until
        self.runtime.sched.at(opens, self._open)
        self.runtime.sched.at(opens + self.window_s, self._close)

    def _open(self) -> None:
        self.pressed, self.open = set(), True

    def press(self, seat: int) -> None:
        """A seat's button during registration (other times: ignored)."""
        if self.open and 1 <= seat <= self.runtime.game.preset.seats:
            self.pressed.add(seat)

    def _close(self) -> None:
        self.open = False
        role, count = self.steps[self.index]
        group = self.pressed
        if role is None:
            right = len(group) == count
        elif role in BLACK_ROLES:
            right = len(group) == count and group <= self.black
        else:
            right = len(group) == count and not group & (self.black | set(self.roles))
        if not right:
            self.repeats += 1
            self.runtime.say("count_again")
            self._ask()
            return
        if role is None:
            self.black = set(group)
        else:
            self.roles.update(dict.fromkeys(group, role))
        self.index += 1
        if self.index < len(self.steps):
            self._ask()
            return
        roles = {seat: Role.MAFIA for seat in self.black}
        roles.update(self.roles)
        self.then(DealRoles(roles=tuple(sorted(roles.items()))))
