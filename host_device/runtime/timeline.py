"""What the runtime did, as a timeline of small frozen entries, each with
its game time ``t``: the phrases it queued, the LEDs, the tones, the timers,
what the table did and what came of it. The devices, the screens and the
pages follow it (:attr:`Runtime.recorders`) by the entry's class; each
entry serialises as ``{"t": ..., "type": ..., ...}`` for the timeline file
and the logs (:func:`as_dict`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from engine import Input
from engine.serial import to_dict
from host_device.listening.intents import Intent

Key = int | str  # a seat's button, or a host key's name


@dataclass(frozen=True, kw_only=True)
class Entry:
    TYPE: ClassVar[str]
    t: float


@dataclass(frozen=True, kw_only=True)
class Said(Entry):
    """A phrase queued to start at ``t`` (``at_once``: said now, outside the
    queue); ``n`` numbers it, so that one dropped before it began is known."""

    TYPE: ClassVar[str] = "say"
    key: str
    slots: tuple[tuple[str, Any], ...] = ()
    at_once: bool = False
    n: int = 0

    @property
    def slot_values(self) -> dict[str, Any]:
        return dict(self.slots)

    def slot(self, name: str) -> Any:
        return self.slot_values.get(name)


@dataclass(frozen=True, kw_only=True)
class Unsaid(Entry):
    """A step's announcement dropped: the step ended before it began."""

    TYPE: ClassVar[str] = "unsaid"
    key: str
    seat: int | None = None


@dataclass(frozen=True, kw_only=True)
class LedSet(Entry):
    TYPE: ClassVar[str] = "led"
    seat: int
    pattern: str


@dataclass(frozen=True, kw_only=True)
class Tone(Entry):
    """The short tone: ten seconds left, or a heard nomination waiting for the host (``why``)."""

    TYPE: ClassVar[str] = "tone"
    why: str | None = None


@dataclass(frozen=True, kw_only=True)
class TimerStarted(Entry):
    TYPE: ClassVar[str] = "timer"
    seconds: int
    purpose: str  # the step's phase (speech, last_word, ...), or agreement, discussion, golden_ask


@dataclass(frozen=True, kw_only=True)
class FreeTimerStarted(Entry):
    TYPE: ClassVar[str] = "free_timer"
    seconds: int


@dataclass(frozen=True, kw_only=True)
class Pressed(Entry):
    TYPE: ClassVar[str] = "press"
    key: Key


@dataclass(frozen=True, kw_only=True)
class HostKeyPressed(Entry):
    TYPE: ClassVar[str] = "host_key"
    key: str


@dataclass(frozen=True, kw_only=True)
class Ignored(Entry):
    """A press that counts for nothing, and why."""

    TYPE: ClassVar[str] = "ignored"
    key: Key
    reason: str


@dataclass(frozen=True, kw_only=True)
class HeardIntent(Entry):
    TYPE: ClassVar[str] = "heard"
    intent: Intent


@dataclass(frozen=True, kw_only=True)
class InputTaken(Entry):
    TYPE: ClassVar[str] = "input"
    input: Input


@dataclass(frozen=True, kw_only=True)
class Rejected(Entry):
    TYPE: ClassVar[str] = "rejected"
    input: Input
    reason: str


@dataclass(frozen=True, kw_only=True)
class NotRecorded(Entry):
    """The store could not take an input (or an undo to ``undo`` inputs): the game waits for it."""

    TYPE: ClassVar[str] = "not_recorded"
    reason: str
    input: Input | None = None
    undo: int | None = None


@dataclass(frozen=True, kw_only=True)
class Recorded(Entry):
    """The input the store could not take, taken at last."""

    TYPE: ClassVar[str] = "recorded"
    input: Input


@dataclass(frozen=True, kw_only=True)
class Proposed(Entry):
    """A heard nomination waiting for the host."""

    TYPE: ClassVar[str] = "proposal"
    input: Input


@dataclass(frozen=True, kw_only=True)
class Decided(Entry):
    """The host's answer to a heard nomination."""

    TYPE: ClassVar[str] = "decided"
    input: Input
    accepted: bool


@dataclass(frozen=True, kw_only=True)
class Paused(Entry):
    TYPE: ClassVar[str] = "paused"


@dataclass(frozen=True, kw_only=True)
class Resumed(Entry):
    TYPE: ClassVar[str] = "resumed"
    paused_s: float


@dataclass(frozen=True, kw_only=True)
class Undone(Entry):
    TYPE: ClassVar[str] = "undo"
    kept: int


@dataclass(frozen=True, kw_only=True)
class ConsoleUsed(Entry):
    """Host mode: the host's console did something to the game; the table is shown ``text``."""

    TYPE: ClassVar[str] = "console"
    text: str


@dataclass(frozen=True, kw_only=True)
class HostMessage(Entry):
    TYPE: ClassVar[str] = "host_message"
    text: str


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def as_dict(entry: Entry, dropped: bool = False) -> dict[str, Any]:
    """An entry as the timeline file has it: ``{"t", "type", ...}``, a phrase's slots as its fields."""
    data: dict[str, Any] = {"t": entry.t, "type": entry.TYPE}
    for field in dataclasses.fields(entry):
        value = getattr(entry, field.name)
        if (
            field.name in ("t", "n")
            or (value is None and field.name != "seat")
            or (field.name == "at_once" and not value)
        ):
            continue
        if field.name == "slots":
            data.update({name: _plain(v) for name, v in value})
        elif field.name == "intent" and isinstance(value, Intent):
            data.update(value.to_dict())
        elif field.name == "input":
            data["input"] = to_dict(value)
        else:
            data[field.name] = _plain(value)
    if dropped:
        data["dropped"] = True
    return data


def slots_of(values: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A phrase's slots as a :class:`Said` keeps them (tuples, never lists)."""
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in values.items())


class Timeline:
    """The entries, in the order they were made (a phrase's ``t`` may lie ahead),
    and who follows them."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.dropped: set[int] = set()  # the numbers of announcements dropped before they began
        self.followers: list[Callable[[Entry], None]] = []
        self._said = 0

    def add(self, entry: Entry) -> Entry:
        """Keep ``entry`` (its time to the millisecond, as the timeline file has
        it) and tell the followers."""
        if entry.t != round(entry.t, 3):
            entry = dataclasses.replace(entry, t=round(entry.t, 3))
        self.entries.append(entry)
        for follow in self.followers:
            follow(entry)
        return entry

    def number(self) -> int:
        """The next phrase's number."""
        self._said += 1
        return self._said

    def is_dropped(self, said: Said) -> bool:
        return said.n in self.dropped

    def dicts(self) -> list[dict[str, Any]]:
        """Every entry as a dict, in the order they were made."""
        return [as_dict(e, isinstance(e, Said) and self.is_dropped(e)) for e in self.entries]

    def in_order(self) -> list[Entry]:
        """Every entry in time order (a phrase queued ahead at its time)."""
        return sorted(self.entries, key=lambda e: e.t)

    def as_dicts(self) -> list[dict[str, Any]]:
        """Every entry as a dict, in time order (the timeline file)."""
        return [as_dict(e, isinstance(e, Said) and self.is_dropped(e)) for e in self.in_order()]


def when_said(sched: Any, timeline: Timeline, said: Said, then: Callable[[Said], Any]) -> None:
    """``then(said)`` at the moment a phrase is said (now, for one said at
    once, even on a paused clock); never, if its step ended before it began."""

    def saying() -> None:
        if not timeline.is_dropped(said):
            then(said)

    if said.at_once:
        saying()
    else:
        sched.at(said.t, saying)
