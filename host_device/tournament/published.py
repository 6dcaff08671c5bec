"""A tournament's seating as published in the club's database, read back by the organiser's
machine: its rows when it is one, its rounds begun (``tournament seat --club-db`` keeps them as
the boxes played them), and what ``tournament publish`` checks before it replaces it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.tournament.seating import SEATS
from host_device.tournament.seating_file import seating_rows, shell_command


def readable(value: Any) -> list[tuple[int, int, int, str, str]] | None:
    """A published seating's rows (тур, стол, место, игрок, id), or None when it is not a seating
    (a hand edit: publishing replaces it, a re-seating takes the rounds from this store)."""
    try:
        return seating_rows(value, "рассадка в базе клуба")[1]
    except HostDeviceError:
        return None


def rounds_of(rows: list[tuple[int, int, int, str, str]], played: int, name: str) -> list[Any]:
    """Rounds 1…``played`` of a published seating as the store keeps them (tables of ten ids by
    seat); one line when one is missing or a table is not ten players on seats 1-10."""
    tables: dict[int, dict[int, dict[int, str]]] = {}
    for r, t, seat_no, _player, pid in rows:
        tables.setdefault(r, {}).setdefault(t, {})[seat_no] = pid
    rounds = []
    for r in range(1, played + 1):
        seated = tables.get(r, {})
        whole = [seats for _t, seats in sorted(seated.items())]
        numbered = sorted(seated) == list(range(1, len(seated) + 1))
        if not whole or not numbered or any(sorted(x) != list(range(1, SEATS + 1)) for x in whole):
            raise HostDeviceError(
                f"рассадка турнира «{name}» в базе клуба: тур {r} начат, но в ней он не полон; "
                "опубликуйте рассадку заново с машины, где турнир создан: host-device tournament publish"
            )
        rounds.append(tuple(tuple(seats[k] for k in sorted(seats)) for seats in whole))
    return rounds


def keeps_the_rounds_begun(name: str, seating: dict[str, Any]) -> Callable[[Any, int], None]:
    """What ``publish`` checks, in its transaction, of the seating there now: a seating published
    again may change only the rounds no table has begun (a game sent of it, or a table taken);
    the rounds begun changed (a seating made without the club's database, or another tournament of
    the same name) are refused in one line, the database untouched. A spoiled one is replaced."""

    def check(old: Any, begun: int) -> None:
        rows = readable(old)
        if rows is None:
            return

        def of(data: list[tuple[int, int, int, str, str]], r: int) -> list[tuple[int, int, str]]:
            return sorted((t, s, pid) for rr, t, s, _p, pid in data if rr == r)

        new = readable(seating) or []
        changed = [r for r in range(1, begun + 1) if of(rows, r) != of(new, r)]
        if not changed:
            return
        rounds = (
            f"тур {changed[0]} турнира «{name}» уже сыгран или начат, а в этой рассадке он другой"
            if len(changed) == 1
            else f"туры {', '.join(map(str, changed))} турнира «{name}» уже сыграны или начаты, "
            "а в этой рассадке они другие"
        )
        raise HostDeviceError(
            f"{rounds}: не опубликовано; пересадите с базой клуба — "
            f"{shell_command('host-device tournament seat', name, '--club-db АДРЕС')} "
            "(если это другой турнир — дайте ему своё название)"
        )

    return check
