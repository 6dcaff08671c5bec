"""Who sits where in the game at the table, as the screens show it: the
seats' players, the host's extra points and the club's roster for the
pickers (on the console and on each seat's phone), kept by the session from
the store. Names are shown, never spoken (the device says seat numbers);
what of this is public is decided in host_device/screens/public.py alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host_device.store.roster import EXTRA_POINTS, Player


def player_dict(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "nickname": player.nickname, "label": player.label}


@dataclass
class Seating:
    players: dict[int, Player] = field(default_factory=dict)  # seat -> who sits there
    extras: dict[int, float] = field(default_factory=dict)  # seat -> the host's extra points
    roster: tuple[Player, ...] = ()  # the club's roster, for the pickers
    held: dict[int, str] = field(default_factory=dict)  # seat -> a name picked at night, given in the morning
    show_names: bool = False  # [club].show_names: names public during the game
    enabled: bool = False  # a store keeps this game: names can be given
    extra_limits: tuple[float, float, float] = EXTRA_POINTS  # the scoring table's: low, high, step
    _view: tuple[tuple[Player, ...], list[dict[str, Any]]] = field(
        default=((), []), repr=False, compare=False
    )

    def roster_view(self) -> list[dict[str, Any]]:
        """The roster for the pickers: the same list while the roster is the
        same (each refresh puts it in every phone's view: the publisher
        writes it out once, not once a phone and a turn)."""
        if self._view[0] is not self.roster:
            self._view = (self.roster, [player_dict(p) for p in self.roster])
        return self._view[1]

    def extra_range(self) -> dict[str, float]:
        low, high, step = self.extra_limits
        return {"low": low, "high": high, "step": step}

    def names(self) -> dict[str, str]:
        """seat (text) -> the name the pages show."""
        return {str(seat): p.label for seat, p in sorted(self.players.items())}
