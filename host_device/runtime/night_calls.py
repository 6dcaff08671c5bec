"""The night on buttons: the device calls the living seat numbers at a fixed
pace, and a press counts for the number whose slot it falls in."""

from __future__ import annotations

Slot = tuple[int, float, float]  # (the called seat, its slot's start, its end)


def call_slots(alive: list[int], ready: float, call_s: float) -> list[Slot]:
    """One slot of ``call_s`` seconds per living seat, from ``ready`` on."""
    return [(seat, ready + k * call_s, ready + (k + 1) * call_s) for k, seat in enumerate(alive)]


def called_at(slots: list[Slot], at: float) -> int | None:
    """The seat whose number was being called at ``at``; None between the calls."""
    return next((seat for seat, start, end in slots if start <= at < end), None)
