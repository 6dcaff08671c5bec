"""Who may use the private pages: the host's console (``/host``) and each
seat's phone (``/seat/N``) need their own random token, made anew at each
``run`` and carried in the page's address (``?t=…``). A request without the
right one gets 403 and changes nothing."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Access:
    host: str
    seats: dict[int, str]  # the seats played on phones, each with its token

    @classmethod
    def new(cls, phone_seats: Iterable[int], host: str | None = None) -> Access:
        """New tokens; ``host``: the console's, kept across an evening's games (the phones' are
        always new: a player at another seat in the next game keeps no page of his old one)."""
        seats = {seat: secrets.token_urlsafe(9) for seat in phone_seats}
        return cls(host or secrets.token_urlsafe(12), seats)

    def is_host(self, token: str | None) -> bool:
        return token is not None and secrets.compare_digest(token.encode(), self.host.encode())

    def is_seat(self, seat: int, token: str | None) -> bool:
        mine = self.seats.get(seat)
        return (
            token is not None and mine is not None and (secrets.compare_digest(token.encode(), mine.encode()))
        )

    def knows(self, token: str) -> bool:
        """A token of this game's: the console's or a seat's."""
        return self.is_host(token) or any(self.is_seat(seat, token) for seat in self.seats)
