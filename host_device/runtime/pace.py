"""The device's own pace in a step it ends by itself, planned when the step
begins: when a vote window opens and closes, when each number of the
night's calls is called (a press counts for the number whose slot it falls
in), and when the step is over. Pure: the runtime schedules the plan."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Phase, State
from engine.steps import NIGHT_CALLS
from host_device.runtime.settings import Settings

Slot = tuple[int, float, float]  # (the called seat, its slot's start, its end)


def call_slots(alive: list[int], ready: float, call_s: float) -> tuple[Slot, ...]:
    """One slot of ``call_s`` seconds per living seat, from ``ready`` on."""
    return tuple((seat, ready + k * call_s, ready + (k + 1) * call_s) for k, seat in enumerate(alive))


def called_at(slots: tuple[Slot, ...], at: float) -> int | None:
    """The seat whose number was being called at ``at``; None between the calls."""
    return next((seat for seat, start, end in slots if start <= at < end), None)


@dataclass(frozen=True)
class Plan:
    window: tuple[float, float] | None = None  # a vote window (its end infinite: the host closes it)
    slots: tuple[Slot, ...] = ()  # the night's calls
    ends_at: float | None = None  # the device ends the step then (Advance)


def plan(state: State, settings: Settings, said_until: float) -> Plan:
    """The step ``state`` has just begun, its phrases said until ``said_until``."""
    phase, cfg = state.phase, settings
    ready = said_until + cfg.gap_s
    auto = phase in cfg.auto
    if phase is Phase.VOTE:
        window = (said_until, said_until + cfg.vote_window_s if auto else float("inf"))
        return Plan(window=window, ends_at=window[1] if auto else None)
    if not auto:
        return Plan()
    if phase is Phase.INTRO_MEET:
        return Plan(ends_at=said_until + cfg.meet_s)
    if phase in (Phase.MORNING, Phase.VOTE_ANNOUNCE):
        return Plan(ends_at=ready)
    if phase in NIGHT_CALLS:
        alive = state.alive()
        tail = cfg.answer_s if phase is Phase.NIGHT_CHECK else cfg.gap_s
        return Plan(
            slots=call_slots(alive, ready, cfg.call_s), ends_at=ready + len(alive) * cfg.call_s + tail
        )
    return Plan()
