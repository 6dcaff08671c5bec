"""The venue screen of a tournament (``/tournament/NAME``): a round's
seating for all its tables, large (who sits where), and the standings under
it, labelled the club's own rating. Drawn from the box's store, or from the
club's database (the seating ``tournament publish`` put there, the games
the boxes sent); every value escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.store.tournaments import tournament_name
from host_device.web.club_html import document, e, number, table


class BadRound(HostDeviceError, ValueError):
    pass


REFRESH = 20  # seconds between the venue screen's readings


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
    then: str = "",
    annulled: Sequence[tuple[int, int, int]] = (),
) -> str:
    """``standings_first``: the standings' heading when they come first (between rounds: a
    screen shows what is on top); ``then``: the query the screen reads itself again with;
    ``annulled``: (game, round, table) of the games annulled, marked «аннулирована» at their
    table of the round shown and listed under the standings (kept, not counted)."""
    seating = [f'<h2 class="round">Тур {round_no} из {rounds}</h2><div class="tables">']
    for t, players in enumerate(tables, 1):
        seats = "".join(f"<li><b>{s}</b> {e(p)}</li>" for s, p in enumerate(players, 1))
        void = "".join(
            f' <span class="annulled">игра {g} аннулирована</span>'
            for g, r, tt in annulled
            if (r, tt) == (round_no, t)
        )
        seating.append(
            f'<section class="table"><h3>Стол {t}{void}</h3><ol class="seating">{seats}</ol></section>'
        )
    seating.append("</div>")
    if byes:
        seating.append(f'<p class="byes">Не играют в этом туре: {e(", ".join(byes))}</p>')
    ranked = [f'<h2 class="standings">{e(standings_first or "Таблица")}</h2><p class="label">{e(label)}</p>']
    if rows:
        lines = (
            "<tr>" + "".join(f"<td>{e(number(c) if isinstance(c, float) else c)}</td>" for c in r) + "</tr>"
            for r in rows
        )
        ranked.append(table(head, lines, "standings"))
    else:
        ranked.append("<p>Сыгранных игр пока нет.</p>")
    ranked += [
        f'<p class="annulled">Игра {g} (стол {t}, тур {r}) аннулирована: не считается</p>'
        for g, r, t in annulled
    ]
    parts = [*ranked, *seating] if standings_first else [*seating, *ranked]
    page = document(f"{name}: тур {round_no}", f"<h1>{e(name)}</h1>" + "".join(parts))
    # a screen nobody touches: it reads itself again, so a finished game shows, and the next round
    target = f";url={then}" if then else ""
    return page.replace("<head>", f'<head><meta http-equiv="refresh" content="{REFRESH}{target}">', 1)


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
    first, then = between_rounds(held, records, round_text, show)
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
        then,
        held.annulled,
    )


def round_over(held: Held, finished: Mapping[int, Any], round_no: int) -> bool:
    """Every table of ``round_no`` has a finished game (a round past the seating: over)."""
    if round_no > len(held.seating):
        return True
    done = {t for g, r, t in held.games if r == round_no and g in finished}
    return done >= set(range(1, len(held.seating[round_no - 1]) + 1))


def between_rounds(
    held: Held, finished: Mapping[int, Any], round_text: str, show: str
) -> tuple[str | None, str]:
    """Whether the standings come first, under which heading, and the query the screen reads
    itself with next. Between rounds (every table of the last round played has finished, the
    next round not begun) the screen switches by itself: the standings first, then the next
    round's seating, and again; after the last round the final standings stay first. During a
    round, or with a round asked for, the seating comes first."""
    latest = held.latest()
    if round_text or latest == 0 or latest > len(held.seating):  # (a game past the seating: none to show)
        return None, ""
    if not round_over(held, finished, latest):
        return None, ""  # a table of the round still plays
    if latest == len(held.seating):
        return "Итоговая таблица", ""
    if show == "seating":
        return None, "?show=standings"
    return f"Таблица после тура {latest}", "?show=seating"
