"""A finished game on the federation's (FIIM) paper form, for a referee's signature:
A4 landscape, two pages a game. The layout is mafiaratings' ``include/fiim_form.php``
(github.com/szotin/mafiaratings at 0ae2a5f, class ``FiimForm``), its cells at the same
millimetres: on the first page the header (турнир, стадия, дата, стол №, игра №), ten rows
(№ · игрок · роль · four foul boxes · баллы · доп. баллы), the winning team, the best move
with the first killed, «протест», «судья», and on the right seven «Голосование N» blocks
(the nominees, their votes, the revote's); the second page holds the explanations of the
extra points and penalties, and the protest's comments. What the record has is filled in
(navy, as their form writes its data); what it has not is left for the pen.

:func:`fiim_form` makes the form's data from a record (an unfinished game has none: its
roles are secret); :func:`render_fiim` draws the forms into one PDF with matplotlib, as the
protocol is drawn (host_device/club/protocol_pdf.py: its font and measured widths)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from engine.roles import Role, Team
from engine.state import RoundKind
from host_device.base.text import shorten
from host_device.club.evidence import WITHDRAWN, heard_words
from host_device.club.protocol_pdf import _ems as ems
from host_device.club.protocol_pdf import _font, wrap
from host_device.club.record import GameRecord, VoteRound, vote_rounds
from host_device.club.scoring import SeatPoints
from voices.words import local_time, number

PAGE = (297.0, 210.0)  # millimetres: A4 landscape
MM = 72 / 25.4  # points a millimetre
SEATS = 10  # the form's rows
FOUL_BOXES = 4
VOTE_BLOCKS = 7  # «Голосование 1» … «Голосование 7»
NOMINEE_COLUMNS = 11
EXPLANATION_LINES = 14  # ruled lines of the second page's first part
PROTEST_LINES = 7  # … and of its second
INK = "#000080"  # the filled-in data (their form's SetTextColor(0, 0, 128))
BLANK = "#808080"  # the printed blanks for the pen (SetTextColor(128))
ROLE_LETTERS = {  # the form's (Ш, М, Д), and the city game's roles where it is drawn on it
    Role.SHERIFF: "Ш",
    Role.MAFIA: "М",
    Role.DON: "Д",
    Role.CIVILIAN: "",
    Role.COMMISSAR: "К",
    Role.DOCTOR: "Док",
    Role.LOVER: "Л",
}
WINNERS = {Team.RED: "красные", Team.BLACK: "чёрные"}
PAD = 1.0  # millimetres a cell keeps free at each side of its text
MIN_SIZE = 5.0  # points: a text is made no smaller (it is cut instead)


@dataclass(frozen=True)
class Header:
    """What the record does not know and the organiser may give (``games protocol --form
    fiim --tournament … --stage … --table … --judge …``); an empty one is left for the pen."""

    tournament: str = ""
    stage: str = ""
    table: str = ""
    judge: str = ""


@dataclass(frozen=True)
class Row:
    seat: int
    name: str
    role: str  # Ш, М, Д (К, Док, Л in the city game); a civilian's is empty
    fouls: tuple[str, ...]  # the four boxes: «✓» a foul, «!» a disqualification without a fourth
    left: bool  # out of the game by its end: marked «*» left of his number
    points: str  # his role's win or loss
    extra: str  # everything else (best move, penalties, the host's extra points); "" when 0


@dataclass(frozen=True)
class VoteBlock:
    day: int
    title: str  # «Голосование 2 — день 2», with a round the three rows do not hold
    nominees: tuple[str, ...]  # «8», or «(8)» for the one who left by this vote; the city's «никого»
    votes: tuple[str, ...]  # the first round's count a nominee ("" where none was taken)
    revotes: tuple[str, ...]  # the revote's, among the nominees in it


@dataclass(frozen=True)
class FiimForm:
    game: int
    header: Header
    date: str  # «20 / 11 / 2026»
    rows: tuple[Row, ...]
    winner: str
    best_move: tuple[str, ...]  # the seats named, three at most
    first_killed: str  # the seat who named them (or the first shot), "" when none
    protest: str  # the first page's «протест» line ("" for the pen)
    votes: tuple[VoteBlock, ...]  # VOTE_BLOCKS at most
    more_votes: str  # one line when the game had more votes than the form's blocks
    explanations: tuple[str, ...]  # «Игрок 1 (Анна): лучший ход +0,5», one a seat
    protests: tuple[str, ...]  # each device's foul withdrawn


class FormDoesNotFit(ValueError):
    """A game the form has no place for (more seats than its ten rows), said in Russian."""


def _signed(value: float) -> str:
    return ("+" if value > 0 else "") + number(value)


def _row(record: GameRecord, seat_points: Mapping[int, SeatPoints], seat: int) -> Row:
    item = record.seat(seat)
    got = seat_points.get(seat)
    counted = min(item.fouls, FOUL_BOXES)
    fouls = ["✓"] * counted + [""] * (FOUL_BOXES - counted)
    if item.left is not None and item.left.how == "disqualified" and counted < FOUL_BOXES:
        fouls[-1] = "!"
    extra = round(got.total - got.result, 6) if got else 0.0
    return Row(
        seat=seat,
        name=item.name or "",
        role=ROLE_LETTERS[item.role],
        fouls=tuple(fouls),
        left=item.left is not None,
        points=number(got.result) if got else "",
        extra=number(extra) if extra else "",
    )


def _first_killed(record: GameRecord) -> str:
    if record.best_move is not None:
        return str(record.best_move.seat)
    shot = [s for s in record.seats if s.left is not None and s.left.how == "shot"]
    return str(min(shot, key=lambda s: s.left.night or 0 if s.left else 0).seat) if shot else ""


def _count(rnd: VoteRound | None, seat: int) -> str:
    if rnd is None or rnd.kind == RoundKind.ALL:
        return ""
    return next((str(votes) for candidate, votes in rnd.counts if candidate == seat), "")


def _beyond(rnd: VoteRound) -> str:
    """A round the block's rows do not hold (the all-leave question, a third round), in words."""
    if rnd.kind == RoundKind.ALL:
        return f"все уходят: за {rnd.counts[0][1] if rnd.counts else 0}"
    return f"круг {rnd.round}: " + ", ".join(f"{seat} — {votes}" for seat, votes in rnd.counts)


def _blocks(record: GameRecord) -> list[VoteBlock]:
    """A block a day with nominees: the nominees in their order (the first round's, else the
    day's nominations), the first round's votes, the revote's; the one who left in brackets."""
    rounds = vote_rounds(record)
    days = sorted({n.day for n in record.nominations} | {r.day for r in rounds})
    blocks: list[VoteBlock] = []
    for day in days:
        today = [r for r in rounds if r.day == day]
        first = next((r for r in today if r.kind != RoundKind.ALL), None)
        named = list(first.candidates) if first else []
        named += [n.target for n in record.nominations if n.day == day and n.target not in named]
        if not named:
            continue
        revote = next((r for r in today if r is not first and r.kind != RoundKind.ALL), None)
        gone = {s.seat for s in record.seats if s.left and s.left.how == "vote" and s.left.day == day}
        extra = [_beyond(r) for r in today if r is not first and r is not revote]
        title = f"Голосование {len(blocks) + 1} — день {day}" + "".join(f"; {e}" for e in extra)
        named = named[: NOMINEE_COLUMNS - 1]
        nominees = [f"({seat})" if seat in gone else str(seat) for seat in named]
        votes, revotes = [_count(first, seat) for seat in named], [_count(revote, seat) for seat in named]
        if first is not None and first.nobody is not None:  # the city's votes for killing nobody
            nominees.append("никого")
            votes.append(str(first.nobody))
            revotes.append(str(revote.nobody) if revote is not None and revote.nobody is not None else "")
        blocks.append(VoteBlock(day, title, tuple(nominees), tuple(votes), tuple(revotes)))
    return blocks


def _explanations(record: GameRecord, seat_points: Mapping[int, SeatPoints]) -> tuple[str, ...]:
    lines = []
    for seat, got in sorted(seat_points.items()):
        parts = [f"лучший ход {_signed(got.best_move)}"] if got.best_move else []
        parts += [f"фолы {_signed(got.fouls)}"] if got.fouls else []
        parts += [f"удаление {_signed(got.disqualified)}"] if got.disqualified else []
        parts += [f"доп. баллы ведущего {_signed(got.extra)}"] if got.extra else []
        name = record.seat(seat).name
        if parts:
            lines.append(f"Игрок {seat}" + (f" ({name})" if name else "") + ": " + "; ".join(parts))
    return tuple(lines)


def fiim_form(record: GameRecord, seat_points: Mapping[int, SeatPoints], header: Header) -> FiimForm:
    """The form of a finished game (ValueError for an unfinished one, :class:`FormDoesNotFit`
    for one of more than ten seats)."""
    if record.winner is None:
        raise ValueError(f"game {record.id} is not finished: its form would tell its roles")
    if len(record.seats) > SEATS:
        raise FormDoesNotFit(f"№ {record.id}: игроков {len(record.seats)}, а на бланке ФИИМ — десять строк")
    blocks = _blocks(record)
    more = (
        f"Голосований в игре: {len(blocks)}; на бланке — первые {VOTE_BLOCKS}, все — в протоколе вечера"
        if len(blocks) > VOTE_BLOCKS
        else ""
    )
    withdrawn = [f for f in record.fouls if f.withdrawn]
    protests = tuple(
        f"Игрок {f.seat}, день {f.day}: замечание устройства «{f.word}» ({heard_words(f)}) — {WITHDRAWN}"
        for f in withdrawn
    )
    day = local_time(record.started_at)[:10].split("-")
    return FiimForm(
        game=record.id,
        header=header,
        date=" / ".join(reversed(day)) if len(day) == 3 else "",
        rows=tuple(_row(record, seat_points, s.seat) for s in sorted(record.seats, key=lambda s: s.seat)),
        winner=WINNERS.get(record.winner, ""),
        best_move=tuple(str(s) for s in record.best_move.named[:3]) if record.best_move else (),
        first_killed=_first_killed(record),
        protest=f"снятых замечаний: {len(withdrawn)} (на обороте)" if withdrawn else "",
        votes=tuple(blocks[:VOTE_BLOCKS]),
        more_votes=more,
        explanations=_explanations(record, seat_points),
        protests=protests,
    )


class _Sheet:
    """A landscape A4 page drawn in the form's millimetres from its top left corner."""

    def __init__(self) -> None:
        self.fig = Figure(figsize=(PAGE[0] / 25.4, PAGE[1] / 25.4))

    def line(self, x0: float, y0: float, x1: float, y1: float) -> None:
        w, h = PAGE
        xs, ys = [x0 / w, x1 / w], [1 - y0 / h, 1 - y1 / h]
        self.fig.add_artist(Line2D(xs, ys, transform=self.fig.transFigure, color="black", linewidth=0.6))

    def box(self, x: float, y: float, w: float, h: float, sides: str = "LTRB") -> None:
        for side, (x0, y0, x1, y1) in {
            "L": (x, y, x, y + h),
            "T": (x, y, x + w, y),
            "R": (x + w, y, x + w, y + h),
            "B": (x, y + h, x + w, y + h),
        }.items():
            if side in sides:
                self.line(x0, y0, x1, y1)

    def text(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        text: str,
        size: float = 10.0,
        align: str = "left",
        bold: bool = False,
        color: str = "black",
    ) -> None:
        """``text`` inside the cell (x, y, w, h): made smaller, then cut, until it fits its width."""
        if not text:
            return
        room = (w - 2 * PAD) * MM
        size = max(MIN_SIZE, min(size, room / ems(text, bold), h * MM * 0.7))
        while len(text) > 1 and ems(text, bold) * size > room:
            text = shorten(text, len(text) - 1)
        left = {"left": x + PAD, "center": x + w / 2, "right": x + w - PAD}[align]
        self.fig.text(
            left / PAGE[0],
            1 - (y + h / 2) / PAGE[1],
            text,
            fontsize=size,
            ha=align,
            va="center_baseline",
            weight="bold" if bold else "normal",
            color=color,
        )

    def cell(
        self, x: float, y: float, w: float, h: float, text: str = "", sides: str = "LTRB", **kw: Any
    ) -> None:
        self.box(x, y, w, h, sides)
        self.text(x, y, w, h, text, **kw)


def _header(sheet: _Sheet, form: FiimForm) -> None:
    bold: dict[str, Any] = {"bold": True, "size": 11.0}
    ink: dict[str, Any] = {"color": INK, "align": "center", "size": 11.0}
    blank: dict[str, Any] = {"color": BLANK, "size": 11.0}
    sheet.cell(18.0, 17.4, 127, 7.7, "ТУРНИР", **bold)
    sheet.text(43.0, 17.4, 102, 7.7, form.header.tournament, **ink)
    sheet.cell(18.0, 25.1, 127, 7.7, "СТАДИЯ ТУРНИРА", **bold)
    sheet.text(65.0, 25.1, 80, 7.7, form.header.stage, **ink)
    sheet.cell(18.0, 32.8, 13.5, 7.7, "ДАТА", "LTB", **bold)
    sheet.cell(31.5, 32.8, 50.5, 7.7, "", "RTB")
    sheet.text(
        31.5, 32.8, 50.5, 7.7, form.date or "____ / _____ / _________", **(ink if form.date else blank)
    )
    sheet.cell(82.0, 32.8, 18.5, 7.7, "СТОЛ №", "TB", **bold)
    sheet.cell(100.5, 32.8, 13.5, 7.7, "", "RTB")
    sheet.text(100.5, 32.8, 13.5, 7.7, form.header.table or "____", **(ink if form.header.table else blank))
    sheet.cell(114.0, 32.8, 17.5, 7.7, "ИГРА №", "TB", **bold)
    sheet.cell(131.5, 32.8, 13.5, 7.7, "", "RTB")
    sheet.text(131.5, 32.8, 13.5, 7.7, str(form.game), **ink)


COLUMNS = {  # the players' table: (left, width) in millimetres
    "seat": (18.0, 7.9),
    "name": (25.9, 54.0),
    "role": (79.9, 10.1),
    "fouls": (90.0, 7.475),  # the first of four boxes
    "points": (119.9, 11.9),
    "extra": (131.8, 13.2),
}
ROWS_TOP = 52.2
ROW = 10.1


def _players(sheet: _Sheet, form: FiimForm) -> None:
    sheet.cell(18.0, 45.3, 61.9, 6.9, "Игрок", align="center")
    sheet.cell(79.9, 45.3, 10.1, 6.9, "Роль", size=8.0, align="center")
    sheet.cell(90.0, 45.3, 29.9, 6.9, "Фолы", align="center")
    sheet.cell(119.9, 45.3, 11.9, 6.9, "Баллы", size=8.0, align="center")
    sheet.box(131.8, 45.3, 13.2, 6.9)
    sheet.text(131.8, 45.3, 13.2, 3.45, "Доп.", size=8.0, align="center")
    sheet.text(131.8, 48.75, 13.2, 3.45, "баллы", size=8.0, align="center")
    rows = {row.seat: row for row in form.rows}
    for i in range(1, SEATS + 1):
        y = ROWS_TOP + (i - 1) * ROW
        row = rows.get(i)
        sheet.box(COLUMNS["seat"][0], y, COLUMNS["seat"][1], ROW)
        sheet.text(COLUMNS["seat"][0], y, COLUMNS["seat"][1], ROW, str(i), align="center", bold=True)
        for key in ("name", "role", "points", "extra"):
            left, width = COLUMNS[key]
            sheet.box(left, y, width, ROW)
            value = getattr(row, key) if row else ""
            sheet.text(left, y, width, ROW, value, color=INK, align="left" if key == "name" else "center")
        for k in range(FOUL_BOXES):
            left = COLUMNS["fouls"][0] + k * COLUMNS["fouls"][1]
            sheet.box(left, y, COLUMNS["fouls"][1], ROW)
            sheet.text(
                left, y, COLUMNS["fouls"][1], ROW, row.fouls[k] if row else "", color=INK, align="center"
            )
        if row and row.left:
            sheet.text(14.0, y, 4.0, ROW, "*", color=INK, size=10.0, align="center")


def _result(sheet: _Sheet, form: FiimForm) -> None:
    bold: dict[str, Any] = {"bold": True, "size": 11.0}
    ink: dict[str, Any] = {"color": INK, "align": "center", "size": 11.0}
    sheet.cell(18.0, 157.8, 127, 7.4, "ПОБЕДИВШАЯ КОМАНДА", **bold)
    sheet.text(80.0, 157.8, 65, 7.4, form.winner, **ink)
    sheet.cell(18.0, 165.2, 34.4, 10.1, "ЛУЧШИЙ ХОД", "LTB", **bold)
    sheet.cell(52.4, 165.2, 55.1, 10.1, "", "TB")
    if form.best_move:
        for k, seat in enumerate(form.best_move):
            sheet.text(54.0 + 11.5 * k, 165.2, 8.0, 10.1, seat, **ink)
    else:
        sheet.text(52.4, 165.2, 55.1, 10.1, "____ , ____ , ____", color=BLANK, size=11.0)
    sheet.cell(107.5, 165.2, 19.9, 10.1, "Игрок №", "TB", **bold)
    sheet.cell(127.4, 165.2, 17.6, 10.1, "", "RTB")
    sheet.text(
        128.5,
        165.2,
        10.5,
        10.1,
        form.first_killed or "_____",
        **(ink if form.first_killed else {"color": BLANK, "size": 11.0}),
    )
    sheet.cell(18.0, 175.3, 127, 7.1, "ПРОТЕСТ", **bold)
    sheet.text(42.0, 175.3, 103.0, 7.1, form.protest, **ink)
    sheet.cell(18.0, 182.4, 16.4, 10.1, "СУДЬЯ", "LTB", **bold)
    sheet.cell(34.4, 182.4, 110.6, 10.1, "", "RTB")
    if form.header.judge:
        sheet.text(35.0, 182.4, 66, 10.1, form.header.judge, **ink)
        sheet.text(101.0, 182.4, 44.0, 10.1, "/ _________________", color=BLANK, size=11.0)
    else:
        sheet.text(34.4, 182.4, 110.6, 10.1, "_______________________ / _________________", color=BLANK)


VOTES_LEFT = 157.2
VOTES_TOP = 17.5
VOTE_BLOCK = 25.0  # millimetres from one block's top to the next's
VOTE_CELL = (10.2, 5.0)
LABEL_WIDTH = 10.4


def _votes(sheet: _Sheet, form: FiimForm) -> None:
    width, height = VOTE_CELL
    for n in range(VOTE_BLOCKS):
        top = VOTES_TOP + n * VOTE_BLOCK
        block = form.votes[n] if n < len(form.votes) else None
        sheet.cell(
            VOTES_LEFT,
            top,
            LABEL_WIDTH + NOMINEE_COLUMNS * width,
            height,
            f"Голосование {n + 1}",
            align="center",
            size=9.0,
        )
        if block is not None:  # the day (and a round the rows do not hold), at the title's right end
            words = block.title.split(" — ", 1)[1]
            sheet.text(VOTES_LEFT + 82, top, 40.6, height, words, color=INK, size=7.0, align="right")
        for k, label in enumerate(("Игрок", "Голоса")):
            sheet.cell(
                VOTES_LEFT, top + height * (k + 1), LABEL_WIDTH, height, label, size=7.0, align="center"
            )
        sheet.box(VOTES_LEFT, top + 3 * height, LABEL_WIDTH, 2 * height)
        sheet.text(VOTES_LEFT, top + 3 * height, LABEL_WIDTH, height, "Пере-", size=7.0, align="center")
        sheet.text(VOTES_LEFT, top + 4 * height, LABEL_WIDTH, height, "голос.", size=7.0, align="center")
        for column in range(NOMINEE_COLUMNS):
            x = VOTES_LEFT + LABEL_WIDTH + column * width
            for k in range(4):
                sheet.box(x, top + height * (k + 1), width, height)
            if block is None or column >= len(block.nominees):
                continue
            for k, value in enumerate((block.nominees, block.votes, block.revotes)):
                sheet.text(
                    x,
                    top + height * (k + 1),
                    width,
                    height,
                    value[column],
                    color=INK,
                    size=9.0,
                    align="center",
                )
    if form.more_votes:
        sheet.text(
            VOTES_LEFT, VOTES_TOP + VOTE_BLOCKS * VOTE_BLOCK, 122.6, 6.0, form.more_votes, color=INK, size=8.0
        )


def _ruled(sheet: _Sheet, title: str, top: float, first: float, count: int, texts: Sequence[str]) -> None:
    """A titled part of the back: ``count`` ruled lines from ``first``, the texts written on them."""
    sheet.text(9.9, top - 4.0, 278.8, 16, title, size=11.0, align="center")
    for k in range(count):
        sheet.line(9.9, first + 8 * k, 288.7, first + 8 * k)
    lines = [piece for text in texts for piece in wrap(text, 10.0, room=(276.8 - 2 * PAD) * MM)]
    if len(lines) > count:
        lines = [*lines[: count - 1], f"… и ещё строк: {len(lines) - count + 1} (все — в протоколе вечера)"]
    for k, text in enumerate(lines):
        sheet.text(10.9, first - 6.7 + 8 * k, 276.8, 6.0, text, color=INK, size=10.0)


def _pages(form: FiimForm) -> tuple[Figure, Figure]:
    front = _Sheet()
    _header(front, form)
    _players(front, form)
    _result(front, form)
    _votes(front, form)
    back = _Sheet()
    _ruled(
        back, "ПОЯСНЕНИЯ К ДОПОЛНИТЕЛЬНЫМ БАЛЛАМ И ШТРАФАМ", 7.5, 25.2, EXPLANATION_LINES, form.explanations
    )
    _ruled(back, "КОММЕНТАРИИ К ПРОТЕСТУ", 129.0, 148.7, PROTEST_LINES, form.protests)
    return front.fig, back.fig


def figures(forms: Sequence[FiimForm]) -> list[Figure]:
    """Each form's two pages, drawn (a PNG of one is a preview of the PDF's page)."""
    with _font():
        return [page for form in forms for page in _pages(form)]


def render_fiim(forms: Sequence[FiimForm], title: str) -> bytes:
    """The forms' PDF, in memory: two pages a game (the form and its back)."""
    out = io.BytesIO()
    with _font(), PdfPages(out, metadata={"Title": title, "Creator": "host-device"}) as pdf:
        for form in forms:
            for page in _pages(form):
                pdf.savefig(page)
    return out.getvalue()
