"""How good a seating is, measured as mafiaratings measures it
(github.com/szotin/mafiaratings, include/seating.php, class SeatingDef:
calculatePlayersScore, calculateNumbersScore, calculateTablesScore; read
2026-12 at 0ab7207). Lower is better; each score is 0 when every term's
square is under 1 ("perfect", as theirs):

- players: each pair's meetings from ``games * 9 / (players - 1)``, squared;
  a pair kept apart is expected 0 and its difference counts ten times
  (``$diff *= 10; // seating restriction should have a much stronger influence``);
- numbers: each player's count on each seat from ``games / 10``, squared,
  times 4 for seat 1, 3 for seat 2, 2 for seat 10, all times 4; plus the
  seat pairs 1-2, 3-4, … from ``games / 5`` squared, times 2; plus the halves
  1-5 and 6-10 from ``games / 2``, squared;
- tables: each player's count at each table from ``games / tables``,
  squared (0 for fewer than three tables, as theirs).

``objective`` is the sum of the three. Beside them: whether each player's
seat counts differ by one at most (``seat_even``; with ten games, exactly
once each: ``seat_exact``), the spread of the game counts (byes), and the
voting order: the most times one player sat directly after the same other
player (``follow_max``: seat ``s + 1`` after seat ``s`` at a table, seat 1
after seat 10 — the speeches go round the table). Where theirs assumes every player
plays every round, here ``games`` is each player's own count of games (byes)
and the pair expectation uses the mean; a player with restrictions keeps the
default expectation for his other pairs (theirs raises it slightly)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

SEATS = 10
SEAT_WEIGHT = {0: 4, 1: 3, 9: 2}  # seats 1, 2 and 10 (0-based)


@dataclass(frozen=True)
class Measure:
    seat_exact: bool  # every player on every seat exactly once (ten games each)
    seat_even: bool  # each player's counts of the ten seats differ by one at most
    games_spread: int  # the most games a player had less the fewest
    follow_max: int  # the most times one player sat directly after the same other player
    pair_min: int
    pair_max: int
    players_score: float
    numbers_score: float
    tables_score: float

    @property
    def objective(self) -> float:
        return round(self.players_score + self.numbers_score + self.tables_score, 3)


def measure(
    players: Sequence[str],
    rounds: Sequence[Sequence[Sequence[str]]],
    apart: frozenset[frozenset[str]] = frozenset(),
) -> Measure:
    met: dict[frozenset[str], int] = {}
    follows: dict[tuple[str, str], int] = {}
    numbers = {p: [0] * SEATS for p in players}
    tables = len(rounds[0]) if rounds else 0
    at = {p: [0] * tables for p in players}
    for r in rounds:
        for t, table in enumerate(r):
            for s, p in enumerate(table):
                numbers[p][s] += 1
                at[p][t] += 1
                after = (p, table[(s + 1) % len(table)])  # the next seat's player speaks after him
                follows[after] = follows.get(after, 0) + 1
            for a, b in combinations(table, 2):
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    games = {p: sum(numbers[p]) for p in players}
    mean = sum(games.values()) / len(players)
    expected = mean * 9 / (len(players) - 1)
    counts = []
    players_score, perfect = 0.0, True
    for a, b in combinations(players, 2):
        key = frozenset((a, b))
        m = met.get(key, 0)
        if key in apart:
            diff = m * 10.0
        else:
            counts.append(m)
            diff = m - expected
        perfect = perfect and diff * diff < 1
        players_score += diff * diff
    return Measure(
        seat_exact=all(n == [1] * SEATS for n in numbers.values()),
        seat_even=all(max(n) - min(n) <= 1 for n in numbers.values()),
        games_spread=max(games.values()) - min(games.values()),
        follow_max=max(follows.values(), default=0),
        pair_min=min(counts, default=0),
        pair_max=max(counts, default=0),
        players_score=0.0 if perfect else round(players_score, 3),
        numbers_score=_numbers(numbers, games),
        tables_score=_tables(at, games, tables),
    )


def _numbers(numbers: dict[str, list[int]], games: dict[str, int]) -> float:
    score, perfect = 0.0, True
    for p, row in numbers.items():
        parts = [(games[p] / 10 - row[s], SEAT_WEIGHT.get(s, 1) * 4) for s in range(SEATS)]  # single seats
        parts += [(games[p] / 5 - row[s] - row[s + 1], 2) for s in range(0, SEATS, 2)]  # pairs of seats
        parts += [(games[p] / 2 - sum(row[s : s + 5]), 1) for s in (0, 5)]  # halves
        for diff, weight in parts:
            perfect = perfect and diff * diff < 1
            score += diff * diff * weight
    return 0.0 if perfect else round(score, 3)


def _tables(at: dict[str, list[int]], games: dict[str, int], tables: int) -> float:
    if tables < 3:
        return 0.0
    score, perfect = 0.0, True
    for p, row in at.items():
        for count in row:
            diff = games[p] / tables - count
            score += diff * diff
            perfect = perfect and diff < 1  # theirs: `if ($diff >= 1)`, the signed difference
    return 0.0 if perfect else round(score, 3)


def least_meetings_squared(rounds: Sequence[Sequence[Sequence[Hashable]]]) -> int:
    """A floor under the sum over pairs of meetings squared, given who plays in
    each round and at how many tables. With ``v_x`` a player's 0/1 vector over
    the (round, table)s, a pair meets ``v_x · v_y`` times, and the sum over all
    ordered pairs of those squared (a player with himself too) equals the sum
    over all pairs of (round, table)s of their common players squared. A table
    with itself gives its size squared; two tables of one round share nobody;
    the players of two rounds ``r`` and ``s`` (playing in both) fill their
    ``k_r × k_s`` tables' crossings at best evenly. With two tables and no byes
    this is reached when every two rounds cross 5-5-5-5 (20 players: 236.8),
    with three when they cross 3-3-4 (30 players: 400.3)."""
    plays = [{p for table in r for p in table} for r in rounds]
    total = sum(len(table) ** 2 for r in rounds for table in r)
    for i, r in enumerate(rounds):
        for j in range(i + 1, len(rounds)):
            cells = len(r) * len(rounds[j])
            low, high = divmod(len(plays[i] & plays[j]), cells)
            total += 2 * (high * (low + 1) ** 2 + (cells - high) * low**2)
    games: dict[Hashable, int] = {}
    for r in rounds:
        for table in r:
            for p in table:
                games[p] = games.get(p, 0) + 1
    return (total - sum(g * g for g in games.values())) // 2


def pair_ideal(players: Sequence[str], rounds: Sequence[Sequence[Sequence[str]]]) -> float:
    """The least pair term (no pair kept apart) the rounds' byes and tables
    allow: the greater of two floors — :func:`least_meetings_squared`, and each
    player's ``9·games`` meetings spread over the others as evenly as whole
    numbers go (each pair's square counted half from either side)."""
    games = dict.fromkeys(players, 0)
    for r in rounds:
        for table in r:
            for p in table:
                games[p] += 1
    others = len(players) - 1
    expected = sum(games.values()) / len(players) * 9 / others
    spread = 0.0
    for g in games.values():
        low, high = divmod(9 * g, others)
        spread += high * (low + 1 - expected) ** 2 + (others - high) * (low - expected) ** 2
    met = sum(len(table) * (len(table) - 1) // 2 for r in rounds for table in r)
    pairs = len(players) * others // 2
    gram = least_meetings_squared(rounds) - 2 * expected * met + pairs * expected**2
    return round(max(spread / 2, gram), 3)
