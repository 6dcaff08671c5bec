"""The club's pages as HTML text (no template engine, every value escaped):
the after-game review (:mod:`host_device.web.review`'s data), the
leaderboard and a player's page (:mod:`host_device.web.club_data`'s).
Large type that scales with the screen (a TV at 3 m), one column on a
phone; the colours are the teams' (red, black) and every mark also says
its team in words (``title``), not by colour alone."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from engine.roles import Team
from host_device.club.evidence import GIVEN_BY, WITHDRAWN, clock, heard_words, speech_moment
from host_device.club.record import FoulRecord
from host_device.web.review import ROUND_NAMES, DayMap, Review
from voices import words
from voices.words import WINNER, preset_name

SILENT = ' class="silent"'  # a row of a seat in the game that day that never pressed
TEAM_WORD = {Team.RED: "красный", Team.BLACK: "чёрный"}
COUNTED = "как подсчитано: нажатия и, по правилам, голоса не нажавших"  # the vote map's count row


def e(value: object) -> str:
    return escape(str(value), quote=True)


def number(value: float | None, places: int = 2, trim: bool = True) -> str:
    """A number in the club's one style (voices/words.py); none: «—»."""
    return "—" if value is None else words.number(value, places, trim)


def document(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{e(title)}</title><link rel="stylesheet" href="/static/club.css"></head>'
        f'<body><nav><a href="/club">Клуб</a> · <a href="/">Стол</a></nav><main>{body}</main></body></html>'
    )


def table(head: Iterable[str], rows: Iterable[str], css: str = "") -> str:
    cells = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join(rows)
    return (
        f'<div class="scroll"><table class="{css}"><thead><tr>{cells}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def seat_name(name: str | None, player: str | None) -> str:
    if name is None:
        return '<span class="none">—</span>'
    return f'<a href="/player/{e(player)}">{e(name)}</a>' if player else e(name)


def when(stamp: str) -> str:
    """A stored time (ISO, UTC) as the club reads it: the date and the minute."""
    return stamp[:16].replace("T", " ")


def _heads(day: DayMap) -> tuple[str, str]:
    rounds, heads = [], []
    for index, column in enumerate(day.columns):
        if index == 0 or column.round != day.columns[index - 1].round:
            span = sum(1 for c in day.columns if c.round == column.round)
            name = ROUND_NAMES.get(column.kind, column.kind)
            rounds.append(f'<th colspan="{span}" class="round">{e(name)}</th>')
        if column.target is None or column.team is None:
            heads.append('<th class="cand all">за</th>')
            continue
        by = "" if column.nominated_by is None else f"<small>от {column.nominated_by}</small>"
        heads.append(
            f'<th class="cand {column.team.value}" data-target="{column.target}" '
            f'title="{e(TEAM_WORD[column.team])}">{column.target}{by}</th>'
        )
    return "".join(rounds), "".join(heads)


def _cell(day: DayMap, voter: int, index: int) -> str:
    mark = day.mark(voter, index)
    if mark is None:
        return '<td class="empty"></td>'
    target = day.columns[index].target
    at = "" if target is None else f' data-target="{target}"'
    against = "" if mark.target_team is None else mark.target_team.value
    words = TEAM_WORD[mark.voter_team] + (f" → {TEAM_WORD[mark.target_team]}" if mark.target_team else "")
    return (
        f'<td class="vote v-{mark.voter_team.value}{" t-" + against if against else ""}" '
        f'data-voter="{voter}"{at} data-voter-team="{mark.voter_team.value}" '
        f'data-target-team="{against}" title="{e(words)}"><span class="dot"></span></td>'
    )


def vote_map(day: DayMap) -> str:
    """A day's votes: a row per voter, a column per candidate of each round."""
    if not day.columns:
        who = ", ".join(f"{by} → {target}" for by, target in day.nominations) or "никто"
        return (
            f'<section class="day" data-day="{day.day}"><h3>День {day.day}</h3>'
            f"<p>Выставлены: {e(who)}; голосования не было</p></section>"
        )
    rounds, heads = _heads(day)
    body = "".join(
        f"<tr{SILENT if voter in day.silent else ''}>"
        f'<th class="voter {day.team(voter).value}">{voter}</th>'
        + "".join(_cell(day, voter, index) for index in range(len(day.columns)))
        + "</tr>"
        for voter in day.rows
    )
    if day.silent:
        quiet = ", ".join(map(str, day.silent))
        body += f'<tr class="note"><td colspan="{len(day.columns) + 1}">не нажимали: {quiet}</td></tr>'
    counts = "".join(f'<td class="votes" data-column="{i}">{c.votes}</td>' for i, c in enumerate(day.columns))
    return (
        f'<section class="day" data-day="{day.day}"><h3>День {day.day}</h3>'
        '<div class="scroll"><table class="votes"><thead>'
        f'<tr><th rowspan="2" class="corner">кто</th>{rounds}</tr><tr>{heads}</tr></thead>'
        f"<tbody>{body}</tbody>"
        f'<tfoot><tr class="count"><th class="corner" title="{COUNTED}">голосов</th>{counts}</tr></tfoot>'
        "</table></div></section>"
    )


WITHDRAWN_ROW = ' class="withdrawn"'  # a device's foul withdrawn: listed for the referee, counted nowhere


def withdrawn_mark(foul: FoulRecord) -> str:
    return f" <b>({WITHDRAWN})</b>" if foul.withdrawn else ""


def review_html(page: Review) -> str:
    seats = [
        f'<tr class="{s.team.value}" data-seat="{s.seat}"><td class="num">{s.seat}</td>'
        f'<td title="{e(s.name or "")}">{seat_name(s.name, s.player)}</td><td class="role">{e(s.role)}</td>'
        f'<td class="num">{s.fouls or ""}</td><td>{e(s.left or "")}</td>'
        f'<td class="num points">{number(s.points)}</td></tr>'
        for s in page.seats
    ]
    head = (
        f'<h1>Игра {page.id} <span class="winner {page.winner.value}">{WINNER[page.winner]}</span></h1>'
        f'<p class="meta">{e(preset_name(page.preset))} · {e(when(page.started_at))}</p>'
    )
    parts = [
        "<h2>Места</h2>",
        table(["№", "Игрок", "Роль", "Фолы", "Выбыл", "Баллы"], seats, "seats"),
    ]
    if page.best_move is not None:
        seat, named, black = page.best_move
        teams = {s.seat: s.team for s in page.seats}
        marks = " ".join(f'<span class="chip {teams[n].value}">{n}</span>' for n in named)
        said = f"Игрок {seat}: {marks} — чёрных {black} из {len(named)}"
        parts.append(f'<h2>Лучший ход</h2><p class="best">{said}</p>')
    if page.fouls:  # who gave each foul, what the device heard and when, and those withdrawn (docs/fouls.md)
        rows = [
            f'<tr data-by="{e(f.by)}"{WITHDRAWN_ROW if f.withdrawn else ""}><td class="num">{f.day}</td>'
            f'<td class="num">{f.seat}</td><td>{GIVEN_BY.get(f.by, e(f.by))}{withdrawn_mark(f)}</td>'
            f'<td>{"«" + e(f.word) + "»" if f.word else ""}</td><td class="heard">{e(heard_words(f))}</td>'
            f'<td>{e(speech_moment(f))}</td><td class="num">{clock(f.at)}</td></tr>'
            for f in page.fouls
        ]
        header = ["День", "Игрок", "Дал", "Слово", "Услышано (уверенность)", "Момент", "Время игры"]
        parts += ["<h2>Замечания</h2>", table(header, rows, "fouls")]
    votes = "".join(vote_map(day) for day in page.days)
    if page.nights:
        rows = [
            f'<tr><td class="num">{n.night}</td><td>{e(n.kind)}</td><td>{e(n.by)}</td>'
            f'<td class="num {n.target_team.value if n.target_team else ""}">{n.target or ""}</td>'
            f"<td>{'' if n.result is None else ('да' if n.result else 'нет')}</td></tr>"
            for n in page.nights
        ]
        parts += ["<h2>Ночи</h2>", table(["Ночь", "Что", "Кто", "Кого", "Ответ"], rows, "nights")]
    body = (
        f'{head}<div class="review"><div class="facts">{"".join(parts)}</div>'
        f'<div class="days"><h2>Голосования</h2>{votes}</div></div>'
    )
    return document(f"Игра {page.id}", body)
