"""The evening's protocol as a PDF: A4, the summary and then a page a game,
each drawn with matplotlib (PdfPages; the DejaVu Sans font matplotlib ships
carries Cyrillic). Fonts are embedded as TrueType (``pdf.fonttype`` 42), so
the text can be searched and copied from the file."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import AbstractContextManager

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from engine.roles import Team
from host_device.base.text import shorten
from host_device.club.protocol import Page, Table
from host_device.club.protocol_evening import Evening

A4 = (8.27, 11.69)  # inches
MARGIN = 0.5  # inches on every side
LINE = 0.25  # inches a table row takes at most (less when a page is full)
TINTS = {Team.RED: "#fde8e8", Team.BLACK: "#d0d0d0"}
HEADER_TINT = "#eeeeee"
TITLE = 1.8  # rows a table's title takes (a gap above it, the title, a gap below)
MAX_NAME = 28  # characters of a name on paper (a longer one is cut)
MAX_CELL = 60  # characters of any other cell
CHAR_WIDTH = 0.6  # a DejaVu Sans character's mean width, in ems


def _font() -> AbstractContextManager[None]:
    """DejaVu Sans (Cyrillic), embedded as TrueType: the text stays text; no
    «$…$» of a typed name read as a formula."""
    return matplotlib.rc_context({"font.family": "DejaVu Sans", "pdf.fonttype": 42, "text.parse_math": False})


def _sizes(table: Table) -> list[float]:
    """Each column's width in characters (its longest cell, as cut on paper, and a margin)."""
    name_column = table.header.index("Игрок") if "Игрок" in table.header else None
    longest = [
        max(len(str(cell)) for cell in column) for column in zip(table.header, *table.rows, strict=True)
    ]
    limits = [MAX_NAME if i == name_column else MAX_CELL for i in range(len(longest))]
    return [min(max(n, 2), limit) + 2.5 for n, limit in zip(longest, limits, strict=True)]


def _font_size(table: Table, size: float) -> float:
    """``size``, or less where the table's characters would not fit across the page."""
    inches = A4[0] - 2 * MARGIN
    return min(size, inches * 72 / (CHAR_WIDTH * sum(_sizes(table))))


def _lines_needed(page: Page) -> float:
    """The page's height in rows: the title takes two, a table's title TITLE."""
    rows = sum(len(t.rows) + 1 + TITLE for t in page.tables)
    return 2 + len(page.lines) + rows + len(page.notes) + 1


def _draw_table(fig: Figure, table: Table, top: float, line: float, size: float) -> float:
    """Draw ``table`` with its title from ``top`` (inches from the page's
    bottom); return where the next block starts."""
    width, height = A4
    fig.text(MARGIN / width, (top - 1.1 * line) / height, table.title, fontsize=size + 1, weight="bold")
    top -= TITLE * line
    rows = len(table.rows) + 1
    box = top - rows * line
    ax = fig.add_axes((MARGIN / width, box / height, (width - 2 * MARGIN) / width, rows * line / height))
    ax.set_axis_off()
    sizes = _sizes(table)
    name_column = table.header.index("Игрок") if "Игрок" in table.header else None
    cells = [
        [shorten(c, MAX_NAME if i == name_column else MAX_CELL) for i, c in enumerate(row)]
        for row in table.rows
    ]
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
            cell.PAD = 0.03
    return box


def _draw_page(page: Page) -> Figure:
    width, height = A4
    fig = Figure(figsize=A4)
    line = min(LINE, (height - 2 * MARGIN) / _lines_needed(page))
    size = min(9.0, line * 72 * 0.5)
    top = height - MARGIN
    fig.text(MARGIN / width, (top - line) / height, page.title, fontsize=size + 5, weight="bold")
    top -= 2 * line
    for text in page.lines:
        fig.text(MARGIN / width, (top - 0.7 * line) / height, text, fontsize=size + 1)
        top -= line
    for table in page.tables:
        top = _draw_table(fig, table, top, line, size)
    top -= 0.5 * line
    for note in page.notes:
        fig.text(MARGIN / width, (top - 0.7 * line) / height, note, fontsize=size - 1, color="#444444")
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
