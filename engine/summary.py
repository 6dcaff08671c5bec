"""The game's summary, computed from its outputs (never stored beside the
record): who left and how and when, the night checks, each day's
candidates, the Doctor's saves and the Lover's alibis. Plain data, ready for
JSON (``play``, the pages, ``games show``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.outputs import CheckMade, LifeSaved, Output, PlayerLeft, SpeechesEnded, VisitMade
from engine.roles import Role


def departure(left: PlayerLeft) -> dict[str, Any]:
    """How and when a player left: ``how`` and his ``day`` or ``night``."""
    when = {"day": left.day} if left.day is not None else {"night": left.night}
    return {**when, "how": left.how}


def summary(outputs: Iterable[Output]) -> dict[str, Any]:
    """The summary of a game's outputs, in the order they came."""
    out: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    candidates: dict[str, list[int]] = {}
    saved: list[dict[str, int]] = []
    alibi: list[dict[str, int]] = []
    for item in outputs:
        if isinstance(item, PlayerLeft):
            out.append({"seat": item.seat, **departure(item)})
        elif isinstance(item, CheckMade):
            checks.append(
                {"night": item.night, "by": item.by.value, "seat": item.target, "result": item.result}
            )
        elif isinstance(item, SpeechesEnded):
            candidates[str(item.day)] = list(item.candidates)
        elif isinstance(item, LifeSaved):
            saved.append({"night": item.night, "seat": item.seat})
        elif isinstance(item, VisitMade) and item.by is Role.LOVER and item.ignored is None:
            alibi.append({"day": item.night + 1, "seat": item.target})
    return {"out": out, "checks": checks, "candidates": candidates, "saved": saved, "alibi": alibi}
