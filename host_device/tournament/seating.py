"""A tournament's seating: who sits at which table on which seat in each round.

Pure: players are ids (strings), a round is its tables, a table is its ten
ids by seat (index 0 is seat 1). Built in four steps (docs/tournament.md):

1. who plays: each round the ``tables * 10`` players with the fewest games
   so far play, the rest sit out (byes spread evenly: counts differ by one at
   most; a player who joins late plays first); at one table a pair kept apart
   never plays together: the one with more games sits out;
2. which table: each round's players are dealt to its tables, then the
   search (``search.py``) exchanges any two players of two tables of a round
   to even out who meets whom, never letting a pair kept apart meet — seats
   play no part yet;
3. which seat: the players × tables graph is edge-coloured with ten colours,
   the seats (``colouring.py``, König): with ten games every player sits
   every seat exactly once, with fewer never one seat twice, with more his
   seats differ by one at most; then exchanges that keep this even out how
   often one player sits directly after another (the voting order);
4. which table number: each round's tables are renumbered to even out the
   tables each player sits at.

Rounds already played are kept as they were and count for everything after."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from host_device.base.errors import HostDeviceError
from host_device.tournament.colouring import colour
from host_device.tournament.search import Pairs, anneal, number_tables

SEATS = 10
Table = tuple[str, ...]  # ten ids, seat 1 first
Round = tuple[Table, ...]


class SeatingError(HostDeviceError, ValueError):
    pass


@dataclass(frozen=True)
class Seating:
    players: tuple[str, ...]  # everyone, in the order given (those gone from later rounds too)
    rounds: tuple[Round, ...]
    apart: frozenset[frozenset[str]] = frozenset()

    def byes(self, round_index: int) -> tuple[str, ...]:
        """Who sits out this round (0-based), in the players' order."""
        seated = {pid for table in self.rounds[round_index] for pid in table}
        return tuple(pid for pid in self.players if pid not in seated)

    def place(self, round_index: int, pid: str) -> tuple[int, int] | None:
        """(table, seat), both from 1, of a player in a round; None: a bye."""
        for t, table in enumerate(self.rounds[round_index]):
            if pid in table:
                return t + 1, table.index(pid) + 1
        return None


def seat(
    players: Sequence[str],
    rounds: int,
    *,
    apart: Iterable[tuple[str, str]] = (),
    played: Sequence[Round] = (),
    seed: int = 0,
    effort: float = 1.0,
) -> Seating:
    """A balanced seating of ``players`` over ``rounds`` rounds. ``played``:
    the rounds already played, kept whole (their players may include some
    not in ``players`` any more). The same arguments give the same seating."""
    players = tuple(players)
    if len(set(players)) != len(players):
        raise SeatingError("игрок назван дважды; каждый игрок в турнире один раз")
    tables = len(players) // SEATS
    if tables < 1:
        raise SeatingError(f"игроков {len(players)}: для стола нужно не меньше {SEATS}")
    if not 1 <= rounds <= 100:
        raise SeatingError(f"туров {rounds}: нужно от 1 до 100")
    if len(played) > rounds:
        raise SeatingError(f"сыграно туров {len(played)}, а всего {rounds}: туров не может стать меньше")
    everyone = list(players) + sorted({p for r in played for t in r for p in t} - set(players))
    index = {pid: k for k, pid in enumerate(everyone)}
    kept = _pairs(apart, index)
    rng = random.Random(seed)
    fixed = [[[index[p] for p in table] for table in r] for r in played]
    active = [index[p] for p in players]
    games = [0] * len(everyone)
    for r in fixed:
        for table in r:
            for p in table:
                games[p] += 1
    free: list[list[list[int]]] = []
    for _ in range(rounds - len(fixed)):
        try:
            playing = _who_plays(active, games, tables * SEATS, rng, kept if tables == 1 else set())
        except _Blocked as blocked:
            a, b = (everyone[k] for k in blocked.pair)
            raise SeatingError(
                f"пару {a} и {b} не развести: стол один, и посадить вместо одного из них некого; "
                "уберите часть ограничений или добавьте игрока (--join)"
            ) from None
        rng.shuffle(playing)
        free.append([playing[t * SEATS : (t + 1) * SEATS] for t in range(tables)])
        for p in playing:
            games[p] += 1
    per_player = sum(games) / len(active) if active else 0.0
    pairs = Pairs(len(everyone), per_player * (SEATS - 1) / max(len(everyone) - 1, 1), kept)
    all_rounds = fixed + free
    anneal(all_rounds, len(fixed), pairs, rng, effort)
    met = [(everyone[a], everyone[b]) for a, b in kept if pairs.count(a, b)]
    if met:
        a, b = met[0]
        raise SeatingError(
            f"пару {a} и {b} не удалось развести по разным столам; "
            "уберите часть ограничений или добавьте стол"
        )
    colour(all_rounds, len(fixed), len(everyone), rng, effort)
    number_tables(all_rounds, len(fixed), len(everyone), rng, effort)
    return Seating(
        players=tuple(everyone),
        rounds=tuple(tuple(tuple(everyone[p] for p in table) for table in r) for r in all_rounds),
        apart=frozenset(frozenset((everyone[a], everyone[b])) for a, b in kept),
    )


def _pairs(apart: Iterable[tuple[str, str]], index: dict[str, int]) -> set[tuple[int, int]]:
    out = set()
    for a, b in apart:
        for pid in (a, b):
            if pid not in index:
                raise SeatingError(f"«{pid}» не играет в турнире; ограничение только для его игроков")
        if a == b:
            raise SeatingError(f"«{a}»: пара из одного игрока; назовите двух разных")
        out.add((min(index[a], index[b]), max(index[a], index[b])))
    return out


def _who_plays(
    active: list[int], games: list[int], slots: int, rng: random.Random, kept: set[tuple[int, int]]
) -> list[int]:
    """The ``slots`` players with the fewest games so far (ties drawn). ``kept``: pairs that may
    not both play (one table: no other table to part them at), the one with more games sits out."""
    order = sorted(active, key=lambda p: (games[p], rng.random()))
    chosen: list[int] = []
    for p in order:
        if len(chosen) == slots:
            break
        if not any((min(p, q), max(p, q)) in kept for q in chosen):
            chosen.append(p)
    if len(chosen) < slots:  # too many kept apart to fill the table: named by the caller
        raise _Blocked(next(pair for pair in sorted(kept) if set(pair) <= set(order[:slots])))
    return chosen


class _Blocked(Exception):
    """One table, and a pair kept apart that cannot both sit out: nobody else to seat instead."""

    def __init__(self, pair: tuple[int, int]) -> None:
        self.pair = pair
