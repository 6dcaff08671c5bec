"""The pages' server under load — every server the box runs (``run --web``,
the box between games, ``club web``: :func:`guarded_server`): uvicorn with its own limits set
(:func:`server_config`: the keep-alive timeout, the head's size, the socket's
pings and message size) and what uvicorn does not do, here:

- a request must be read and answered within ``head_timeout_s`` of the
  connection (or of its last answer): an idle connection or an unfinished
  head is closed (:class:`HttpProtocol`);
- a socket's handshake that websockets refuses (a request line over 8 KB) is
  answered and closed, not left open (:class:`SocketProtocol`);
- the connections are counted (:class:`Gate`): at most ``connections``, and
  of them at most ``public`` without a token (those still waiting for their
  request, the table page and its stream). Past the public share the oldest
  connection still waiting is closed and a public request gets 503, while a
  request with a token (the console, a phone, or an asset its page asks for)
  is let in up to the whole; a flood of them is said in one line
  (:class:`Flood`), not one per connection;
- "too many open files" when accepting is said once a minute
  (:class:`AcceptErrors`), not once per attempt.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import uvicorn
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from host_device.web.access import Access
from host_device.web.limits import Limits
from host_device.web.origin import HostCheck, Hosts

log = logging.getLogger(__name__)

Peer = tuple[str, int]
RESERVED_FDS = 64  # descriptors left to the rest of the process (sound, store, model, pipes)
BUSY = "Стол перегружен: слишком много подключений без токена. Обновите страницу через минуту."
PENDING, PUBLIC, PRIVATE = "pending", "public", "private"


class Flood:
    """Connections closed or refused for want of room, said in one line when
    it starts and again, with the count, at most once per ``accept_error_every_s``."""

    def __init__(self, limits: Limits, connections: int, public: int) -> None:
        self.limits, self.connections, self.public = limits, connections, public
        self.count = 0
        self.said_at: float | None = None

    def __call__(self, turned_away: int = 1) -> None:
        self.count += turned_away
        now = self.limits.clock()
        if self.said_at is None or now - self.said_at >= self.limits.accept_error_every_s:
            self.said_at = now
            log.warning(
                "страницы перегружены: подключений больше %d (без токена — %d); самые старые "
                "ждущие закрываются, новые получают 503 (уже %d раз)",
                self.connections,
                self.public,
                self.count,
            )


@dataclass
class Held:
    transport: asyncio.BaseTransport
    kind: str = PENDING


class Gate:
    """The server's connections by the client's address: each waiting for
    its request (pending), public, or private (it showed a token)."""

    def __init__(self, limits: Limits) -> None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        # a turn of the loop accepts up to a backlog's worth before any is counted, and the closed
        # ones are let go a turn later: room for two of them beside the rest of the process
        room = (
            limits.connections if soft == resource.RLIM_INFINITY else soft - RESERVED_FDS - 2 * limits.backlog
        )
        self.connections = max(8, min(limits.connections, room))
        self.public = max(4, limits.public * self.connections // limits.connections)
        self.held: dict[Peer, Held] = {}
        self.flood = Flood(limits, self.connections, self.public)

    def _count(self, kind: str) -> int:
        return sum(held.kind == kind for held in self.held.values())

    def _forget_closed(self) -> None:
        for gone in [p for p, held in self.held.items() if held.transport.is_closing()]:
            del self.held[gone]

    def opened(self, peer: Peer, transport: asyncio.BaseTransport) -> bool:
        """A new connection: the oldest still waiting are closed to make room;
        False when there is none (every connection is a token's)."""
        self._forget_closed()
        over = max(
            len(self.held) - self._count(PRIVATE) + 1 - self.public,
            len(self.held) + 1 - self.connections,
        )
        closing = [p for p, held in self.held.items() if held.kind == PENDING][: max(over, 0)]
        for oldest in closing:
            self.held.pop(oldest).transport.close()
        full = len(self.held) >= self.connections
        if closing or full:
            self.flood(len(closing) + full)
        if full:
            return False
        self.held[peer] = Held(transport)
        return True

    def admits(self, peer: Peer | None, private: bool) -> bool:
        """A request on a connection: one with a token always; a public one
        while the public share is not full."""
        held = self.held.get(peer) if peer is not None else None
        if held is None or held.kind == PRIVATE or (held.kind == PUBLIC and not private):
            return True
        self._forget_closed()
        if not private and self._count(PUBLIC) >= self.public:
            self.flood()
            return False
        held.kind = PRIVATE if private else PUBLIC
        return True


def has_token(scope: Scope, access: Access | None) -> bool:
    """The request carries a token of this game: in its address (``?t=``) or,
    for a private page's assets, in the page's address it came from (Referer)."""
    if access is None:
        return False
    tokens = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("t", [])
    for name, value in scope.get("headers", []):
        if name == b"referer":
            tokens += parse_qs(urlsplit(value.decode("latin-1")).query).get("t", [])
    return any(access.knows(token) for token in tokens)


class Guard:
    """The app behind the gate: a public request past the public share gets 503."""

    def __init__(self, app: ASGIApp, gate: Gate, access: Access | None) -> None:
        self.app, self.gate, self.access = app, gate, access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            peer = (str(client[0]), int(client[1])) if client else None
            if not self.gate.admits(peer, has_token(scope, self.access)):
                busy = PlainTextResponse(BUSY, 503, headers={"Connection": "close", "Retry-After": "60"})
                if scope["type"] == "websocket":
                    await WebSocket(scope, receive, send).send_denial_response(busy)
                else:
                    await busy(scope, receive, send)
                return
        await self.app(scope, receive, send)


class GuardedConfig(uvicorn.Config):
    """uvicorn's config, with the gate its protocols count connections at."""

    def __init__(self, app: ASGIApp, gate: Gate, limits: Limits, **settings: Any) -> None:
        super().__init__(app, **settings)
        self.gate = gate
        self.limits = limits


class HttpProtocol(H11Protocol):
    """h11's protocol, counted at the gate, with a deadline for the request:
    a connection that has not had its answer within ``head_timeout_s`` of
    opening (or of its last answer) is closed."""

    head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        config = cast(GuardedConfig, self.config)
        if self.client is not None and not config.gate.opened(self.client, transport):
            transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        timeout = cast(GuardedConfig, self.config).limits.head_timeout_s
        self.head_timer = self.loop.call_later(timeout, self._late)

    def _late(self) -> None:
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()  # connection_lost tells h11

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        super().connection_lost(exc)


class SocketProtocol(WebSocketsSansIOProtocol):
    """websockets' protocol; a handshake it refuses itself (a request line
    over its 8 KB limit: 414, a head too large: 431) is sent and the
    connection closed (uvicorn leaves it unsent and open)."""

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.handshake_exc is not None and not self.transport.is_closing():
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()


class AcceptErrors:
    """The loop's exception handler: an accept that fails for want of
    descriptors is said once per ``accept_error_every_s`` with the count,
    not once per attempt (asyncio tries the backlog's worth every second)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.count = 0
        self.said_at: float | None = None

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if context.get("message") != "socket.accept() out of system resource" or not isinstance(exc, OSError):
            loop.default_exception_handler(context)
            return
        self.count += 1
        now = self.limits.clock()
        if self.said_at is None or now - self.said_at >= self.limits.accept_error_every_s:
            self.said_at = now
            log.warning(
                "страницы не принимают новые подключения: %s (уже %d раз; предел дескрипторов: %d)",
                exc.strerror,
                self.count,
                resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            )


def server_config(app: ASGIApp, gate: Gate, limits: Limits) -> GuardedConfig:
    """uvicorn's settings for the pages (it listens on a socket given to it)."""
    return GuardedConfig(
        app,
        gate,
        limits,
        http=HttpProtocol,
        ws=SocketProtocol,
        log_level="critical",
        lifespan="on",
        proxy_headers=False,  # no proxy in front: the client's address is the connection's
        timeout_keep_alive=limits.keep_alive_s,
        h11_max_incomplete_event_size=limits.head_bytes,
        ws_max_size=limits.ws_message_bytes,
        ws_ping_interval=limits.ws_ping_interval_s,
        ws_ping_timeout=limits.ws_ping_timeout_s,
        backlog=limits.backlog,
    )


def guarded_server(app: ASGIApp, host: str, limits: Limits, access: Access | None = None) -> uvicorn.Server:
    """uvicorn serving ``app`` behind every guard: the names it answers to
    (:class:`HostCheck`, ``host`` the address it listens on), the gate, the
    limits; ``access`` the tokens of a game's private pages (None: every page public)."""
    gate = Gate(limits)
    return uvicorn.Server(server_config(Guard(HostCheck(app, Hosts(host)), gate, access), gate, limits))


async def serve(server: uvicorn.Server, sock: socket.socket, limits: Limits) -> None:
    """``server`` on its listening socket, "too many open files" said once a minute."""
    asyncio.get_running_loop().set_exception_handler(AcceptErrors(limits))
    await server.serve(sockets=[sock])
