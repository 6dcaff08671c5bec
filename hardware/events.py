"""What the hardware reports to the runtime: small frozen dataclasses put on
one thread-safe queue, each stamped with the runtime's clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

HOST_KEYS = ("next", "pause", "undo")
HOLDS: dict[int | str, float] = {"next": 3.0, "pause": 5.0}  # held: the box's menu, the power-off
Clock = Callable[[], float]  # the runtime's one monotonic clock, injected everywhere
Key = int | str  # a seat number, or a host key


@dataclass(frozen=True, kw_only=True)
class Press:
    """A button pressed: a seat (int) or a host key ("next", "pause", "undo"),
    stamped at its first edge."""

    TYPE: ClassVar[str] = "press"
    key: Key
    at: float


@dataclass(frozen=True, kw_only=True)
class StuckButton:
    """A button held longer than the limit: reported once, its edges ignored
    until it is released."""

    TYPE: ClassVar[str] = "stuck_button"
    key: Key
    at: float


@dataclass(frozen=True, kw_only=True)
class ButtonReleased:
    """A stuck button came free."""

    TYPE: ClassVar[str] = "button_released"
    key: Key
    at: float


@dataclass(frozen=True, kw_only=True)
class Release:
    """A host button let go (the box tells a short press from a hold by it)."""

    TYPE: ClassVar[str] = "release"
    key: Key
    at: float


@dataclass(frozen=True, kw_only=True)
class Held:
    """A host button still down ``seconds`` after its press (hold ``next`` for
    the box's menu, ``pause`` to power off): reported once a press."""

    TYPE: ClassVar[str] = "held"
    key: Key
    seconds: float
    at: float


@dataclass(frozen=True, kw_only=True)
class MicrophoneLost:
    TYPE: ClassVar[str] = "microphone_lost"
    at: float
    reason: str


@dataclass(frozen=True, kw_only=True)
class TypedLine:
    """Words typed on the keyboard panel for the current speaker (Tab, the
    words, Enter): heard as if he had said them."""

    TYPE: ClassVar[str] = "typed_line"
    text: str
    at: float


@dataclass(frozen=True)
class HostKey:
    """A key from the host (his keyboard beside a panel, his console on a
    phone), told apart from the table's buttons: only the host's seat keys
    complete his commands ("f" then 3)."""

    press: Press


HardwareEvent = Press | Release | Held | StuckButton | ButtonReleased | MicrophoneLost | TypedLine
