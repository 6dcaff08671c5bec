"""The club's pages computed, in the worker process
(:mod:`host_device.web.club_worker`): the store read (read-only), the
records built and kept for the store's state, a page drawn to HTML. Every
answer is (an HTTP status, the page's HTML); a refusal is one Russian line
on a page of its own."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.club.plots import PlotCache, points_svg, rating_svg, roles_svg
from host_device.club.record import GameRecord
from host_device.club.scoring import Table, load_table, points
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
from host_device.web.club_html import document, e, review_html
from host_device.web.review import Unfinished, review

NOT_FOUND = "Нет игры {id} в хранилище"


class Source:
    """The store's records for one state of it (built once, read by every page)."""

    def __init__(self, path: Path, state: Hashable) -> None:
        self.path = path
        self.state = state
        self.by_id: dict[int, GameRecord] = {}
        self._all: list[GameRecord] | None = None

    def _store(self) -> Any:
        from host_device.store.db import Store

        return Store(self.path, create=False)

    def record(self, game_id: int) -> GameRecord:
        if game_id not in self.by_id:
            from host_device.club.build import record_of

            store = self._store()
            try:
                self.by_id[game_id] = record_of(store, game_id)
            finally:
                store.close()
        return self.by_id[game_id]

    def finished(self) -> Sequence[GameRecord]:
        """Every finished game that reads, in the store's order (damaged ones left out)."""
        if self._all is None:
            from host_device.club.build import records

            store = self._store()
            try:
                self._all = [r for r in records(store, []) if r.finished]
            finally:
                store.close()
            self.by_id.update((r.id, r) for r in self._all)
        return self._all


_source: Source | None = None


def source(path: str, state: Hashable) -> Source:
    global _source
    if _source is None or _source.state != state or str(_source.path) != path:
        _source = Source(Path(path), state)
    return _source


def refusal(text: str, status: int) -> tuple[int, str]:
    return status, document("Нет страницы", f'<p class="refused">{e(text)}</p>')


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


def render(
    path: str, state: Hashable, scoring: str, kind: str, arg: str, query: tuple[tuple[str, str], ...]
) -> tuple[int, str]:
    """One club page (in the worker): ``kind`` game|club|player, ``arg`` its id."""
    from host_device.store.faults import UnknownGame

    try:
        data = source(path, state)
        if kind == "game":
            try:
                record = data.record(int(arg))
            except UnknownGame:
                return refusal(NOT_FOUND.format(id=arg), 404)
            if not record.finished:
                return refusal(str(Unfinished(record.id)), 404)
            return game_page(record, points_of(record, table_of(scoring)))
        if kind == "club":
            board = leaderboard(data.finished(), table_of(scoring), filters_of(dict(query)))
            return 200, board_html(board)
        if kind == "player":
            try:
                page = player_page(data.finished(), arg, table_of(scoring))
            except UnknownPlayer as exc:
                return refusal(str(exc), 404)
            return 200, player_html(page, plots_of(page, state))
    except BadFilter as exc:
        return refusal(str(exc), 400)
    except HostDeviceError as exc:
        return refusal(str(exc), 500)
    return refusal(f"Нет такой страницы: {kind}", 404)


def ready() -> bool:
    """The worker's first task: its imports done before the first page."""
    import matplotlib

    matplotlib.use("Agg")
    import host_device.club.plots  # noqa: F401

    return True
