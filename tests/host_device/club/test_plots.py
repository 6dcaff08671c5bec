"""The plots as SVG text: the Russian titles kept as text (Cyrillic drawn
in DejaVu Sans), a point per game, a bar per role coloured by its team,
the same picture for the same data, and the cache keyed by the store's state."""

import re

from host_device.club.plots import BLACK, RED, PlotCache, Point, RoleRate, points_svg, rating_svg, roles_svg


def test_a_rating_plot_is_svg_with_its_russian_title_and_a_point_per_game():
    svg = rating_svg([Point(f"{n}.11", 1000 + 10 * n) for n in range(1, 6)])
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "Рейтинг после каждой игры" in svg
    assert "DejaVu Sans" in svg
    assert svg == rating_svg([Point(f"{n}.11", 1000 + 10 * n) for n in range(1, 6)])  # no date, no random ids


def test_an_empty_plot_says_there_were_no_games():
    assert "нет игр" in points_svg([])


def test_the_roles_plot_colours_bars_by_team_and_writes_the_counts():
    svg = roles_svg([RoleRate("мирный", 4, 3, False), RoleRate("мафия", 2, 0, True)])
    assert "3 из 4" in svg and "0 из 2" in svg
    fills = re.findall(r"fill: (#[0-9a-f]{6})", svg)
    assert RED in fills and BLACK in fills


def test_the_cache_draws_once_per_state_and_key():
    cache = PlotCache()
    draws = []

    def draw():
        draws.append(1)
        return "<svg/>"

    cache.get("s1", ("rating", "p"), draw)
    cache.get("s1", ("rating", "p"), draw)
    assert cache.drawn == 1
    cache.get("s1", ("points", "p"), draw)
    cache.get("s2", ("rating", "p"), draw)
    assert cache.drawn == 3 and ("points", "p") not in cache.plots
