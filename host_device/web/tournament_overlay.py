"""A tournament's overlays for OBS's Browser Source (issue 49 item 1), served by
``club web`` and the box's club pages beside the venue screen:

- ``/tournament/NAME/overlay/standings`` (1920×1080, ``?top=N``: the top N
  rows, 10 unless asked, 1-20): place, name, games and sum (or points per game,
  by the scoring table), large — the standings the venue screen computes, of
  finished games only;
- ``/tournament/NAME/overlay/next?table=T`` (880×240): the next game of table
  T — its round, the table and the ten names by seat.

Transparent pages drawn on the server (no script) that read themselves again
every REFRESH seconds. Public like the venue screen, with no token: they show
only what it shows (the published seating, the standings of finished games),
never a role or a check. A refusal is a line on the same transparent page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from host_device.web.club_html import e, number
from host_device.web.venue_html import REFRESH, BadRound, Held, between_rounds

TOP = 10  # rows of the standings unless ?top= asks
TOP_MOST = 20
NO_TABLE = "Укажите стол в адресе: ?table=1"
BAD_TABLE = "Стол {table}: в туре {round} столы 1–{tables}"
BAD_TOP = "Непонятное ?top={top}: число от 1 до {most}"
OVER = "Турнир «{name}» окончен: все {rounds} туров сыграны"


def document(kind: str, title: str, body: str) -> str:
    """The overlay's page: ``kind`` standings|next (its size, static/tournament-overlay.css)."""
    return (
        f'<!doctype html><html lang="ru" class="tournament-overlay {kind}">'
        f'<head><meta charset="utf-8"><meta http-equiv="refresh" content="{REFRESH}">'
        f'<title>{e(title)}</title><link rel="stylesheet" href="/static/tournament-overlay.css">'
        f"</head><body>{body}</body></html>"
    )


def figure(value: Any) -> str:
    return number(value) if isinstance(value, float) else str(value)


def refused(kind: str, text: str, status: int) -> tuple[int, str]:
    return status, document(kind, "Нет оверлея", f'<p class="refused">{e(text)}</p>')


def overlay(
    held: Held,
    kind: str,
    query: Mapping[str, str],
    scoring_table: Any,
    finished_among: Callable[[list[int]], Mapping[int, Any]],
) -> tuple[int, str]:
    """(status, html) of the overlay ``kind`` (standings|next) of the tournament ``held``."""
    if not held.seating:
        raise BadRound(
            f"рассадки турнира «{held.name}» здесь нет: оверлеи турнира — в club web по базе клуба"
        )
    records = finished_among([g for g, _r, _t in held.games])
    if kind == "standings":
        return standings_overlay(held, records, query.get("top", ""), scoring_table)
    return next_overlay(held, records, query.get("table", ""))


def standings_overlay(
    held: Held, records: Mapping[int, Any], top_text: str, scoring_table: Any
) -> tuple[int, str]:
    from host_device.tournament.standings import standings
    from host_device.tournament.table_rows import COLUMNS, table_rows

    if top_text and not (top_text.isascii() and top_text.isdigit() and 1 <= int(top_text) <= TOP_MOST):
        return refused("standings", BAD_TOP.format(top=top_text, most=TOP_MOST), 400)
    top = int(top_text) if top_text else TOP
    ranked = standings([(r, records[g]) for g, r, _t in held.games if g in records], scoring_table)
    rows = table_rows(ranked, held.names)[:top]
    at = {h: k for k, (h, _a) in enumerate(COLUMNS)}
    key = "за игру" if getattr(scoring_table, "rank_by", "total") == "average" else "сумма"
    heading = between_rounds(held, records, "") or "Таблица"
    lines = "".join(
        f'<li><span class="place">{e(r[at["место"]])}</span><span class="name">{e(r[at["игрок"]])}</span>'
        f'<span class="games">{e(r[at["игр"]])}</span>'
        f'<span class="sum">{e(figure(r[at[key]]))}</span></li>'
        for r in rows
    )
    head = (
        '<li class="head"><span class="place">место</span><span class="name">игрок</span>'
        f'<span class="games">игр</span><span class="sum">{e(key)}</span></li>'
    )
    table = (
        f'<ol class="ranks" style="--rows: {len(rows)}">{head}{lines}</ol>'
        if rows
        else '<p class="none">Сыгранных игр пока нет.</p>'
    )
    body = (
        f'<section class="panel"><h1><span class="event">{e(held.name)}</span>'
        f'<span class="title">{e(heading)}</span></h1>{table}</section>'
    )
    return 200, document("standings", f"{held.name}: {heading}", body)


def next_round(held: Held, records: Mapping[int, Any], table: int) -> int:
    """The round of table ``table``'s next game: the one after the last it has finished (an annulled
    game was played too: not played again)."""
    done = [r for g, r, t in held.games if t == table and g in records]
    done += [r for _g, r, t in held.annulled if t == table]
    return max(done, default=0) + 1


def next_overlay(held: Held, records: Mapping[int, Any], table_text: str) -> tuple[int, str]:
    if not table_text:
        return refused("next", NO_TABLE, 400)
    if not (table_text.isascii() and table_text.isdigit()) or int(table_text) < 1:
        return refused("next", BAD_TABLE.format(table=table_text, round=1, tables=len(held.seating[0])), 404)
    table = int(table_text)
    round_no = next_round(held, records, table)
    if round_no > len(held.seating):
        return refused("next", OVER.format(name=held.name, rounds=len(held.seating)), 200)
    tables = held.seating[round_no - 1]
    if table > len(tables):
        return refused("next", BAD_TABLE.format(table=table, round=round_no, tables=len(tables)), 404)
    seats = "".join(
        f'<li><span class="no">{k}</span><span class="name">{e(held.names.get(p, p))}</span></li>'
        for k, p in enumerate(tables[table - 1], 1)
    )
    body = (
        f'<section class="panel"><h1><span class="event">{e(held.name)}</span>'
        f'<span class="title">Следующая игра: тур {round_no} из {len(held.seating)}, стол {table}</span></h1>'
        f'<ol class="seats">{seats}</ol></section>'
    )
    return 200, document("next", f"{held.name}: тур {round_no}, стол {table}", body)
