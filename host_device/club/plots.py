"""A player's plots as SVG text: his rating and his points over his games,
and his win rate by role. matplotlib on its Agg backend (no display), the
text in DejaVu Sans (bundled with matplotlib: Cyrillic without a system
font), the SVG's text kept as text (a phone's browser draws it sharply).

Rendering costs tens of milliseconds of CPU while holding the GIL, so it
never runs in the process that hosts a game: the pages' server asks its
worker process for it (:mod:`host_device.web.club_worker`), which keeps
what it drew in a :class:`PlotCache` keyed by the store's state."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from voices.words import number

RED = "#c62828"
BLACK = "#212121"
GREY = "#9e9e9e"
INK = "#1a1a1a"
FONT = "DejaVu Sans"


@dataclass(frozen=True)
class Point:
    label: str  # what the x axis says under it (the game's date or number)
    value: float


@dataclass(frozen=True)
class RoleRate:
    role: str  # the role's Russian name
    games: int
    wins: int
    black: bool  # drawn black (mafia, Don) or red

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def _figure(width: float = 8.0, height: float = 3.6) -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100)
    figure.patch.set_alpha(0.0)
    return figure


def _style(axes: Any, title: str) -> None:
    from matplotlib.ticker import FuncFormatter

    axes.set_title(title, fontsize=16, fontfamily=FONT, color=INK, loc="left")
    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: number(value)))  # 0,25, not 0.25
    axes.tick_params(labelsize=12, colors=INK)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.grid(axis="y", color="#dddddd", linewidth=0.8)
    axes.set_axisbelow(True)


def _svg(figure: Any) -> str:
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "font.family": FONT, "svg.hashsalt": "club"}):
        figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    return out.getvalue()


def _ticks(axes: Any, points: Sequence[Point]) -> None:
    step = max(1, -(-len(points) // 6))  # at most 6 labels: readable on a phone
    places = list(range(0, len(points), step))
    axes.set_xticks(places, [points[i].label for i in places], fontfamily=FONT)


def line_svg(title: str, points: Sequence[Point], colour: str = RED, baseline: float | None = None) -> str:
    """One line over the player's games in order (a point per game)."""
    figure = _figure()
    axes = figure.add_subplot()
    _style(axes, title)
    if points:
        xs = list(range(len(points)))
        axes.plot(xs, [p.value for p in points], color=colour, linewidth=2.5, marker="o", markersize=4)
        _ticks(axes, points)
    else:
        axes.text(0.5, 0.5, "нет игр", ha="center", va="center", fontsize=14, transform=axes.transAxes)
        axes.set_xticks([])
    if baseline is not None:
        axes.axhline(baseline, color=GREY, linewidth=1, linestyle="--")
    return _svg(figure)


def rating_svg(points: Sequence[Point], start: float = 1000.0) -> str:
    return line_svg("Рейтинг после каждой игры", points, RED, baseline=start)


def points_svg(points: Sequence[Point]) -> str:
    return line_svg("Баллы за игру", points, BLACK, baseline=0.0)


def roles_svg(rates: Sequence[RoleRate]) -> str:
    """Win rate by role: a bar per role he played, its games written on it."""
    figure = _figure(8.0, 3.6)
    axes = figure.add_subplot()
    _style(axes, "Доля побед по ролям")
    names = [r.role for r in rates]
    bars = axes.bar(
        range(len(rates)), [100 * r.rate for r in rates], color=[BLACK if r.black else RED for r in rates]
    )
    for bar, rate in zip(bars, rates, strict=True):
        axes.annotate(
            f"{rate.wins} из {rate.games}",
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
            fontsize=12,
            fontfamily=FONT,
            xytext=(0, 3),
            textcoords="offset points",
        )
    axes.set_xticks(range(len(rates)), names, fontfamily=FONT)
    axes.set_ylim(0, 110)
    axes.set_ylabel("%", fontsize=12)
    return _svg(figure)


class PlotCache:
    """What was drawn, by (the store's state, the plot's key): a new state
    forgets the old one's plots (a store changes as games are played)."""

    def __init__(self) -> None:
        self.state: Hashable = None
        self.plots: dict[Hashable, str] = {}
        self.drawn = 0  # how many were drawn (not found): for the tests and the bench
        self.lock = threading.Lock()

    def get(self, state: Hashable, key: Hashable, draw: Callable[[], str]) -> str:
        with self.lock:
            if state != self.state:
                self.state, self.plots = state, {}
            if key not in self.plots:
                self.plots[key] = draw()
                self.drawn += 1
            return self.plots[key]
