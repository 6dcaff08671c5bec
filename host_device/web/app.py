"""The device's pages as one Starlette app: the routes to the endpoints
(:mod:`host_device.web.pages`, :mod:`host_device.web.sockets`) and the
device's own static files (no CDN), with the publisher and the limits in
``app.state``. A number in an address is at most 18 digits
(:mod:`host_device.web.paths`: a longer one is a 404). A request whose
address has two tokens (``?t=…&t=…``) is refused: the server and the page
would each read another one."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from host_device.web import club_pages, overlay, pages, paths, sockets
from host_device.web.club_worker import ClubPages
from host_device.web.limits import LIMITS, Limits
from host_device.web.publisher import Publisher

TWO_TOKENS = "В адресе два токена (t=…): откройте ссылку или QR-код целиком, как их дал host-device run"

NUMBER = paths.NumberConvertor  # registered as the routes' {…:number}
ROUTES = [
    Route("/", pages.table),
    Route("/host", pages.host),
    Route("/seat/{seat:number}", pages.seat),
    Route("/api/state", pages.state),
    Route("/api/qr/{seat:number}.svg", pages.seat_qr),
    Route("/overlay", overlay.overlay_page),  # the stream overlay, behind its own token
    Route("/overlay/{size}", overlay.overlay_page),
    Route("/api/overlay", overlay.overlay_state),
    Route("/game/current", club_pages.current),
    Route("/game/{game:number}", club_pages.game),
    Route("/club", club_pages.leaderboard),
    Route("/player/{player}", club_pages.player),
    Route("/tournament/{name}", club_pages.tournament),
    Route("/tournament/{name}/overlay/{what}", club_pages.tournament_overlay),
    WebSocketRoute("/api/events", sockets.events),
    WebSocketRoute("/api/host", sockets.host_socket),
    WebSocketRoute("/api/seat/{seat:number}", sockets.seat_socket),
    Mount("/static", StaticFiles(directory=str(pages.STATIC))),
]


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    app.state.publisher.loop = asyncio.get_running_loop()
    try:
        yield
    finally:
        if app.state.club is not None:
            app.state.club.close()


class OneToken:
    """A request with more than one ``t=`` gets 400 (a socket: refused, 403)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = scope.get("query_string", b"").decode("latin-1")
        if scope["type"] == "lifespan" or sum(key == "t" for key, _ in parse_qsl(query, True)) < 2:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": sockets.POLICY_VIOLATION, "reason": ""})
        else:
            await pages.refused(TWO_TOKENS, 400)(scope, receive, send)


def make_app(
    publisher: Publisher,
    limits: Limits = LIMITS,
    club: ClubPages | None = None,
    stream: overlay.OverlayFeed | None = None,
) -> Starlette:
    """``club``: the club's pages of the store the game is kept in (None: those pages say they are off);
    ``stream``: the stream overlay's delayed feed (None: ``[stream]`` is off, /overlay is a 404)."""
    app = Starlette(routes=ROUTES, lifespan=_lifespan, middleware=[Middleware(OneToken)])
    app.state.publisher = publisher
    app.state.club = club
    app.state.overlay = stream
    app.state.limits = limits
    return app
