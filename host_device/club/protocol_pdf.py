"""The evening's protocol as a PDF: A4, the summary and then a page a game,
each drawn with matplotlib (PdfPages; the DejaVu Sans font matplotlib ships
carries Cyrillic). Fonts are embedded as TrueType (``pdf.fonttype`` 42), so
the text can be searched and copied from the file. Every text stays inside
the margins: a line or a note wider than the page is wrapped (a word wider
than a line is cut across lines), and a table's columns take the widths
their cells measure in that font, the font made smaller where they would not
fit across the page."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator
from contextlib import AbstractContextManager

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import text_to_path
from matplotlib.transforms import Bbox

from engine.roles import Team
from host_device.base.text import shorten
from host_device.club.protocol import Page, Table
from host_device.club.protocol_evening import Evening

A4 = (8.27, 11.69)  # inches
MARGIN = 0.5  # inches on every side
ROOM = (A4[0] - 2 * MARGIN) * 72  # points across the page between the margins
SAFE = 0.98  # of ROOM a wrapped line fills at most (kerning, a viewer's rounding)
LINE = 0.25  # inches a table row takes at most (less when a page is full)
TINTS = {Team.RED: "#fde8e8", Team.BLACK: "#d0d0d0"}
HEADER_TINT = "#eeeeee"
TITLE = 1.8  # rows a table's title takes (a gap above it, the title, a gap below)
MAX_NAME = 28  # characters of a name on paper (a longer one is cut)
MAX_CELL = 60  # characters of any other cell
SIZE = 9.0  # points of a table's text on a page with room (less when a page is full)
CELL_PAD = 1.5  # ems a cell keeps free beside its text (its text centred: half each side)
NAME_PAD = 0.03  # of a name cell's width, before its text (the name is set to the left)
MIN_CELL = 1.2  # ems: the narrowest column


def _font() -> AbstractContextManager[None]:
    """DejaVu Sans (Cyrillic), embedded as TrueType: the text stays text; no
    «$…$» of a typed name read as a formula."""
    return matplotlib.rc_context({"font.family": "DejaVu Sans", "pdf.fonttype": 42, "text.parse_math": False})


@functools.lru_cache(maxsize=4096)
def _ems(text: str, bold: bool = False) -> float:
    """``text``'s width in ems of DejaVu Sans, as the PDF sets it (unhinted advances)."""
    prop = FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal", size=1)
    width, _height, _descent = text_to_path.get_text_width_height_descent(text, prop, ismath=False)
    return float(width)


def wrap(text: str, size: float, bold: bool = False, room: float = ROOM) -> list[str]:
    """``text`` as the lines it takes at ``size`` points across ``room`` points: broken at
    spaces, and a word wider than a line cut across lines (from where the line has room)."""
    fits = room * SAFE / size  # ems
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        joined = f"{current} {word}" if current else word
        if _ems(joined, bold) <= fits:
            current = joined
            continue
        if _ems(word, bold) <= fits:  # on a line of its own it fits
            lines.append(current)
            current = word
            continue
        current = joined
        while len(current) > 1 and _ems(current, bold) > fits:
            cut = max((k for k in range(1, len(current)) if _ems(current[:k], bold) <= fits), default=1)
            lines.append(current[:cut].rstrip(" "))
            current = current[cut:].lstrip(" ")
    lines.append(current)
    return lines


def _cells(table: Table) -> list[list[str]]:
    """The table's rows as cut on paper: a name to MAX_NAME characters, any other cell to MAX_CELL."""
    name_column = table.header.index("Игрок") if "Игрок" in table.header else None
    return [
        [shorten(c, MAX_NAME if i == name_column else MAX_CELL) for i, c in enumerate(row)]
        for row in table.rows
    ]


def _sizes(table: Table) -> list[float]:
    """Each column's width in ems: its widest cell as set on paper (the header bold), and a margin."""
    widths = [_ems(str(h), bold=True) for h in table.header]
    for row in _cells(table):
        widths = [max(w, _ems(c)) for w, c in zip(widths, row, strict=True)]
    return [max(w, MIN_CELL) + CELL_PAD for w in widths]


def _font_size(table: Table, size: float) -> float:
    """``size``, or less where the table's cells would not fit across the page."""
    return min(size, ROOM / sum(_sizes(table)))


def _title_rows(page: Page) -> float:
    return 2 + 1.5 * (len(wrap(page.title, SIZE + 5, bold=True)) - 1)


def _lines_needed(page: Page) -> float:
    """The page's height in rows: the title two, a line or note a row a line it wraps into (each
    wrapped at the largest size it may be set in), a table its rows and its title TITLE."""
    texts = sum(len(wrap(t, SIZE + 1)) for t in page.lines) + sum(len(wrap(n, SIZE - 1)) for n in page.notes)
    tables = sum(len(t.rows) + 1 + TITLE + len(wrap(t.title, SIZE + 1, bold=True)) - 1 for t in page.tables)
    return _title_rows(page) + texts + tables + 1


def _draw_table(fig: Figure, table: Table, top: float, line: float, size: float) -> float:
    """Draw ``table`` with its title from ``top`` (inches from the page's
    bottom); return where the next block starts."""
    width, height = A4
    for k, title in enumerate(wrap(table.title, SIZE + 1, bold=True)):
        top -= line if k else 0
        fig.text(MARGIN / width, (top - 1.1 * line) / height, title, fontsize=size + 1, weight="bold")
    top -= TITLE * line
    rows = len(table.rows) + 1
    box = top - rows * line
    ax = fig.add_axes((MARGIN / width, box / height, (width - 2 * MARGIN) / width, rows * line / height))
    ax.set_axis_off()
    sizes = _sizes(table)
    name_column = table.header.index("Игрок") if "Игрок" in table.header else None
    cells = _cells(table)
    drawn = ax.table(
        cellText=cells or [[""] * len(table.header)],
        colLabels=list(table.header),
        colWidths=[w / sum(sizes) for w in sizes],
        cellLoc="center",
        bbox=Bbox.from_bounds(0, 0, 1, 1),
    )
    drawn.auto_set_font_size(False)
    drawn.set_fontsize(_font_size(table, size))
    for (row, column), cell in drawn.get_celld().items():
        cell.set_linewidth(0.5)
        tint = table.tint(row - 1 if row else None, column)
        cell.set_facecolor(TINTS[tint] if tint is not None else HEADER_TINT if row == 0 else "white")
        if row == 0:
            cell.get_text().set_fontweight("bold")
            continue
        if column == name_column:
            cell.get_text().set_horizontalalignment("left")
            cell.PAD = NAME_PAD
    return box


def _draw_page(page: Page) -> Figure:
    width, height = A4
    fig = Figure(figsize=A4)
    line = min(LINE, (height - 2 * MARGIN) / _lines_needed(page))
    size = min(SIZE, line * 72 * 0.5)
    top = height - MARGIN
    for k, title in enumerate(wrap(page.title, SIZE + 5, bold=True)):
        fig.text(
            MARGIN / width, (top - line - 1.5 * k * line) / height, title, fontsize=size + 5, weight="bold"
        )
    top -= _title_rows(page) * line
    for text in page.lines:
        for wrapped in wrap(text, SIZE + 1):
            fig.text(MARGIN / width, (top - 0.7 * line) / height, wrapped, fontsize=size + 1)
            top -= line
    for table in page.tables:
        top = _draw_table(fig, table, top, line, size)
    top -= 0.5 * line
    for note in page.notes:
        for wrapped in wrap(note, SIZE - 1):
            fig.text(MARGIN / width, (top - 0.7 * line) / height, wrapped, fontsize=size - 1, color="#444444")
            top -= line
    return fig


def figures(evening: Evening) -> Iterator[Figure]:
    """Each page drawn, the summary first (a PNG of one is a preview of the PDF's page)."""
    with _font():
        for page in (evening.summary, *evening.games):
            yield _draw_page(page)


def render_pdf(evening: Evening) -> bytes:
    """The whole PDF, in memory (written to disk whole by the caller)."""
    out = io.BytesIO()
    metadata = {"Title": evening.summary.title, "Creator": "host-device"}
    with _font(), PdfPages(out, metadata=metadata) as pdf:
        for figure in figures(evening):
            pdf.savefig(figure)
    return out.getvalue()
