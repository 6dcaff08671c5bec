"""A tournament on paper (A4 PDF, drawn as the evening's protocol is:
host_device/club/protocol_pdf.py): the standings, a round's seating table by
table (to hang at each table), and every player's table and seat in every
round (to hang at the door)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from host_device.club.protocol import Page, Table
from host_device.club.protocol_evening import Evening
from host_device.club.protocol_pdf import render_pdf
from voices import words

PLAYERS_A_PAGE = 40


def _cell(value: Any) -> str:
    return words.number(value, 2, True) if isinstance(value, float) else str(value)


def standings_page(
    name: str,
    head: Sequence[str],
    rows: Sequence[Sequence[Any]],
    label: str,
    annulled: Sequence[tuple[int, int, int]] = (),
) -> Page:
    """The standings; under them each annulled game, (game, round, table), «аннулирована»."""
    table = Table("Таблица", tuple(head), tuple(tuple(_cell(c) for c in r) for r in rows))
    notes: tuple[str, ...] = () if rows else ("Сыгранных игр пока нет.",)
    notes += tuple(f"Игра {g} (стол {t}, тур {r}) аннулирована: не считается." for g, r, t in annulled)
    return Page(f"{name}: таблица", (label,), (table,) if rows else (), notes)


def round_page(
    name: str,
    round_no: int,
    tables: Sequence[Sequence[str]],
    byes: Sequence[str],
    annulled: Sequence[tuple[int, int, int]] = (),
) -> Page:
    """A round's seating table by table; a table whose game of the round was annulled says so."""

    def title(t: int) -> str:
        void = [f"игра {g} аннулирована" for g, r, tt in annulled if (r, tt) == (round_no, t)]
        return f"Стол {t}" + (f" ({', '.join(void)})" if void else "")

    drawn = tuple(
        Table(title(t), ("место", "игрок"), tuple((str(s), p) for s, p in enumerate(players, 1)))
        for t, players in enumerate(tables, 1)
    )
    notes = (f"Не играют в этом туре: {', '.join(byes)}",) if byes else ()
    return Page(f"{name}: тур {round_no}", (f"столов {len(tables)}",), drawn, notes)


def player_pages(name: str, rounds: Sequence[Sequence[Sequence[str]]], order: Sequence[str]) -> list[Page]:
    """Each player's «стол/место» in every round («—»: sits out), alphabetically."""
    where: dict[str, list[str]] = {p: ["—"] * len(rounds) for p in order}
    for r, tables in enumerate(rounds):
        for t, players in enumerate(tables, 1):
            for s, p in enumerate(players, 1):
                where.setdefault(p, ["—"] * len(rounds))[r] = f"{t}/{s}"
    names = sorted(where, key=str.casefold)
    head = ("игрок", *(f"тур {r}" for r in range(1, len(rounds) + 1)))
    pages = []
    for start in range(0, len(names), PLAYERS_A_PAGE):
        part = names[start : start + PLAYERS_A_PAGE]
        rows = tuple((p, *where[p]) for p in part)
        pages.append(
            Page(f"{name}: где сидит каждый", ("стол/место по турам",), (Table("Игроки", head, rows),))
        )
    return pages


def tournament_pdf(
    name: str,
    rounds: Sequence[Sequence[Sequence[str]]],
    byes: Mapping[int, Sequence[str]],
    players: Sequence[str],
    standings: Page,
    only_round: int | None = None,
    annulled: Sequence[tuple[int, int, int]] = (),
) -> bytes:
    """The standings page, then each round's seating (or ``only_round``'s), then the players' pages;
    ``annulled``: (game, round, table) of the games annulled, marked at their table."""
    numbers = [only_round] if only_round else list(range(1, len(rounds) + 1))
    pages = [round_page(name, r, rounds[r - 1], byes.get(r, ()), annulled) for r in numbers]
    pages += player_pages(name, rounds, players)
    return render_pdf(Evening(datetime.date.today(), standings, tuple(pages)))
