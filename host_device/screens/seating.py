"""Who sits where in the game at the table, as the screens show it: the
seats' players, the host's extra points and the club's roster for the
pickers (the console's whole, a phone's a page of its search), kept by the session from
the store. Names are shown, never spoken (the device says seat numbers);
what of this is public is decided in host_device/screens/public.py alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host_device.store.roster import EXTRA_POINTS, Player

FOUND_LIMIT = 20  # names a phone's search is answered with, at most


def player_dict(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "nickname": player.nickname, "label": player.label}


def fold(text: str | None) -> str:
    """A name as a search compares it: case and «ё» aside (as the pages' picker does)."""
    return (text or "").casefold().replace("ё", "е")


@dataclass
class Seating:
    players: dict[int, Player] = field(default_factory=dict)  # seat -> who sits there
    extras: dict[int, float] = field(default_factory=dict)  # seat -> the host's extra points
    roster: tuple[Player, ...] = ()  # the club's roster, for the pickers
    held: dict[int, str] = field(default_factory=dict)  # seat -> a name picked at night, given in the morning
    refused: dict[int, str] = field(default_factory=dict)  # seat -> why his phone's last name was not taken
    show_names: bool = False  # [club].show_names: names public during the game
    enabled: bool = False  # a store keeps this game: names can be given
    table: str | None = None  # a tournament's game: «Стол 2 · игра 3» (public: before the deal)
    extra_limits: tuple[float, float, float] = EXTRA_POINTS  # the scoring table's: low, high, step
    _view: tuple[tuple[Player, ...], list[dict[str, Any]]] = field(
        default=((), []), repr=False, compare=False
    )

    def roster_view(self) -> list[dict[str, Any]]:
        """The roster for the console's picker: the same list while the roster
        is the same (the publisher writes it out once, not once a turn). A
        phone is never sent it: it searches (:meth:`find`)."""
        if self._view[0] is not self.roster:
            self._view = (self.roster, [player_dict(p) for p in self.roster])
        return self._view[1]

    def find(self, query: str, limit: int = FOUND_LIMIT) -> list[dict[str, Any]]:
        """The roster's players whose name or nickname holds ``query`` (a phone's
        search: a phone is never sent the whole roster), at most ``limit``:
        the exact names first, then those that begin with it, then the rest,
        each in the roster's order. An empty query finds the first ``limit``."""
        q = " ".join(fold(query).split())
        ranked = []
        for order, p in enumerate(self.roster):  # a tuple replaced whole: read on any thread
            name, nick = fold(p.name), fold(p.nickname)
            if q in name or q in nick:
                exact = q in (name, nick)
                ranked.append(
                    (0 if exact else 1 if name.startswith(q) or nick.startswith(q) else 2, order, p)
                )
        return [player_dict(p) for _, _, p in sorted(ranked, key=lambda r: r[:2])[:limit]]

    def extra_range(self) -> dict[str, float]:
        low, high, step = self.extra_limits
        return {"low": low, "high": high, "step": step}

    def names(self) -> dict[str, str]:
        """seat (text) -> the name the pages show."""
        return {str(seat): p.label for seat, p in sorted(self.players.items())}
