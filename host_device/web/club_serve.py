"""``host-device club web``: the club's pages of the club's database served
by uvicorn in the foreground (no game here: the pages' worker process
computes them, as at a table), until Ctrl-C (exit 130), SIGTERM or SIGHUP (exit 0).
Behind the same guards as a table's pages (:func:`host_device.web.guard.guarded_server`:
the names it answers to, the head's deadline, the connections' cap, a flood said in one line)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from pathlib import Path

from host_device.base.stopping import Stopped, stopped_by_signals
from host_device.web.club_worker import ClubPages
from host_device.web.limits import LIMITS, Limits
from host_device.web.server import lan_address, listening_socket


def serve_club(
    database: str,
    host: str,
    port: int,
    write: Callable[[str], None],
    scoring: Path | None = None,
    limits: Limits = LIMITS,
) -> None:
    from host_device.web.club_pages import club_app
    from host_device.web.guard import guarded_server, serve

    club = ClubPages(None, scoring=scoring, database=database)
    sock = listening_socket(host, port)
    bound, port = sock.getsockname()[:2]
    shown = lan_address() if bound == "0.0.0.0" else bound
    server = guarded_server(club_app(club), host, limits)
    club.warm()
    from host_device.web.club_render import read_ahead

    club.pool.submit(read_ahead, database)  # a failure here is said by the first page instead
    write(f"Страницы клуба: http://{shown}:{port}/club (остановить: Ctrl-C)")
    # uvicorn shuts down on SIGINT and SIGTERM, then raises the signal again: SIGTERM quietly
    # here (exit 0), Ctrl-C once everything is closed (main's «остановлено», 130, as every
    # command's); a closed terminal's SIGHUP is told to uvicorn as they are
    try:
        with stopped_by_signals(), contextlib.suppress(Stopped):
            signal.signal(signal.SIGHUP, server.handle_exit)
            asyncio.run(serve(server, sock, limits))
    finally:
        club.close()
