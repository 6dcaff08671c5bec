"""The engine's errors, under the project's one root error (host_device.base.errors)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from host_device.base.errors import HostDeviceError

# every rule that can refuse an input, by its code: programs (the host's screen) say each in their own words
REFUSALS = frozenset(
    {
        "not_dealt", "not_now", "game_over", "not_a_seat", "out_of_game", "not_speaker",
        "already_nominated", "not_his_candidate", "already_voted", "all_counted", "on_buttons",
        "too_many_votes", "no_fouls", "not_candidate", "golden_used", "golden_asked", "no_best_move",
        "best_move_three", "own_seat", "named_twice", "two_roles", "role_not_in_preset", "role_count",
        "foul_by",
    }
)  # fmt: skip


class IllegalInput(HostDeviceError, ValueError):
    """An input the rules do not allow now; the game state is unchanged.

    The message names the phase and the seat (when the input has one);
    ``code`` names the rule that refused it (stable, for programs: "not_now",
    "not_speaker", "out_of_game", ...) and ``parts`` the values the message
    is made of (the seat in question, the speaker, the counts).
    """

    def __init__(
        self,
        reason: str,
        *,
        phase: str,
        seat: int | None = None,
        code: str,
        parts: Mapping[str, int | str | None] | None = None,
    ) -> None:
        if code not in REFUSALS:
            raise ValueError(f"unknown refusal code {code!r}: add it to engine.errors.REFUSALS")
        self.reason = reason
        self.phase = phase
        self.seat = seat
        self.code = code
        self.parts: Mapping[str, int | str | None] = MappingProxyType(dict(parts or {}))
        where = f"phase {phase}" + (f", seat {seat}" if seat is not None else "")
        super().__init__(f"{where}: {reason}")


class UnknownPreset(HostDeviceError, LookupError):
    """A preset name that is not known."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        super().__init__(f"unknown preset {name!r}; known presets: {', '.join(known)}")

    def __str__(self) -> str:  # LookupError would quote the whole message
        return str(self.args[0])


class BadTable(HostDeviceError, ValueError):
    """A table the rules cannot be played at: a seat count or role counts out of range.
    ``code`` names which ("seats", "no_mafia", "mafia_majority"), ``seats`` and
    ``mafia`` the numbers: programs say it in their own words."""

    def __init__(self, message: str, *, code: str = "seats", seats: int = 0, mafia: int = 0) -> None:
        self.code, self.seats, self.mafia = code, seats, mafia
        super().__init__(message)
