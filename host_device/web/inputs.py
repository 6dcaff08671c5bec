"""What the private pages' sockets say, made into the runtime's inputs (put
in its inbox like the panel's): the host's console's messages, a seat
phone's press (with the step it was made in and when), who sits at a seat
and the host's extra points (the console's seat grid, a phone's own name),
and the host's notices that a seat's phone came, went or came back."""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from hardware.events import HOST_KEYS, HostKey, Press, TypedLine
from host_device.base.text import printable, shorten
from host_device.runtime.discipline import WithdrawFoul
from host_device.screens.views import CONSOLE_KEYS
from host_device.web.console_powers import console_now, refusal, shown
from host_device.web.publisher import Publisher

log = logging.getLogger(__name__)

PINGS_KEPT = 40  # a phone's last ten seconds of pings (four a second) set its clock
TEXT_LIMIT = 300  # characters of typed speech
NAME_LIMIT = 100  # characters of a name or an id from a page (the store says its own limit)


@dataclass(frozen=True)
class WebNotice:
    """Something the host should know about the phones (a seat's phone
    connected, replaced by another, lost, back), put in the runtime's inbox."""

    text: str  # English, for the log
    russian: str  # for the host's screen or console
    seat: int | None = None
    lasting: bool = False  # stays on the console until that seat's phone is back (a lost phone)


@dataclass(frozen=True, kw_only=True)
class PhonePress(Press):
    """A seat phone's press: ``at`` on the device's clock (from the phone's
    own time of the press), ``made_in`` the step it was made in (the view's
    ``window``): the runtime refuses it once that step is over."""

    made_in: int


class PhoneClock:
    """One phone's time on the device's clock: the smallest gap between the
    device's clock and the phone's time (``performance.now()``) in its last
    pings — the least delayed of them; only the last few, so that a phone
    whose clock runs slow is followed."""

    def __init__(self) -> None:
        self.offsets: collections.deque[float] = collections.deque(maxlen=PINGS_KEPT)

    def heard(self, phone_ms: float, now: float) -> None:
        self.offsets.append(now - phone_ms / 1000)

    def device_time(self, phone_ms: float, now: float) -> float:
        return min(now, phone_ms / 1000 + min(self.offsets)) if self.offsets else now


@dataclass(frozen=True)
class SeatName:
    """Who sits at a seat, from the console's seat grid or the seat's own
    phone: a roster entry (``player``, its id), a new name for the roster
    (``new``), or neither: nobody named."""

    seat: int
    player: str | None = None
    new: str | None = None
    by_phone: bool = False


@dataclass(frozen=True)
class ExtraPoints:
    """The host's extra points for a seat (None: none)."""

    seat: int
    points: float | None


def seat_name(seat: int, value: Any, by_phone: bool) -> SeatName | str:
    """``{"player": ID}``, ``{"new": "Вера"}`` or ``{"player": null}`` as a
    :class:`SeatName`, or what is wrong with it."""
    if not isinstance(value, dict):
        return 'имя места: ожидается {"player": …} или {"new": …}'
    player, new = value.get("player"), value.get("new")
    if isinstance(new, str) and 0 < len(printable(new).strip()) <= NAME_LIMIT:
        return SeatName(seat, new=printable(new).strip(), by_phone=by_phone)
    if new is None and (player is None or (isinstance(player, str) and 0 < len(player) <= NAME_LIMIT)):
        return SeatName(seat, player=player, by_phone=by_phone)
    return f"имя места: не понято: {shorten(printable(str(value)), 80)}"


def _seat_entry(message: Any, seats: int, by_phone: bool = False) -> Any:
    """The console's ``{"name": {"seat": 3, …}}`` or ``{"extra": {"seat": 3, "points": 0.3}}``."""
    kind, value = next(iter(message.items()))
    if not isinstance(value, dict) or not _seat_number(value.get("seat"), seats):
        return f"{'имя' if kind == 'name' else 'доп. баллы'}: укажите место 1..{seats}"
    if kind == "name":
        return seat_name(value["seat"], {k: v for k, v in value.items() if k != "seat"}, by_phone)
    points = value.get("points")
    if points is not None and (isinstance(points, bool) or not isinstance(points, int | float)):
        return "доп. баллы: число (0.3) или null"
    return ExtraPoints(value["seat"], None if points is None else float(points))


@dataclass(frozen=True, kw_only=True)
class BestMoveEntry:
    """The best move entered on the host's console (``{"best_move": [3, 5, 8]}``)
    for the speaker of the last word; the engine judges it."""

    seats: tuple[int, ...]
    at: float


@dataclass(frozen=True)
class FromConsole:
    """A console message taken in host mode that touches the game: ``line``
    is shown on the table page (the TV), then ``item`` (if any) is taken."""

    line: str
    item: Any = None


def console_input(publisher: Publisher, text: str, connection: asyncio.Queue[str | None]) -> str | None:
    """A message from the host's console (``connection``: its socket's queue),
    into the inbox: ``{"key": "next"}`` (a host key), ``{"seat": 3}`` (a seat
    key of the host's, assist mode: "foul" then 3), ``{"press": 3}`` (seat 3's
    own button, on the whole-table view), ``{"text": "…"}`` (the speaker's
    words typed, made printable), ``{"best_move": [3, 5, 8]}`` (the seats of
    the last word's best move), ``{"withdraw_foul": true}`` (the device's foul
    taken back), ``{"whole": true}`` (this connection's
    «Весь стол» switch, ``--panel web``), ``{"name": …}``, ``{"extra": …}``
    (the seat grid). What each may do in each mode, and what the table is
    shown of it: :mod:`host_device.web.console_powers`, judged here first.
    Returns what is wrong with the message, or None."""
    assert publisher.private is not None
    seats = publisher.stream.runtime.game.preset.seats
    try:
        message = json.loads(text)
    except ValueError:
        message = None
    made_in = message.pop("made_in", None) if isinstance(message, dict) and "press" in message else None
    if not isinstance(message, dict) or len(message) != 1:
        return (
            'не понято: ожидается {"key": …}, {"seat": N}, {"press": N}, {"text": …},'
            ' {"best_move": [N, N, N]}, {"withdraw_foul": true} или {"whole": …}'
        )
    ((kind, value),) = message.items()
    now = console_now(publisher.private.console, publisher.shows_whole(connection))
    refused = refusal(kind, value, now)
    if refused is not None:
        return refused
    item = _console_item(publisher, kind, value, made_in, seats, connection)
    if isinstance(item, str):
        return item if item else f"не понято: {shorten(printable(text), 80)}"
    line = shown(kind, value, now)
    if line is not None:
        publisher.put(FromConsole(line, item))
    elif item is not None:
        publisher.put(item)
    return None


def _console_item(
    publisher: Publisher,
    kind: str,
    value: Any,
    made_in: Any,
    seats: int,
    connection: asyncio.Queue[str | None],
) -> Any:
    """The input a console message (already allowed) makes; None: nothing for the runtime;
    a string: what is wrong with it ("": not understood)."""
    now = time.monotonic()
    if kind in ("name", "extra"):  # the seat grid: who sits where, the extra points
        return _seat_entry({kind: value}, seats)
    if kind == "withdraw_foul" and value is True:  # the device's foul taken back (the step's last input)
        return WithdrawFoul()
    if kind == "key" and value in CONSOLE_KEYS + HOST_KEYS:
        return HostKey(Press(key=value, at=now))
    if kind == "seat" and _seat_number(value, seats):
        return HostKey(Press(key=value, at=now))
    if kind == "press" and _seat_number(value, seats):
        if made_in is None:
            return Press(key=value, at=now)
        if isinstance(made_in, int) and not isinstance(made_in, bool):
            # made on a table page that may be behind the device: it counts only in its step
            return PhonePress(key=value, at=now, made_in=made_in)
        return "нажатие: made_in — номер шага"
    if kind == "text" and isinstance(value, str) and 0 < len(printable(value).strip()) <= TEXT_LIMIT:
        return TypedLine(text=printable(value).strip(), at=now)
    if kind == "best_move" and isinstance(value, list) and len(value) <= seats:
        if not all(_seat_number(seat, seats) for seat in value):
            return f"лучший ход: места — числа 1…{seats}"
        return BestMoveEntry(seats=tuple(value), at=now)
    if kind == "whole" and isinstance(value, bool):
        publisher.switch_whole(connection, value)
        return None
    return ""


def seat_message(seat: int, text: str, phone: PhoneClock, now: float) -> PhonePress | SeatName | None:
    """A seat phone's message: ``{"ping": ms}`` (its heartbeat, with its
    time), ``{"press": step, "at": ms}`` (its button, the step it was made
    in and when) or ``{"name": {"player": ID} | {"new": "Вера"}}`` (its
    player's own name), read at ``now`` on the device's clock. Returns the
    press or the name, or None."""
    try:
        message = json.loads(text)
    except ValueError:
        message = None
    number = (int, float)
    if isinstance(message, dict) and len(message) == 1 and "name" in message:
        named = seat_name(seat, message["name"], by_phone=True)
        if isinstance(named, SeatName):
            return named
        log.info("seat %d's phone: %s", seat, named)
        return None
    if isinstance(message, dict) and isinstance(message.get("ping"), number):
        phone.heard(message["ping"], now)
        return None
    if (
        isinstance(message, dict)
        and isinstance(message.get("press"), int)
        and isinstance(message.get("at"), number)
    ):
        return PhonePress(key=seat, at=phone.device_time(message["at"], now), made_in=message["press"])
    log.info("seat %d's phone: not a press nor a ping, ignored: %s", seat, shorten(printable(text), 80))
    return None


def phone_notice(seat: int, replaced: bool = False, back: bool = False) -> WebNotice:
    if replaced:  # one phone per seat: the newest takes over
        return WebNotice(
            f"seat {seat}: another phone took over",
            f"место {seat}: подключён другой телефон, прежний отключён",
            seat,
        )
    if back:
        return WebNotice(f"seat {seat}: the phone is back", f"место {seat}: снова на связи", seat)
    return WebNotice(f"seat {seat}: a phone connected", f"место {seat}: телефон подключён", seat)


def phone_lost(seat: int) -> WebNotice:
    return WebNotice(
        f"seat {seat}: the phone is lost (closed or silent)", f"место {seat}: телефон отключён", seat, True
    )


def _seat_number(value: Any, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= seats
