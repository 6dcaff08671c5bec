"""What the private pages' sockets say, made into the runtime's inputs (put
in its inbox like the panel's): the host's console's messages, a seat
phone's press (with the step it was made in and when), who sits at a seat
and the host's extra points (the console's seat grid, a phone's own name),
and the host's notices that a seat's phone came, went or came back."""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from dataclasses import dataclass
from typing import Any

from hardware.events import HOST_KEYS, HostKey, Press, TypedLine
from host_device.base.names import BadName, player_name
from host_device.base.text import printable, shorten
from host_device.runtime.discipline import WithdrawFoul
from host_device.screens.views import CONSOLE_KEYS
from host_device.web.console_powers import console_now, refusal, shown
from host_device.web.messages import (
    PHONE_MS,
    POINTS_LIMIT,
    STEP_LIMIT,
    Refused,
    fields,
    loads,
    number,
    quoted,
    whole,
)
from host_device.web.publisher import Publisher
from voices.words import number as said_number

log = logging.getLogger(__name__)

PRESS_AGE_S = 60.0  # a phone's press is dated at most this long before it arrives
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
        """The device's time of the phone's ``phone_ms``: never ahead of ``now``, never more than
        :data:`PRESS_AGE_S` before it (a press held back longer belongs to a step long over)."""
        at = min(now, phone_ms / 1000 + min(self.offsets)) if self.offsets else now
        return max(at, now - PRESS_AGE_S)


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
class Find:
    """A phone's search of the roster for its player's name (``{"find": "вер"}``):
    answered on its socket with a page of matches, never the whole roster."""

    query: str


@dataclass(frozen=True)
class ExtraPoints:
    """The host's extra points for a seat: set to ``points`` (None: none), or — the console's
    «+0,1»/«−0,1» — ``steps`` of the scoring table's step from the value the store holds now."""

    seat: int
    points: float | None
    steps: int = 0


def seat_name(seat: int, value: Any, by_phone: bool) -> SeatName:
    """``{"player": ID}``, ``{"new": "Вера"}`` or ``{"player": null}`` as a
    :class:`SeatName`; :class:`Refused` says what is wrong with it."""
    if not isinstance(value, dict) or not set(value) <= {"player", "new"}:
        raise Refused('имя места: ожидается {"player": …} или {"new": …}')
    player, new = value.get("player"), value.get("new")
    if new is not None:
        try:  # the one door for a player's name (host_device/base/names.py): the store's rule, here first
            return SeatName(seat, new=player_name(new, "имя места"), by_phone=by_phone)
        except BadName as exc:
            raise Refused(str(exc)) from None
    if player is None or (isinstance(player, str) and 0 < len(player) <= NAME_LIMIT):
        return SeatName(seat, player=player, by_phone=by_phone)
    raise Refused(f"имя места: не понято: {quoted(value)}")


def _seat_entry(kind: str, value: Any, seats: int) -> SeatName | ExtraPoints:
    """The console's ``{"name": {"seat": 3, …}}``, ``{"extra": {"seat": 3, "points": 0.3}}`` or
    ``{"extra": {"seat": 3, "steps": 1}}``."""
    what = "имя" if kind == "name" else "доп. баллы"
    if not isinstance(value, dict) or not _seat_number(value.get("seat"), seats):
        raise Refused(f"{what}: укажите место 1..{seats}")
    if kind == "name":
        return seat_name(value["seat"], {k: v for k, v in value.items() if k != "seat"}, False)
    given = fields(value, "seat", optional=("points", "steps"))
    if "steps" in given:  # «+0,1»: a step from the value the record holds, never from the page's copy
        steps = given["steps"]
        if "points" in given or steps not in (-1, 1) or isinstance(steps, bool):
            raise Refused('доп. баллы: {"steps": 1} или {"steps": -1}')
        return ExtraPoints(value["seat"], None, steps)
    points = given.get("points")
    if points is not None and (isinstance(points, bool) or not isinstance(points, int | float)):
        raise Refused("доп. баллы: число (0.3) или null")
    if points is not None:
        points = number(points, -POINTS_LIMIT, POINTS_LIMIT, "доп. баллы")
    return ExtraPoints(value["seat"], points)


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


UNDERSTOOD = (
    'не понято: ожидается {"key": …}, {"seat": N}, {"press": N}, {"text": …},'
    ' {"best_move": [N, N, N]}, {"withdraw_foul": true} или {"whole": …}'
)


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
    Every field is read through :mod:`host_device.web.messages`.
    Returns what is wrong with the message, or None."""
    try:
        return _console_input(publisher, text, connection)
    except Refused as refused:
        return refused.reason


def _console_input(publisher: Publisher, text: str, connection: asyncio.Queue[str | None]) -> str | None:
    assert publisher.private is not None
    seats = publisher.stream.runtime.game.preset.seats
    message = loads(text)
    made_in = message.pop("made_in", None) if isinstance(message, dict) and "press" in message else None
    if not isinstance(message, dict) or len(message) != 1:
        return UNDERSTOOD
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
        return _seat_entry(kind, value, seats)
    if kind == "withdraw_foul" and value is True:  # the device's foul taken back (the step's last input)
        return WithdrawFoul()
    if kind == "key" and value in CONSOLE_KEYS + HOST_KEYS:
        return HostKey(Press(key=value, at=now))
    if kind == "seat" and _seat_number(value, seats):
        return HostKey(Press(key=value, at=now))
    if kind == "press" and _seat_number(value, seats):
        if made_in is None:
            return Press(key=value, at=now)
        # made on a table page that may be behind the device: it counts only in its step
        step = whole(made_in, 0, STEP_LIMIT, "нажатие: made_in — номер шага")
        return PhonePress(key=value, at=now, made_in=step)
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


def seat_message(seat: int, text: str, phone: PhoneClock, now: float) -> PhonePress | SeatName | Find | None:
    """A seat phone's message: ``{"ping": ms}`` (its heartbeat, with its
    time), ``{"press": step, "at": ms}`` (its button, the step it was made
    in and when), ``{"name": {"player": ID} | {"new": "Вера"}}`` (its
    player's own name) or ``{"find": "вер"}`` (a search for it), read at ``now`` on the device's clock through
    :mod:`host_device.web.messages` (a refused one is logged and is no
    press). Returns the press or the name, or None."""
    try:
        message = loads(text)
        if isinstance(message, dict) and "name" in message:
            return seat_name(seat, fields(message, "name")["name"], by_phone=True)
        if isinstance(message, dict) and "find" in message:
            query = fields(message, "find")["find"]
            if not isinstance(query, str) or len(query) > NAME_LIMIT:
                raise Refused(f"поиск имени: текст до {NAME_LIMIT} знаков, а не {quoted(query)}")
            return Find(printable(query).strip())
        if isinstance(message, dict) and "ping" in message:
            phone.heard(number(fields(message, "ping")["ping"], 0, PHONE_MS, "ping"), now)
            return None
        press = fields(message, "press", "at")
        made_in = whole(press["press"], 0, STEP_LIMIT, "press")
        return PhonePress(
            key=seat, at=phone.device_time(number(press["at"], 0, PHONE_MS, "at"), now), made_in=made_in
        )
    except Refused as refused:
        log.info("seat %d's phone: refused: %s", seat, refused.reason)
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


def counted(notice: WebNotice, held: int, every_s: float) -> WebNotice:
    """A seat's latest phone notice, ``held`` of them since the last one told (itself included)."""
    if held <= 1:
        return notice
    return WebNotice(
        f"{notice.text} ({held} comings and goings in {every_s:g} s)",
        f"{notice.russian} (подключений и отключений за {said_number(every_s)} с: {held})",
        notice.seat,
        notice.lasting,
    )


def phone_lost(seat: int) -> WebNotice:
    return WebNotice(
        f"seat {seat}: the phone is lost (closed or silent)", f"место {seat}: телефон отключён", seat, True
    )


def _seat_number(value: Any, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= seats
