"""The evening's protocol as one self-contained HTML page: no script, no
outside file; on paper (print CSS) A4, the summary and then each game's
form on a page of its own."""

from __future__ import annotations

from html import escape

from engine.roles import Team
from host_device.club.protocol import Page, Table
from host_device.club.protocol_evening import Evening

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 .4em; }
h2 { font-size: 1.05em; margin: 1em 0 .3em; }
p { margin: .15em 0; }
table { border-collapse: collapse; width: 100%; font-size: .9em; }
th, td { border: 1px solid #555; padding: .2em .35em; text-align: center; }
td.name, th.name { text-align: left; }
td.red, th.red { background: #fde8e8; }
td.black, th.black { background: #d0d0d0; }
th { background: #eee; }
.note { font-size: .8em; color: #444; margin-top: .6em; }
section { margin-bottom: 2em; }
@page { size: A4; margin: 12mm; }
@media print {  /* the largest form (16 seats, six days of revotes) still on one A4 */
  body { margin: 0; font-size: 8pt; }
  h1 { font-size: 13pt; margin-bottom: 2pt; }
  h2 { font-size: 9pt; margin: 5pt 0 2pt; }
  th, td { padding: 1pt 3pt; }
  section { break-after: page; page-break-after: always; margin: 0; }
  section:last-child { break-after: auto; page-break-after: auto; }
  tr { break-inside: avoid; }
}
"""

TINT_CLASS: dict[Team | None, str] = {Team.RED: "red", Team.BLACK: "black"}
NAME_COLUMNS = ("Игрок",)


def _cell(tag: str, text: str, named: bool, tint: Team | None) -> str:
    classes = [c for c in ("name" if named else "", TINT_CLASS.get(tint, "") if tint else "") if c]
    attr = f' class="{" ".join(classes)}"' if classes else ""
    return f"<{tag}{attr}>{escape(text)}</{tag}>"


def _table(table: Table) -> str:
    named = [column in NAME_COLUMNS for column in table.header]
    head = "".join(_cell("th", c, named[i], table.tint(None, i)) for i, c in enumerate(table.header))
    body = "".join(
        "<tr>" + "".join(_cell("td", c, named[i], table.tint(r, i)) for i, c in enumerate(row)) + "</tr>"
        for r, row in enumerate(table.rows)
    )
    return (
        f"<h2>{escape(table.title)}</h2>\n<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _page(page: Page, kind: str) -> str:
    parts = [f'<section class="{kind}">', f"<h1>{escape(page.title)}</h1>"]
    parts += [f"<p>{escape(line)}</p>" for line in page.lines]
    parts += [_table(t) for t in page.tables]
    parts += [f'<p class="note">{escape(note)}</p>' for note in page.notes]
    parts.append("</section>")
    return "\n".join(parts)


def render_html(evening: Evening) -> str:
    pages = [_page(evening.summary, "summary"), *(_page(p, "game") for p in evening.games)]
    title = escape(evening.summary.title)
    return (
        '<!DOCTYPE html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(pages)
        + "\n</body>\n</html>\n"
    )
