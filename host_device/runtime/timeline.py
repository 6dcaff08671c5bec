"""The runtime's timeline entries, read back: a ``say`` entry's slots, and
the moment its phrase is said."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host_device.runtime.effects import Effects

SAY_FIELDS = ("t", "type", "key", "dropped", "at_once")  # the fields of a say entry that are not slots


def entry_slots(entry: dict[str, Any]) -> dict[str, Any]:
    """The slot values of a timeline ``say`` entry."""
    return {k: v for k, v in entry.items() if k not in SAY_FIELDS}


def when_said(
    runtime: Effects, entry: dict[str, Any], then: Callable[[dict[str, Any], dict[str, Any]], Any]
) -> None:
    """``then(entry, slots)`` at the moment a ``say`` entry's phrase is said
    (now, for one said at once, even on a paused clock); never, if its step
    ended before it began (the entry is then marked dropped)."""

    def said() -> None:
        if not entry.get("dropped"):
            then(entry, entry_slots(entry))

    if entry.get("at_once"):
        said()
    else:
        runtime.sched.at(entry["t"], said)
