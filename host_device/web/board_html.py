"""The leaderboard's and a player's page's HTML (their data:
:mod:`host_device.web.club_data`; the plots' SVG drawn by
:mod:`host_device.club.plots` and put in as they are)."""

from __future__ import annotations

from host_device.web.club_data import Board, PlayerPage
from host_device.web.club_html import document, e, number, table
from voices import words
from voices.words import preset_name

ORDER = (  # host_device/club/rating.py standings
    "Место — по рейтингу; при равном рейтинге — больше баллов; "
    "одно место — у равных и в рейтинге, и в баллах."
)


def percent(share: float | None) -> str:
    return "—" if share is None else words.percent(share)


def _filters(board: Board) -> str:
    chosen = board.filters
    options = "".join(
        f'<option value="{e(p)}"{" selected" if p == chosen.preset else ""}>{e(preset_name(p))}</option>'
        for p in board.presets
    )
    return (
        '<form class="filters" method="get" action="/club">'
        f'<label>с <input type="date" name="from" value="{chosen.start or ""}"></label>'
        f'<label>по <input type="date" name="to" value="{chosen.end or ""}"></label>'
        f'<label>правила <select name="preset"><option value="">все</option>{options}</select></label>'
        '<button type="submit">Показать</button> <a href="/club">сбросить</a></form>'
    )


def board_html(board: Board) -> str:
    rows = [
        f'<tr data-player="{e(r.player)}"><td class="num">{r.place}</td>'
        f'<td><a href="/player/{e(r.player)}">{e(r.name)}</a></td>'
        f'<td class="num rating">{number(r.rating, 1, trim=False)}</td>'
        f'<td class="num points">{number(r.points)}</td>'
        f'<td class="num games">{r.games}</td><td class="num">{r.wins}</td></tr>'
        for r in board.rows
    ]
    empty = (
        f'<p class="meta">{ORDER}</p>'
        if rows
        else '<p class="none">Нет оконченных игр с игроками из списка клуба</p>'
    )
    body = (
        f'<h1>Клуб</h1><p class="meta">Игр: {board.games} · {e(board.rating_name)}</p>{_filters(board)}'
        + table(["Место", "Игрок", "Рейтинг", "Баллы", "Игры", "Победы"], rows, "board")
        + empty
    )
    return document("Клуб: рейтинг", body)


def _figures(page: PlayerPage) -> str:
    s = page.stats
    best = ", ".join(f"{k} чёрн. — {v}" for k, v in sorted(s.best_moves.items(), reverse=True)) or "—"
    items = [
        ("Игры", str(s.games)),
        ("Победы", f"{s.wins} ({percent(s.wins / s.games if s.games else None)})"),
        ("Рейтинг", number(page.rating, 1, trim=False)),
        ("Баллы", number(s.points)),
        ("Баллы за игру", number(None if s.average is None else round(s.average, 2))),
        ("Лучшие ходы", f"{s.best_move_count} ({number(s.best_move_points)} б.)"),
        ("Лучший ход: угадано", best),
        ("Убит первым", str(s.killed_first)),
        ("Фолы", str(s.fouls)),
        ("Удаления", str(s.disqualified)),
        ("Голоса против чёрных", percent(s.against_black)),
        ("…когда играл красным", percent(s.red_against_black)),
    ]
    return (
        '<dl class="figures">'
        + "".join(f"<div><dt>{e(k)}</dt><dd>{e(v)}</dd></div>" for k, v in items)
        + "</dl>"
    )


def player_html(page: PlayerPage, plots: dict[str, str]) -> str:
    roles = [
        f'<tr class="{"black" if r.black else "red"}"><td class="role">{e(r.role)}</td>'
        f'<td class="num">{r.games}</td><td class="num">{r.wins}</td>'
        f'<td class="num">{percent(r.rate)}</td></tr>'
        for r in page.roles
    ]
    games = [
        f'<tr class="{g.team.value}"><td><a href="/game/{g.game}">{g.game}</a></td><td>{e(g.date)}</td>'
        f'<td class="role">{e(g.role)}</td><td>{"победа" if g.won else "поражение"}</td>'
        f'<td class="num">{number(g.points)}</td>'
        f'<td class="num">{number(g.rating, 1, trim=False)}</td></tr>'
        for g in reversed(page.games)
    ]
    figures = "".join(f'<figure class="plot {e(k)}">{svg}</figure>' for k, svg in plots.items())
    body = (
        f"<h1>{e(page.name)}</h1>{_figures(page)}"
        f'<h2>Графики</h2><div class="plots">{figures}</div>'
        "<h2>По ролям</h2>"
        + table(["Роль", "Игры", "Победы", "Доля"], roles, "roles")
        + "<h2>Игры</h2>"
        + table(["Игра", "Дата", "Роль", "Итог", "Баллы", "Рейтинг"], games, "games")
    )
    return document(page.name, body)
