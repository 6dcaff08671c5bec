"""The device's pages as one Starlette app: the routes to the endpoints
(:mod:`host_device.web.pages`, :mod:`host_device.web.sockets`) and the
device's own static files (no CDN), with the publisher in ``app.state``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from host_device.web import pages, sockets
from host_device.web.publisher import Publisher

ROUTES = [
    Route("/", pages.table),
    Route("/host", pages.host),
    Route("/seat/{seat:int}", pages.seat),
    Route("/api/state", pages.state),
    Route("/api/qr/{seat:int}.svg", pages.seat_qr),
    WebSocketRoute("/api/events", sockets.events),
    WebSocketRoute("/api/host", sockets.host_socket),
    WebSocketRoute("/api/seat/{seat:int}", sockets.seat_socket),
    Mount("/static", StaticFiles(directory=str(pages.STATIC))),
]


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    app.state.publisher.loop = asyncio.get_running_loop()
    yield


def make_app(publisher: Publisher) -> Starlette:
    app = Starlette(routes=ROUTES, lifespan=_lifespan)
    app.state.publisher = publisher
    return app
