"""The venue screen of a tournament (``/tournament/NAME``), made for a hall's
TV: a round's seating for all its tables (who sits where) and the standings
(place, name, games, sum), large, in pages that fill the screen and turn by
themselves; on a phone, or with ``?show=all``, the whole of it with the
standings' every column. Drawn from the box's store, or from the club's
database (the seating ``tournament publish`` put there, the games the boxes
sent); every value escaped."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.store.tournaments import tournament_name
from host_device.web.club_html import e, number, table


class BadRound(HostDeviceError, ValueError):
    pass


REFRESH = 20  # seconds: a screen of one page reads itself again this often
WINDOW = 60  # seconds: every page of the screen shown within them, then the screen read again
MIN_TURN = 5  # seconds a page stays at least (past twelve pages the round of pages outlasts WINDOW)
# A hall's TV (static/venue.css): 1 rem is a 30th of a 16:9 screen's height (36 px at 1080p, 72 px at
# 2160p: the same pages, larger). A page's body under its heading line is BODY rem high and WIDE rem
# wide; every line of text LINE of its type; two rows of tables GAP apart, two tables 1 rem.
BODY = 27.4
WIDE = 51.333
LINE = 1.2
GAP = 0.6
TYPES = (1.5, 1.25, 1.0)  # rem: the largest that fits, the smallest whatever (a name too long: «…»)
SEAT_NO = 1.9  # em: a seat's number and the space after it
RANK_COLUMN = (WIDE - 1.5) / 2  # rem: a column of the standings (two a page, 1.5 rem apart)
RANK_FIGURES = {"сумма": 8.9, "за игру": 9.9}  # em: its place, games and sum (or points per game)
# and the gaps between (venue.css)
CHAR = 0.64  # em a name takes a letter, at most on average (DejaVu Sans: 0.58-0.62 measured)
NOTES_MAX = 3  # annulled games' lines on a standings page (all of them under the detail table)
NOTE_SPACE = 0.3  # rem above them


def widest(names: Iterable[str], most: float) -> float:
    """The em the longest name needs, of those that ``most`` em hold (a longer one is shortened
    with «…» whatever the type: it chooses nothing)."""
    return max((w for w in (CHAR * len(n) for n in names) if w <= most), default=0.0)


def spread(count: int, pages: int) -> list[range]:
    """``count`` things on ``pages`` pages, as many on each (the first ones one more)."""
    each, more = divmod(count, pages)
    starts = [k * each + min(k, more) for k in range(pages + 1)]
    return [range(a, b) for a, b in itertools.pairwise(starts)]


def seating_pages(
    tables: Sequence[Sequence[str]], byes: bool, marked: bool
) -> tuple[list[list[int]], int, float]:
    """The TV's pages of a round's seating: the tables on each (indices; -1: the cell of those who
    sit out), the columns and the type (rem). A table is a heading line and a line a seat (and one
    more when a table of the round is marked annulled). Up to three tables: one row, as large as
    their names allow; more: 1 rem, four a row (three where a name needs it), two rows where they
    fit, as many on every page."""
    cells = [*range(len(tables)), *([-1] if byes else [])]
    if not cells:
        return [], 1, 1.0

    def room(cols: int, size: float) -> float:
        return (WIDE - (cols - 1)) / cols / size - SEAT_NO

    wide = widest((n for t in tables for n in t), room(min(len(cells), 3), TYPES[-1]))

    if len(cells) <= 3:
        size = next((s for s in TYPES if room(len(cells), s) >= wide), TYPES[-1])
        return [cells], len(cells), size
    most = 4 if room(4, 1.0) >= wide else 3
    lines = 1 + max((len(t) for t in tables), default=1) + marked
    rows = max(1, int((BODY + GAP) // (lines * LINE + GAP)))
    parts = spread(len(cells), -(-len(cells) // (most * rows)))
    each = len(parts[0])
    cols = each if each <= most else -(-each // rows)
    return [cells[part.start : part.stop] for part in parts], cols, 1.0


def ranks_pages(names: Sequence[str], notes: int, key: str = "сумма") -> tuple[list[range], float]:
    """The TV's pages of the standings: the rows on each (two columns, each under its heading line)
    and the type (rem), the largest that fits their rows and names; ``notes``: the lines under them."""
    body = BODY - (notes * LINE + NOTE_SPACE if notes else 0)
    most = int(body // LINE) - 1  # rows a column holds at 1 rem
    count = len(names)
    if count == 0:
        return [], 1.0
    parts = spread(count, -(-count // (2 * most)))
    column = -(-len(parts[0]) // 2)
    wide = widest(names, RANK_COLUMN / TYPES[-1] - RANK_FIGURES[key])
    size = next(
        (s for s in TYPES if (column + 1) * LINE * s <= body and RANK_COLUMN / s - RANK_FIGURES[key] >= wide),
        TYPES[-1],
    )
    return parts, size


def turn(pages: int) -> int:
    """Seconds a page stays: every page within WINDOW, at most REFRESH, at least MIN_TURN."""
    return max(MIN_TURN, min(REFRESH, WINDOW // max(pages, 1)))


def _tables_html(
    cells: Sequence[int], tables: Sequence[Sequence[str]], byes: Sequence[str], void: Mapping[int, str]
) -> str:
    parts = []
    for t in cells:
        if t < 0:
            out = e(", ".join(byes))
            parts.append(f'<section class="table sitting-out"><p class="byes">{BYES}{out}</p></section>')
            continue
        seats = "".join(f"<li><b>{s}</b> {e(p)}</li>" for s, p in enumerate(tables[t], 1))
        title = f"<h3>Стол {t + 1}{void.get(t + 1, '')}</h3>"
        parts.append(f'<section class="table">{title}<ol class="seating">{seats}</ol></section>')
    return f'<div class="tables">{"".join(parts)}</div>'


def _ranks_html(rows: Sequence[Sequence[Any]], at: Mapping[str, int], key: str) -> str:
    """Two columns of the standings' place, name, games and ``key`` (the sum, or the points per
    game where the table ranks by them), large; the other figures are in the detail table."""

    def cell(css: str, value: Any) -> str:
        return f'<span class="{css}">{e(number(value) if isinstance(value, float) else value)}</span>'

    heads = (
        '<p class="heads"><span class="place"></span><span class="name">игрок</span>'
        f'<span class="games">игр</span><span class="sum">{e(key)}</span></p>'
    )
    half = -(-len(rows) // 2)
    columns = []
    for part in (rows[:half], rows[half:]):
        if part:
            items = "".join(
                "<li>"
                + cell("place", r[at["место"]])
                + cell("name", r[at["игрок"]])
                + cell("games", r[at["игр"]])
                + cell("sum", r[at[key]])
                + "</li>"
                for r in part
            )
            columns.append(f'<div class="column">{heads}<ol class="ranks">{items}</ol></div>')
    per_game = " per-game" if key == "за игру" else ""
    return f'<div class="columns{per_game}">{"".join(columns)}</div>'


def venue_html(
    name: str,
    round_no: int,
    rounds: int,
    tables: Sequence[Sequence[str]],
    byes: Sequence[str],
    rows: Sequence[Sequence[Any]],
    head: Sequence[str],
    label: str,
    standings_first: str | None = None,
    annulled: Sequence[tuple[int, int, int]] = (),
    whole: bool = False,
    key: str = "сумма",
) -> str:
    """A hall's screen: pages that fill a TV and turn by themselves (a CSS animation: no script),
    each page's seconds chosen so that every page shows within WINDOW, then the screen reads itself
    again (a finished game, the next round). The seating's pages (every table of the round, who sits
    where) and the standings' (place, name, games and ``key``, large), in the order the moment asks:
    ``standings_first`` (their heading) between rounds and after the last. On a phone, or with
    ``whole`` (``?show=all``), one page to scroll: the seating and the detail table, every column.
    ``annulled``: (game, round, table) of the games annulled, marked «аннулирована» at their table
    of the round shown and listed under the standings (kept, not counted)."""
    notes = [f"Игра {g} (стол {t}, тур {r}) аннулирована: не считается" for g, r, t in annulled]
    void: dict[int, str] = {}
    for g, r, tt in annulled:
        if r == round_no:
            void[tt] = void.get(tt, "") + f' <span class="annulled">игра {g} аннулирована</span>'
    seat_pages, cols, seat_type = seating_pages(tables, bool(byes), bool(void))
    at = {h: k for k, h in enumerate(head)}
    rank_pages, rank_type = ranks_pages([str(r[at["игрок"]]) for r in rows], min(len(notes), NOTES_MAX), key)
    heading = standings_first or "Таблица"
    shown = notes[:NOTES_MAX]
    if len(notes) > NOTES_MAX:
        shown[-1] = f"Аннулированных игр ещё: {len(notes) - NOTES_MAX + 1} — все в полной таблице"
    note_html = "".join(f'<p class="annulled">{e(n)}</p>' for n in shown)
    seating = [
        (
            "seating",
            f"--cols: {cols}; --type: {seat_type}rem",
            f'<h2 class="round">Тур {round_no} из {rounds}</h2>',
            _tables_html(cells, tables, byes, void),
        )
        for cells in seat_pages
    ]
    ranked = [
        (
            "ranks",
            f"--type: {rank_type}rem",
            f'<h2 class="standings">{e(heading)}</h2>',
            _ranks_html([rows[k] for k in part], at, key) + note_html,
        )
        for part in rank_pages
    ]
    detail = f'<section class="detail"><h2 class="standings">{e(heading)}</h2><p class="label">{e(label)}</p>'
    if rows:
        lines = (
            "<tr>" + "".join(f"<td>{e(number(c) if isinstance(c, float) else c)}</td>" for c in r) + "</tr>"
            for r in rows
        )
        detail += table(head, lines, "standings")
    else:
        detail += "<p>Сыгранных игр пока нет.</p>"
    detail += "".join(f'<p class="annulled">{e(n)}</p>' for n in notes) + "</section>"
    order = [*ranked, *seating] if standings_first else [*seating, *ranked]
    each = turn(len(order))
    sections = []
    for k, (kind, layout, title, body) in enumerate(order):
        mark = f"страница {k + 1} из {len(order)}" if len(order) > 1 else ""
        top = f'<header><span class="event">{e(name)}</span>{title}<span class="mark">{mark}</span></header>'
        style = f"animation-delay: {k * each}s; {layout}"
        sections.append(f'<section class="page {kind}" style="{style}">{top}{body}</section>')
        if kind == "ranks" and (k + 1 == len(order) or order[k + 1][0] != "ranks"):
            sections.append(detail)  # on a phone the detail table stands where the standings are
    if not ranked:
        sections.insert(0 if standings_first else len(sections), detail)
    cycle = each * len(order) if len(order) > 1 else REFRESH
    return _document(
        f"{name}: тур {round_no}",
        f"<h1>{e(name)}</h1>{''.join(sections)}",
        REFRESH if whole else cycle,
        len(order),
        whole,
    )


BYES = "Не играют в этом туре: "
SWITCH = {False: '<a href="?show=all">Вся таблица</a>', True: '<a href="?">Экран зала</a>'}


def _document(title: str, body: str, refresh: int, pages: int, whole: bool) -> str:
    """The venue's own page (club.css under venue.css); the pages' turn as a keyframe: visible for
    one page's share of the cycle, from each page's delay on."""
    share = math.floor(1_000_000 / max(pages, 1)) / 10_000  # down: two pages never at once
    turning = f"@keyframes venue-turn {{ 0% {{ visibility: visible; }} {share}% {{ visibility: hidden; }} }}"
    mode = "all" if whole else "tv"
    return (
        f'<!doctype html><html lang="ru" class="venue {mode}" style="--cycle: {refresh}s">'
        f'<head><meta http-equiv="refresh" content="{refresh}"><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{e(title)}</title><link rel="stylesheet" href="/static/club.css">'
        f'<link rel="stylesheet" href="/static/venue.css"><style>{turning}</style>'
        f'</head><body><nav><a href="/club">Клуб</a> · {SWITCH[whole]}</nav>'
        f"<main>{body}</main></body></html>"
    )


@dataclass(frozen=True)
class Held:
    """What a venue screen is drawn from, wherever the tournament is kept."""

    name: str
    seating: Sequence[Sequence[Sequence[str]]]  # rounds -> tables -> player ids by seat
    players: Sequence[str]  # the active ones (byes: those not seated in a round)
    games: Sequence[tuple[int, int, int]]  # (game, round, table)
    names: Mapping[str, str]  # player id -> the name shown
    begun: int = 0  # the last round a box has taken a table of (the club's database; a store links at start)
    annulled: Sequence[tuple[int, int, int]] = ()  # (game, round, table) of the games annulled: not counted

    def latest(self) -> int:
        """The last round begun: a game of it linked (a store's), or a table of it taken (the database's)."""
        return max(max((r for _g, r, _t in self.games), default=0), self.begun)


def from_store(path: str, name: str) -> Held:
    from host_device.store.db import Store

    store = Store(Path(path), create=False)
    try:
        row = store.tournaments.get(name)
        return Held(
            row.name,
            store.tournaments.seating(row.id),
            row.players,
            store.tournaments.games(row.id),
            {p.id: p.label for p in store.roster.players()},
            annulled=store.tournaments.annulled(row.id),
        )
    finally:
        store.close()


def from_database(db: Any, name: str) -> Held:
    """The seating published in the club's database (``tournament publish``) and the games
    the boxes sent as its tables; one line when nothing is published under ``name``."""
    from host_device.tournament.seating_file import seating_rows, shell_command

    name = tournament_name(name)
    published = db.tournaments.seating_of(name)
    if published is None:
        raise BadRound(
            f"турнира «{name}» нет в базе клуба: опубликуйте его рассадку — "
            f"{shell_command('host-device tournament publish', name)} на машине, где он создан"
        )
    rounds: dict[int, dict[int, dict[int, str]]] = {}
    names: dict[str, str] = {}
    _name, rows = seating_rows(published, f"рассадка «{name}» в базе клуба")
    for r, t, s, player, pid in rows:
        rounds.setdefault(r, {}).setdefault(t, {})[s] = pid
        names[pid] = player
    seating = [
        [[seats[k] for k in sorted(seats)] for _t, seats in sorted(rounds[r].items())] for r in sorted(rounds)
    ]
    roster, _merged = db.roster()
    names.update({pid: shown for pid, (shown, _nick) in roster.items()})
    players = published.get("players")
    if not (isinstance(players, list) and players and all(isinstance(p, str) for p in players)):
        players = list(dict.fromkeys(p for r in seating for t in r for p in t))
    games, annulled = db.tournaments.games(name), db.tournaments.games(name, annulled=True)
    return Held(name, seating, players, games, names, db.tournaments.round_begun(name), annulled)


def venue(
    held: Held, round_text: str, scoring_table: Any, finished_among: Any, show: str = ""
) -> tuple[int, str]:
    """(status, html) of the venue screen; ``round_text`` "" for the next round to play (the
    last when all are played); ``finished_among(games)``: the records of those of the
    tournament's games that are finished, by game (kept)."""
    from host_device.tournament.standings import LABEL, standings
    from host_device.tournament.table_rows import COLUMNS, table_rows

    seating, games, names = held.seating, held.games, held.names
    if not seating:  # a box's copy of the tournament: its own games, no seating
        raise BadRound(
            f"рассадки турнира «{held.name}» здесь нет (только игры этого стола): экран зала — "
            "в club web по базе клуба или на машине, где турнир создан"
        )
    records = finished_among([g for g, _r, _t in games])
    latest = held.latest()
    # the round being played until every one of its tables has finished, then the next
    shown = latest + 1 if latest == 0 or round_over(held, records, latest) else latest
    asked = round_text.isascii() and round_text.isdigit()
    round_no = int(round_text) if asked else min(shown, len(seating))
    if (round_text and not asked) or not 1 <= round_no <= len(seating):
        raise BadRound(f"тур {round_text}: в турнире «{held.name}» туры 1–{len(seating)}")
    tables = seating[round_no - 1]
    seated = {p for t in tables for p in t}
    ranked = standings([(r, records[g]) for g, r, _t in games if g in records], scoring_table)
    first = between_rounds(held, records, round_text)
    return 200, venue_html(
        held.name,
        round_no,
        len(seating),
        [[names.get(p, p) for p in t] for t in tables],
        [names.get(p, p) for p in held.players if p not in seated],
        table_rows(ranked, names),
        [h for h, _a in COLUMNS],
        LABEL,
        first,
        held.annulled,
        whole=show == "all",
        key="за игру" if getattr(scoring_table, "rank_by", "total") == "average" else "сумма",
    )


def round_over(held: Held, finished: Mapping[int, Any], round_no: int) -> bool:
    """Every table of ``round_no`` has a finished game (a round past the seating: over)."""
    if round_no > len(held.seating):
        return True
    done = {t for g, r, t in held.games if r == round_no and g in finished}
    return done >= set(range(1, len(held.seating[round_no - 1]) + 1))


def between_rounds(held: Held, finished: Mapping[int, Any], round_text: str) -> str | None:
    """The standings' heading when their pages come first, else None. Between rounds (every table
    of the last round played has finished, the next round not begun) the standings come first
    («Таблица после тура R»), then the next round's seating; after the last round the final
    standings. During a round, or with a round asked for, the seating comes first."""
    latest = held.latest()
    if round_text or latest == 0 or latest > len(held.seating):  # (a game past the seating: none to show)
        return None
    if not round_over(held, finished, latest):
        return None  # a table of the round still plays
    if latest == len(held.seating):
        return "Итоговая таблица"
    return f"Таблица после тура {latest}"
