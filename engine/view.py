"""What may be shown: the public view holds no role before the game ends,
except the roles the preset makes public (event: a killed player's card)."""

from __future__ import annotations

from typing import Any

from engine.state import Phase, State


def public_view(state: State) -> dict[str, Any]:
    over = state.phase is Phase.GAME_OVER
    view: dict[str, Any] = {
        "preset": state.preset,
        "phase": state.phase.value,
        "day": state.day,
        "speaker": state.speaker,
        "alive": state.alive(),
        "out": list(state.out),
        "fouls": {seat: n for seat, n in sorted(state.fouls.items())},
        "silenced": {seat: day for seat, day in sorted(state.silenced.items())},
        "candidates": list(state.candidates),
        "revealed": {seat: role.value for seat, role in sorted(state.revealed.items())},
        "winner": state.winner.value if state.winner else None,
    }
    rnd = state.vote_round
    if rnd is not None:
        view["vote"] = {
            "kind": rnd.kind.value,
            "candidates": list(rnd.candidates),
            "current": rnd.current or None,
            "voted": sorted(rnd.ballots),
            "counted": dict(sorted(rnd.tallies.items())),  # host-counted hands per candidate
        }
    if over:
        view["roles"] = {seat: state.role(seat).value for seat in range(1, state.seats + 1)}
    return view
