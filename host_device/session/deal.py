"""Roles dealt by the device (``--deal device``, seeded): before the first
night each seat in turn is told to open his eyes and look at his own LED for
ROLE_LIGHT_S, the same time for everyone (the signals: runtime/signals.py).
With phones for seats, the deal first waits for the phones and the players'
names (:class:`PhoneWait`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from typing import Any

from engine import DealRoles, Preset, Role
from hardware.events import HostKey, Press, TypedLine
from host_device.runtime.loop import Runtime
from host_device.runtime.signals import ROLE_SIGNALS

ROLE_LIGHT_S = 4.0
SHOW_SLOT_S = 10.0  # each seat's turn: the phrase, the light, «Закройте глаза»


def deal(preset: Preset, seed: int | None) -> DealRoles:
    """Roles dealt at random (the runtime's randomness, handed to the engine as an input)."""
    rng = random.Random(seed)
    seats = rng.sample(range(1, preset.seats + 1), preset.seats)
    roles: list[tuple[int, Role]] = []
    for role, count in preset.roles:
        roles += [(seat, role) for seat in seats[:count]]
        seats = seats[count:]
    return DealRoles(roles=tuple(sorted(roles)))


def show_roles(runtime: Runtime, dealt: DealRoles, then: Callable[[], Any]) -> None:
    """Each seat in turn sees his role on his own LED; the same time for everyone."""
    roles = dict(dealt.roles)

    def show(seat: int) -> None:
        runtime.say("look_at_your_light", seat=seat)
        start = runtime.speaking_until
        runtime.sched.at(
            start, functools.partial(runtime.led, seat, ROLE_SIGNALS[roles.get(seat, Role.CIVILIAN)])
        )
        runtime.sched.at(start + ROLE_LIGHT_S, functools.partial(hide, seat))

    def hide(seat: int) -> None:
        runtime.led(seat, "off")
        runtime.say("close_your_eyes")

    runtime.say(runtime.game.preset.deal_phrase())
    t = runtime.speaking_until
    for seat in range(1, runtime.game.preset.seats + 1):
        runtime.sched.at(t, functools.partial(show, seat))
        t += SHOW_SLOT_S
    runtime.sched.at(t, lambda: then() and None)


class PhoneWait:
    """Host mode with phone seats: the deal waits until the seats are named.
    ``online``: the seats with a phone now; ``named``: the seats with a
    player's name (None: no names are asked, the phones are enough);
    ``console``: whether the host's console is connected; ``show``: the line
    (None: gone), on the console, the table page and the terminal.

    The host says «Начать» (the console's button; «Дальше» from a panel, the
    keyboard or the console is the same) whenever he likes. With no console
    connected the deal starts by itself once every phone seat has its phone
    and its player has picked his name; with one, the host starts it (he may
    be naming the seats there)."""

    def __init__(
        self,
        seats: Iterable[int],
        online: Callable[[], frozenset[int]],
        show: Callable[[str | None], None],
        then: Callable[[], Any],
        named: Callable[[], Iterable[int]] | None = None,
        console: Callable[[], bool] = lambda: False,
    ) -> None:
        self.seats = frozenset(seats)
        self.online, self.show, self.then = online, show, then
        self.named, self.console = named, console
        self.shown: str | None = None
        self.waiting = True

    def check(self) -> None:
        """Looked at on every input and every turn of the screen: the line, or the deal when all are ready."""
        if not self.waiting:
            return
        here = self.seats & self.online()
        named = self.seats if self.named is None else self.seats & frozenset(self.named())
        console = self.console()
        if here == self.seats and named == self.seats and not console:
            self.start()
            return
        line = self.line(len(here), len(named), console)
        if line != self.shown:
            self.shown = line
            self.show(line)

    def line(self, here: int, named: int, console: bool) -> str:
        """«Ждём телефоны: подключены 6 из 10 · имена: 4 из 10», or what else the deal waits for."""
        n = len(self.seats)
        names = None if self.named is None else f"имена: {named} из {n}"
        if here < n:
            return " · ".join(filter(None, (f"Ждём телефоны: подключены {here} из {n}", names)))
        if console:
            return f"Телефоны здесь{'' if names is None else f', {names}'} — раздача по «Начать» на пульте"
        return f"Ждём имена: выбраны {named} из {n}"

    @staticmethod
    def starts(item: Any) -> bool:
        """Whether an input is the host's «Начать» («Дальше», or «n» typed)."""
        from host_device.session.question import YES

        if isinstance(item, HostKey):
            item = item.press
        if isinstance(item, TypedLine):
            return item.text.lower() in YES
        return isinstance(item, Press) and item.key == "next"

    def start(self) -> None:
        if self.waiting:
            self.waiting = False
            self.show(None)
            self.then()
