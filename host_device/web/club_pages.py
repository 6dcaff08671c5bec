"""The club's endpoints: ``/game/ID`` (a finished game's review; an
unfinished one is refused, 404 «ещё идёт»), ``/game/current`` (the hosted
game's review once it has ended: the table page's link), ``/club`` (the
leaderboard, filtered by ``from``, ``to``, ``preset``) and ``/player/ID``.
Each page is computed by the club's worker process
(:class:`host_device.web.club_worker.ClubPages`, ``app.state.club``),
never on this thread's CPU for long. A name or a query's value that cannot
be a name (too long, a control character: :mod:`host_device.web.paths`) is
refused here, before anything is looked up."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from host_device.web.club_worker import ClubPages
from host_device.web.paths import QUERY_CHARS, readable

NO_NAME = "Нет такой страницы: в адресе не имя"
BAD_QUERY = "Непонятный адрес: {key}= не читается"

NO_CLUB = "Страницы клуба есть только при хранилище игр (host-device run или box)"
KEEP = {"Cache-Control": "no-cache"}  # the browser asks again; the server answers from what it keeps
FILTERS = ("from", "to", "preset")


def club_of(request: Request) -> ClubPages | None:
    club: ClubPages | None = getattr(request.app.state, "club", None)
    return club


async def _page(request: Request, kind: str, arg: str, query: tuple[tuple[str, str], ...] = ()) -> Response:
    club = club_of(request)
    if club is None:
        return HTMLResponse(NO_CLUB, status_code=404)
    if not readable(arg):
        return refused(NO_NAME, 404)
    for key, value in query:
        if not readable(value, QUERY_CHARS):
            return refused(BAD_QUERY.format(key=key), 400)
    found = await club.answer(kind, arg, query)
    return HTMLResponse(found.html, status_code=found.status, headers=KEEP)


def refused(text: str, status: int) -> Response:
    from host_device.web.club_html import document, e

    page = document("Нет страницы", f'<p class="refused">{e(text)}</p>')
    return HTMLResponse(page, status_code=status, headers=KEEP)


async def game(request: Request) -> Response:
    return await _page(request, "game", str(request.path_params["game"]))


async def current(request: Request) -> Response:
    """The hosted game's review (the table page links here at the end; before it, /game/ID refuses)."""
    club = club_of(request)
    game_id = club.current() if club is not None and club.current is not None else None
    if game_id is None:
        return HTMLResponse("Сейчас здесь не идёт игра", status_code=404)
    return RedirectResponse(f"/game/{game_id}", status_code=303)


async def leaderboard(request: Request) -> Response:
    query = tuple((key, request.query_params[key]) for key in FILTERS if request.query_params.get(key))
    return await _page(request, "club", "", query)


async def player(request: Request) -> Response:
    return await _page(request, "player", request.path_params["player"])


async def tournament(request: Request) -> Response:
    """The venue screen: a hall's TV's pages of a round's seating for all tables and of the
    standings, turning by themselves (``?round=R``: that round's seating; ``?show=all``: the
    whole of it on one page, the standings' every column, as a phone shows it)."""
    query = tuple(
        (key, request.query_params[key]) for key in ("round", "show") if request.query_params.get(key)
    )
    return await _page(request, "tournament", request.path_params["name"], query)


async def tournament_overlay(request: Request) -> Response:
    """A tournament's overlay for OBS (:mod:`host_device.web.tournament_overlay`):
    ``/tournament/NAME/overlay/standings`` (``?top=N``) and ``/tournament/NAME/overlay/next``
    (``?table=T``). Public, as the venue screen is: they show only what it shows."""
    what = request.path_params["what"]
    if what not in ("standings", "next"):
        return refused(NO_NAME, 404)
    query = tuple(
        (key, request.query_params[key]) for key in ("top", "table") if request.query_params.get(key)
    )
    return await _page(request, f"tournament-{what}", request.path_params["name"], query)


async def home(request: Request) -> Response:
    return RedirectResponse("/club", status_code=303)


def club_app(club: ClubPages) -> Any:
    """The club's pages alone: ``host-device club web`` (all tables' games from the club's
    database) and the box between games (its own store's)."""
    from starlette.applications import Starlette
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from host_device.web.pages import STATIC

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            club.close()

    routes = [
        Route("/", home),
        Route("/game/current", current),  # the box between games: its last game's review
        Route("/game/{game:number}", game),
        Route("/club", leaderboard),
        Route("/player/{player}", player),
        Route("/tournament/{name}", tournament),
        Route("/tournament/{name}/overlay/{what}", tournament_overlay),
        Mount("/static", StaticFiles(directory=str(STATIC))),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.club = club
    return app
