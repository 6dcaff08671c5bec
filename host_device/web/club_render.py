"""The club's pages computed, in the worker process
(:mod:`host_device.web.club_worker`): the store read (read-only), its
records built and kept (:mod:`host_device.web.club_source`), a page drawn
to HTML and kept while what it was drawn from holds. Every
answer is (an HTTP status, the page's HTML); a refusal is one Russian line
on a page of its own. A fault's line that names where the records are (the
club's database's address, its user and port; a store's path) is not shown
to a visitor: the page says «база клуба недоступна», and the line goes to
the server's log (:func:`answer`'s third part)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from urllib.parse import urlsplit

from host_device.base.club_address import CLUB_DB_SCHEMES
from host_device.base.errors import HostDeviceError
from host_device.club.plots import PlotCache, points_svg, rating_svg, roles_svg
from host_device.club.record import GameRecord
from host_device.club.scoring import Table, load_table, points
from host_device.store.faults import StoreError
from host_device.web.board_html import board_html, player_html
from host_device.web.club_data import (
    BadFilter,
    PlayerPage,
    UnknownPlayer,
    filters_of,
    leaderboard,
    player_page,
    points_points,
    rating_points,
)
from host_device.web.club_db_source import ClubDbSource
from host_device.web.club_html import document, e, review_html
from host_device.web.club_source import Source
from host_device.web.review import Unfinished, review
from host_device.web.venue_html import REFRESH, BadRound, from_database, from_store, venue

NOT_FOUND = "Нет игры {id} в хранилище"
NOT_FOUND_DB = "Нет игры {id} в базе клуба"
DB_AWAY = (
    "База клуба недоступна: страница откроется, когда база снова ответит (причина — в терминале club web)"
)
STORE_AWAY = "Хранилище игр не читается: причина — в журнале устройства"


_sources: dict[str, Source | ClubDbSource] = {}
_pages: OrderedDict[Hashable, tuple[int, str]] = OrderedDict()
# the venue screens' own records from the club's database: path -> (roster, game -> (digest, record))
_venue_kept: dict[str, tuple[Hashable, dict[int, tuple[str, GameRecord]]]] = {}
PAGES_KEPT = 128  # pages the worker keeps by what they were drawn from


def source(path: str, state: Hashable) -> Source | ClubDbSource:
    """The store's (or the club's database's) records, kept across its changes, read again for ``state``."""
    if path not in _sources:
        _sources[path] = ClubDbSource(path) if path.startswith(CLUB_DB_SCHEMES) else Source(Path(path))
    found = _sources[path]
    found.refresh(state)
    return found


def kept(key: Hashable, draw: Callable[[], tuple[int, str]]) -> tuple[int, str]:
    if key in _pages:
        _pages.move_to_end(key)
        return _pages[key]
    answer = _pages[key] = draw()
    while len(_pages) > PAGES_KEPT:
        _pages.popitem(last=False)
    return answer


def refusal(text: str, status: int, refresh: bool = False) -> tuple[int, str]:
    """A page's one line; ``refresh``: a screen nobody touches (the venue's) reads itself again,
    so a database back, or a seating published, shows without anyone reloading it."""
    page = document("Нет страницы", f'<p class="refused">{e(text)}</p>')
    if refresh:
        page = page.replace("<head>", f'<head><meta http-equiv="refresh" content="{REFRESH}">', 1)
    return status, page


_tables: dict[str, Table] = {}
_plots = PlotCache()


def table_of(scoring: str) -> Table:
    """The club's scoring table (``[club] scoring``; "" for the default), read once."""
    if scoring not in _tables:
        _tables[scoring] = load_table(Path(scoring) if scoring else None)
    return _tables[scoring]


def points_of(record: GameRecord, table: Table) -> dict[int, float]:
    return {seat: item.total for seat, item in points(record, table).items()}


def plots_of(page: PlayerPage, state: Hashable) -> dict[str, str]:
    key = page.player
    return {
        "rating": _plots.get(state, ("rating", key), lambda: rating_svg(rating_points(page))),
        "points": _plots.get(state, ("points", key), lambda: points_svg(points_points(page))),
        "roles": _plots.get(state, ("roles", key), lambda: roles_svg(page.roles)),
    }


def game_page(record: GameRecord, points: dict[int, float] | None = None) -> tuple[int, str]:
    try:
        return 200, review_html(review(record, points))
    except Unfinished as exc:
        return refusal(str(exc), 404)


def player(data: Source | ClubDbSource, player_id: str, scoring: str) -> tuple[int, str]:
    try:
        page = player_page(data.finished(), player_id, table_of(scoring))
    except UnknownPlayer as exc:
        return refusal(str(exc), 404)
    return 200, player_html(page, plots_of(page, data.signature()))


def _venue(
    path: str, state: Hashable, scoring: str, name: str, round_text: str, show: str
) -> tuple[int, str]:
    """The venue screen: its own games alone read, from the store or the club's database (not
    the club's every game: docs/tournament.md)."""
    try:
        if path.startswith(CLUB_DB_SCHEMES):
            data = _sources.setdefault(path, ClubDbSource(path))
            assert isinstance(data, ClubDbSource)
            db = data.open()

            def among(games: list[int]) -> dict[int, GameRecord]:
                return _tournament_records(path, state, data, games)

            return venue(from_database(db, name), round_text, table_of(scoring), among, show)
        if path not in _sources:
            _sources[path] = Source(Path(path))
        kept_records = _sources[path]
        assert isinstance(kept_records, Source)
        return venue(from_store(path, name), round_text, table_of(scoring), kept_records.finished_among, show)
    except (StoreError, BadRound) as exc:
        return refusal(str(exc), 404, refresh=True)


def _tournament_records(
    path: str, state: Hashable, data: ClubDbSource, games: list[int]
) -> dict[int, GameRecord]:
    """The finished records of a tournament's games from the club's database: the other pages'
    records when they are fresh, else these games' alone, kept by their digests (the first venue
    page read the club's 10,000 records: 4-6 s here, 16-20 s on a Pi-class core)."""
    if data.state == state:
        found = {g: data.kept[g][1] for g in games if g in data.kept}
        return {g: r for g, r in found.items() if r.finished}
    roster = state[1] if isinstance(state, tuple) and len(state) > 1 else state  # a merge renumbers
    was, kept = _venue_kept.get(path, (None, {}))
    if was != roster:
        kept = {}
    db = data.open()
    keys = db.game_keys()
    wanted = [g for g in games if g in keys and kept.get(g, ("", None))[0] != keys[g]]
    for record in db.records(wanted) if wanted else []:
        if record.id in keys:
            kept[record.id] = (keys[record.id], record)
    kept = {g: one for g, one in kept.items() if g in keys}
    _venue_kept[path] = (roster, kept)
    return {g: kept[g][1] for g in games if g in kept and kept[g][1].finished}


OVERLAYS = {"tournament-standings": "standings", "tournament-next": "next"}  # kind -> the overlay's


def _tournament_overlay(
    path: str, state: Hashable, scoring: str, kind: str, name: str, query: dict[str, str]
) -> tuple[int, str]:
    """A tournament's overlay for OBS (:mod:`host_device.web.tournament_overlay`): drawn from what
    the venue screen is drawn from, the same way."""
    from host_device.web.tournament_overlay import overlay, refused

    what = OVERLAYS[kind]
    try:
        if path.startswith(CLUB_DB_SCHEMES):
            data = _sources.setdefault(path, ClubDbSource(path))
            assert isinstance(data, ClubDbSource)
            held = from_database(data.open(), name)
            return overlay(
                held, what, query, table_of(scoring), lambda g: _tournament_records(path, state, data, g)
            )
        if path not in _sources:
            _sources[path] = Source(Path(path))
        kept_records = _sources[path]
        assert isinstance(kept_records, Source)
        return overlay(from_store(path, name), what, query, table_of(scoring), kept_records.finished_among)
    except (StoreError, BadRound) as exc:
        return refused(what, str(exc), 404)


def names_the_source(text: str, where: str) -> bool:
    """Whether a fault's line names where the records are: the club's database's address
    (or its host) or the store's path."""
    if not where.startswith(CLUB_DB_SCHEMES):
        return where in text
    from host_device.clubdb.errors import shown

    try:
        host = urlsplit(where).hostname or ""
    except ValueError:
        host = ""
    return shown(where) in text or (bool(host) and host in text)


def fault(exc: HostDeviceError, where: str, refresh: bool = False) -> tuple[int, str, str]:
    """A fault's page and the line for the server's log ("" when the page says it all)."""
    from host_device.clubdb.errors import Unreachable

    text = str(exc)
    status = 503 if isinstance(exc, Unreachable) else 500
    if not isinstance(exc, Unreachable) and not names_the_source(text, where):
        return (*refusal(text, status, refresh), "")
    away = DB_AWAY if where.startswith(CLUB_DB_SCHEMES) else STORE_AWAY
    return (*refusal(away, status, refresh), text)


def answer(
    path: str, state: Hashable, scoring: str, kind: str, arg: str, query: tuple[tuple[str, str], ...]
) -> tuple[int, str, str]:
    """One club page (in the worker), and the line for the server's log ("" for none)."""
    try:
        return (*_render(path, state, scoring, kind, arg, query), "")
    except HostDeviceError as exc:
        return fault(exc, path, refresh=kind.startswith("tournament"))


def render(
    path: str, state: Hashable, scoring: str, kind: str, arg: str, query: tuple[tuple[str, str], ...]
) -> tuple[int, str]:
    """One club page (in the worker): ``kind`` game|club|player|tournament, ``arg`` its id."""
    status, html, _ = answer(path, state, scoring, kind, arg, query)
    return status, html


def _render(
    path: str, state: Hashable, scoring: str, kind: str, arg: str, query: tuple[tuple[str, str], ...]
) -> tuple[int, str]:
    from host_device.store.faults import UnknownGame

    try:
        if kind == "tournament":
            asked = dict(query)
            return _venue(path, state, scoring, arg, asked.get("round", ""), asked.get("show", ""))
        if kind in OVERLAYS:
            return _tournament_overlay(path, state, scoring, kind, arg, dict(query))
        data = source(path, state)
        if kind == "game":
            try:
                record = data.record(int(arg))
            except UnknownGame:
                missing = NOT_FOUND_DB if path.startswith(CLUB_DB_SCHEMES) else NOT_FOUND
                return refusal(missing.format(id=arg), 404)
            if not record.finished:
                return refusal(str(Unfinished(record.id)), 404)
            own: Hashable = (path, scoring, kind, arg, data.game_key(record.id))
            return kept(own, lambda: game_page(record, points_of(record, table_of(scoring))))
        key = (path, scoring, kind, arg, query, data.signature())
        if kind == "club":
            filters = filters_of(dict(query))
            return kept(
                key, lambda: (200, board_html(leaderboard(data.finished(), table_of(scoring), filters)))
            )
        if kind == "player":
            return kept(key, lambda: player(data, arg, scoring))
    except BadFilter as exc:
        return refusal(str(exc), 400)
    return refusal(f"Нет такой страницы: {kind}", 404)


def ready() -> bool:
    """The worker's first task: its imports done before the first page."""
    import matplotlib

    matplotlib.use("Agg")
    import host_device.club.plots  # noqa: F401

    return True


def read_ahead(url: str) -> bool:
    """``club web``'s worker reads the club's records before the first page is asked."""
    from host_device.clubdb.db import ClubDB

    with ClubDB.open(url) as db:
        state = tuple(db.state())
    source(url, state)
    return True
