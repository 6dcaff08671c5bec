"""Roles dealt by the device (``--deal device``, seeded): before the first
night each seat in turn is told to open his eyes and look at his own LED for
ROLE_LIGHT_S, the same time for everyone (the signals: runtime/signals.py).
With phones for seats, the deal first waits for the phones and the players'
names (host_device/session/phone_wait.py)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from engine import DealRoles, Preset, Role
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
