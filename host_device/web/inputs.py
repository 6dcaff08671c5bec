"""What the private pages' sockets say, made into the runtime's inputs (put
in its inbox like the panel's): the host's console's messages, a seat
phone's press, and the host's notice that a seat's phone came."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

from hardware.events import HOST_KEYS, HostKey, Press, TypedLine
from host_device.base.text import printable, shorten
from host_device.screens.views import CONSOLE_KEYS
from host_device.web.publisher import Publisher

TEXT_LIMIT = 300  # characters of typed speech
HOST_MODE_ONLY = (  # whoever holds the console in host mode may be a player
    "в режиме устройства пульт — только «дальше» и «пауза»: место нажимает лишь его кнопка или его телефон"
)


@dataclass(frozen=True)
class WebNotice:
    """Something the host should know about the phones (a seat's phone
    connected, or replaced by another), put in the runtime's inbox."""

    text: str  # English, for the log
    russian: str  # for the host's screen or console


def console_input(publisher: Publisher, text: str, connection: asyncio.Queue[str | None]) -> str | None:
    """A message from the host's console (``connection``: its socket's queue),
    into the inbox: ``{"key": "next"}`` (a host key), ``{"seat": 3}`` (a seat
    key of the host's, assist mode: "foul" then 3), ``{"press": 3}`` (seat 3's
    own button, on the whole-table view), ``{"text": "…"}`` (the speaker's
    words typed, made printable), ``{"whole": true}`` (this connection's
    «Весь стол» switch, ``--panel web``). In host mode the console completes
    only host keys: it never presses a seat but on the whole-table view.
    Returns what is wrong with the message, or None."""
    assert publisher.private is not None
    console = publisher.private.console
    seats = publisher.stream.runtime.game.preset.seats
    try:
        message = json.loads(text)
    except ValueError:
        message = None
    if not isinstance(message, dict) or len(message) != 1:
        return 'не понято: ожидается {"key": …}, {"seat": N}, {"press": N}, {"text": …} или {"whole": …}'
    ((kind, value),) = message.items()
    now = time.monotonic()
    host_mode = console.assist is None
    if kind == "key" and value in CONSOLE_KEYS + HOST_KEYS:
        if host_mode and value not in HOST_KEYS:
            return HOST_MODE_ONLY
        publisher.put(HostKey(Press(key=value, at=now)))
    elif kind in ("seat", "press") and _seat_number(value, seats):
        if kind == "seat" and host_mode:
            return HOST_MODE_ONLY
        if kind == "press" and not publisher.shows_whole(connection):
            return "кнопки мест с пульта — только при --panel web и включённом «Весь стол»"
        press = Press(key=value, at=now)
        publisher.put(HostKey(press) if kind == "seat" else press)
    elif kind == "text" and isinstance(value, str) and 0 < len(printable(value).strip()) <= TEXT_LIMIT:
        publisher.put(TypedLine(text=printable(value).strip(), at=now))
    elif kind == "whole" and isinstance(value, bool):
        if not console.whole_table:
            return "«Весь стол» — только при --panel web"
        publisher.switch_whole(connection, value)
    else:
        return f"не понято: {shorten(printable(text), 80)}"
    return None


def seat_press(seat: int) -> Press:
    """Any message from a seat's phone is that seat's button."""
    return Press(key=seat, at=time.monotonic())


def phone_notice(seat: int, replaced: bool) -> WebNotice:
    if replaced:  # one phone per seat: the newest takes over
        return WebNotice(
            f"seat {seat}: another phone took over",
            f"место {seat}: подключён другой телефон, прежний отключён",
        )
    return WebNotice(f"seat {seat}: a phone connected", f"место {seat}: телефон подключён")


def _seat_number(value: Any, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= seats
