"""The WebSocket endpoints: the table's public events (``/api/events``), the
host's console (``/api/host``) and a seat's phone (``/api/seat/N``). Each
socket reads its channel's queue from the publisher and sends it, while what
the page sends goes through :mod:`host_device.web.inputs` into the runtime's
inbox. A private socket without its token is closed before it is accepted
(the handshake gets 403).

A seat's phone pings every quarter second; one silent for
``Limits.phone_silent_s`` is lost: its socket is closed (whatever it had
sent meanwhile is never read) and the host is told, as he is when it comes
back. The publisher's ``online`` is the seats whose phone is here now."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from host_device.web.inputs import (
    Find,
    PhoneClock,
    SeatName,
    WebNotice,
    console_input,
    counted,
    phone_lost,
    phone_notice,
    seat_message,
)
from host_device.web.limits import Limits, Presses, Throttle
from host_device.web.pages import publisher_of, seat_refusal
from host_device.web.publisher import REPLACED, Publisher

Reader = Callable[[str], Awaitable[None]]
POLICY_VIOLATION = 1008
PONG = json.dumps({"type": "pong"})
REPLACED_CODE = 4000  # the close code of a seat's socket whose seat another phone took
GONE_CODE = 4001  # a socket the device ends: too slow to take its events, or a phone silent too long


async def pump(socket: WebSocket, queue_: asyncio.Queue[str | None], read: Reader) -> None:
    """Send the queue's texts while ``read`` takes the page's messages; either ending ends both."""

    async def reader() -> None:
        try:
            while True:
                await read(await socket.receive_text())
        except (WebSocketDisconnect, RuntimeError, KeyError):
            pass
        finally:
            queue_.put_nowait(None)

    task = asyncio.create_task(reader())
    try:
        while (text := await queue_.get()) is not None:
            if text == REPLACED:
                await socket.send_text(json.dumps({"type": "replaced"}))
                await socket.close(code=REPLACED_CODE)
                break
            await socket.send_text(text)
        else:
            if not task.done():  # ended here (too slow, or silent) while the page still holds it
                await socket.close(code=GONE_CODE)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        task.cancel()


async def _accept(socket: WebSocket) -> Publisher:
    await socket.accept()
    publisher = publisher_of(socket)
    publisher.loop = asyncio.get_running_loop()
    return publisher


async def _ignore(text: str) -> None:
    pass


async def events(socket: WebSocket) -> None:
    publisher = await _accept(socket)
    queue_ = publisher.watch("public")
    try:
        await pump(socket, queue_, _ignore)
    finally:
        publisher.unwatch("public", queue_)


async def host_socket(socket: WebSocket) -> None:
    private = publisher_of(socket).private
    if private is None or not private.access.is_host(socket.query_params.get("t")):
        await socket.close(code=POLICY_VIOLATION)  # before accepting: the handshake gets 403
        return
    publisher = await _accept(socket)
    queue_ = publisher.watch("host")
    queue_.put_nowait(publisher.views.get("host", "{}"))
    queue_.put_nowait(publisher.phones_text())

    async def read(text: str) -> None:
        error = console_input(publisher, text, queue_)
        if error is not None:
            await socket.send_text(json.dumps({"type": "error", "text": error}, ensure_ascii=False))

    try:
        await pump(socket, queue_, read)
    finally:
        publisher.unwatch_console(queue_)


async def seat_socket(socket: WebSocket) -> None:
    number = socket.path_params["seat"]
    if seat_refusal(publisher_of(socket).private, number, socket.query_params.get("t")) is not None:
        await socket.close(code=POLICY_VIOLATION)
        return
    publisher = await _accept(socket)
    limits = socket.app.state.limits
    channel = f"seat:{number}"
    queue_ = publisher.watch(channel)
    queue_.put_nowait(publisher.views.get(channel, "{}"))
    notices, names = _throttles(socket, publisher, limits)
    _take_seat(publisher, number, queue_, notices)
    presses = Presses(limits, f"телефон места {number}")
    phone = PhoneClock()
    heard = [limits.clock()]

    async def read(text: str) -> None:
        heard[0] = now = limits.clock()
        press = seat_message(number, text, phone, now)
        if press is None:
            queue_.put_nowait(PONG)  # a ping (or a message that is no press) is answered: the page is heard
        elif isinstance(press, Find):  # answered here: the roster is never sent whole to a phone
            seating = publisher.private.console.seating if publisher.private is not None else None
            found = seating.find(press.query) if seating is not None and seating.enabled else []
            queue_.put_nowait(json.dumps({"type": "found", "query": press.query, "players": found}))
        elif isinstance(press, SeatName):  # his own name: never counted as a press, never a flood of writes
            # at most once a second, the seat's (a phone reconnecting in a loop gains nothing); a name
            # sent sooner waits its turn, the last one sent counts
            names(number, press, now)
        elif presses.allow(now):
            publisher.put(press)

    async def watch() -> None:
        while limits.clock() - heard[0] <= limits.phone_silent_s:
            await asyncio.sleep(limits.phone_check_s)
        queue_.put_nowait(None)  # silent: lost, and closed

    watchdog = asyncio.create_task(watch())
    try:
        await pump(socket, queue_, read)
    finally:
        watchdog.cancel()
        publisher.unwatch(channel, queue_)
        presses.report()
        if publisher.phones.get(number) is queue_:
            del publisher.phones[number]
            publisher.online = frozenset(publisher.phones)
            notices(number, phone_lost(number))


def _throttles(socket: WebSocket, publisher: Publisher, limits: Limits) -> tuple[Throttle, Throttle]:
    """The app's throttles, one for all seats, made at its first phone: of the seats' phone notices
    (their comings and goings) and of the names their phones give."""
    state = socket.app.state
    if getattr(state, "phone_throttles", None) is None:

        def tell(notice: WebNotice, held: int) -> None:
            publisher.put(counted(notice, held, limits.notice_every_s))
            if publisher.hushed is None:  # at night the console's list stands still (publisher.hush)
                publisher.tell_console(publisher.phones_text())

        state.phone_throttles = (
            Throttle(limits.notice_every_s, limits.clock, tell),
            Throttle(limits.name_every_s, limits.clock, lambda name, held: publisher.put(name)),
        )
    throttles: tuple[Throttle, Throttle] = state.phone_throttles
    return throttles


def _take_seat(
    publisher: Publisher, number: int, queue_: asyncio.Queue[str | None], notices: Throttle
) -> None:
    """One phone per seat: the newest takes over, the one before is closed, and the host is told."""
    before = publisher.phones.get(number)
    publisher.phones[number] = queue_
    publisher.online = frozenset(publisher.phones)
    if before is not None:
        before.put_nowait(REPLACED)
        publisher.unwatch(f"seat:{number}", before)
    notices(number, phone_notice(number, replaced=before is not None, back=number in publisher.phones_seen))
    publisher.phones_seen.add(number)
