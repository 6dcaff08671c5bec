"""Who may use the private pages: the host's console (``/host``) and each
seat's phone (``/seat/N``) need their own random token, made anew at each
``run`` and carried in the page's address (``?t=…``). A request without the
right one gets 403 and changes nothing.

The stream overlay (``/overlay``, :mod:`host_device.web.overlay`) has a token
of its own, neither the console's nor a seat's: whoever holds it sees what a
broadcast shows (and, if the organiser chose so, the roles after the
stream's delay), never the console. Like the console's, it is kept for the
evening's games (OBS keeps its address) and made anew by the next ``run``."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

# the stream token of each console token this process made: the evening's next game (the same
# console token, handed back by the box or ``run``'s loop) keeps its overlay's address
_STREAM_TOKENS: dict[str, str] = {}


@dataclass(frozen=True)
class Access:
    host: str
    seats: dict[int, str]  # the seats played on phones, each with its token
    stream: str = ""  # the stream overlay's ("": no overlay's token is good)

    @classmethod
    def new(cls, phone_seats: Iterable[int], host: str | None = None) -> Access:
        """New tokens; ``host``: the console's, kept across an evening's games (the phones' are
        always new: a player at another seat in the next game keeps no page of his old one);
        the overlay's is kept with the console's."""
        seats = {seat: secrets.token_urlsafe(9) for seat in phone_seats}
        host = host or secrets.token_urlsafe(12)
        stream = _STREAM_TOKENS.setdefault(host, secrets.token_urlsafe(12))
        return cls(host, seats, stream)

    def is_host(self, token: str | None) -> bool:
        return token is not None and secrets.compare_digest(token.encode(), self.host.encode())

    def is_seat(self, seat: int, token: str | None) -> bool:
        mine = self.seats.get(seat)
        return (
            token is not None and mine is not None and (secrets.compare_digest(token.encode(), mine.encode()))
        )

    def is_stream(self, token: str | None) -> bool:
        return (
            bool(self.stream)
            and token is not None
            and secrets.compare_digest(token.encode(), self.stream.encode())
        )

    def knows(self, token: str) -> bool:
        """A token of this game's: the console's, a seat's or the overlay's."""
        return (
            self.is_host(token)
            or self.is_stream(token)
            or any(self.is_seat(seat, token) for seat in self.seats)
        )
