"""The venue screen of a tournament (``/tournament/NAME``): a round's
seating for all its tables, large (who sits where), and the standings under
it, labelled the club's own rating. Drawn from the box's store (the club's
database does not hold tournaments yet); every value escaped."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.web.club_html import document, e, number, table


class BadRound(HostDeviceError, ValueError):
    pass


REFRESH = 20  # seconds between the venue screen's readings

NO_TOURNAMENT_DB = "Турниры пока хранятся только в хранилище коробки, не в базе клуба"


def venue_html(
    name: str,
    round_no: int,
    rounds: int,
    tables: Sequence[Sequence[str]],
    byes: Sequence[str],
    rows: Sequence[Sequence[Any]],
    head: Sequence[str],
    label: str,
) -> str:
    body = [f'<h1>{e(name)}</h1><h2 class="round">Тур {round_no} из {rounds}</h2><div class="tables">']
    for t, players in enumerate(tables, 1):
        seats = "".join(f"<li><b>{s}</b> {e(p)}</li>" for s, p in enumerate(players, 1))
        body.append(f'<section class="table"><h3>Стол {t}</h3><ol class="seating">{seats}</ol></section>')
    body.append("</div>")
    if byes:
        body.append(f'<p class="byes">Не играют в этом туре: {e(", ".join(byes))}</p>')
    body.append(f'<h2>Таблица</h2><p class="label">{e(label)}</p>')
    if rows:
        lines = (
            "<tr>" + "".join(f"<td>{e(number(c) if isinstance(c, float) else c)}</td>" for c in r) + "</tr>"
            for r in rows
        )
        body.append(table(head, lines, "standings"))
    else:
        body.append("<p>Сыгранных игр пока нет.</p>")
    page = document(f"{name}: тур {round_no}", "".join(body))
    # a screen nobody touches: it reads itself again, so a finished game shows, and the next round
    return page.replace("<head>", f'<head><meta http-equiv="refresh" content="{REFRESH}">', 1)


def venue(path: str, name: str, round_text: str, scoring_table: Any, finished_among: Any) -> tuple[int, str]:
    """(status, html) of the venue screen from the store at ``path``; ``round_text`` ""
    for the next round to play (the last when all are played); ``finished_among(games)``:
    the records of those of the tournament's games that are finished, by game (kept)."""
    from host_device.store.db import Store
    from host_device.tournament.standings import LABEL, standings
    from host_device.tournament.table_rows import COLUMNS, table_rows

    store = Store(Path(path), create=False)
    try:
        row = store.tournaments.get(name)
        seating = store.tournaments.seating(row.id)
        games = store.tournaments.games(row.id)
        names = {p.id: p.label for p in store.roster.players()}
    finally:
        store.close()
    played = max((r for _g, r, _t in games), default=0)
    round_no = int(round_text) if round_text.isdigit() else min(played + 1, len(seating))
    if not 1 <= round_no <= len(seating):
        raise BadRound(f"тур {round_text}: в турнире «{row.name}» туры 1–{len(seating)}")
    tables = seating[round_no - 1]
    seated = {p for t in tables for p in t}
    records = finished_among([g for g, _r, _t in games])
    ranked = standings([(r, records[g]) for g, r, _t in games if g in records], scoring_table)
    return 200, venue_html(
        row.name,
        round_no,
        row.rounds,
        [[names.get(p, p) for p in t] for t in tables],
        [names.get(p, p) for p in row.players if p not in seated],
        table_rows(ranked, names),
        [h for h, _a in COLUMNS],
        LABEL,
    )
