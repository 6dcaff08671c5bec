"""The runtime's timeline entries, read back: a ``say`` entry's slots, and
the moment its phrase is said."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host_device.runtime.effects import Effects

SAY_FIELDS = ("t", "type", "key", "dropped")  # a say entry's fields that are not the phrase's slots


def entry_slots(entry: dict[str, Any]) -> dict[str, Any]:
    """The slot values of a timeline ``say`` entry."""
    return {k: v for k, v in entry.items() if k not in SAY_FIELDS}


def when_said(
    runtime: Effects, entry: dict[str, Any], then: Callable[[dict[str, Any], dict[str, Any]], Any]
) -> None:
    """``then(entry, slots)`` at the moment a ``say`` entry's phrase is said;
    never, if its step ended before it began (the entry is then marked dropped)."""

    def said() -> None:
        if not entry.get("dropped"):
            then(entry, entry_slots(entry))

    runtime.sched.at(entry["t"], said)
