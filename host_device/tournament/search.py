"""The search behind a seating: who meets whom, evened out by exchanging
two players of the same seat and round between two tables (so every
player's seat counts stay as they were), by simulated annealing on the sum
of squares of each pair's meetings from the expected ``games * 9 / (players - 1)``
— the pair term of mafiaratings' objective (measure.py). A pair kept apart
is expected to meet never and weighs :data:`APART` times more; then the
tables of each round are renumbered so that each player's tables even out.

Rounds here are mutable lists (round -> table -> seat -> player index); the
first ``fixed`` of them are played and never changed."""

from __future__ import annotations

import math
import random

APART = 1000.0  # a pair kept apart against an ordinary pair
STEPS = 2000  # moves per table and round at effort 1.0
HOT, COLD = 10.0, 0.1  # the temperature at the start and at the end
RENUMBER = 0.2  # the share of moves that renumber two tables


class Pairs:
    """Every pair's meetings, with what each pair's term of the objective costs."""

    def __init__(self, players: int, expected: float, apart: set[tuple[int, int]]) -> None:
        self.n = players
        self.met = [0] * (players * players)
        self.expected = [expected] * (players * players)
        self.weight = [1.0] * (players * players)
        for a, b in apart:
            for key in (a * players + b, b * players + a):
                self.expected[key] = 0.0
                self.weight[key] = APART

    def count(self, a: int, b: int) -> int:
        return self.met[a * self.n + b]

    def add(self, table: list[int], step: int) -> None:
        n, met = self.n, self.met
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                met[a * n + b] += step
                met[b * n + a] += step

    def change(self, x: int, others: list[int], step: int) -> float:
        """What the objective gains when ``x`` meets each of ``others`` ``step`` (+1 or -1) more."""
        n, met, expected, weight = self.n, self.met, self.expected, self.weight
        total = 0.0
        row = x * n
        for z in others:
            key = row + z
            total += weight[key] * (2 * step * (met[key] - expected[key]) + 1)
        return total

    def move(self, x: int, others: list[int], step: int) -> None:
        n, met = self.n, self.met
        for z in others:
            met[x * n + z] += step
            met[z * n + x] += step


def anneal(
    rounds: list[list[list[int]]], fixed: int, pairs: Pairs, rng: random.Random, effort: float
) -> None:
    """Even out the meetings and the tables in place. Two moves: one seat's
    players exchanged between two tables of a round; two whole tables of a
    round renumbered (every meeting kept). The tables term is theirs: each
    player's count at each table from ``games / tables``, squared."""
    for r in rounds:
        for table in r:
            pairs.add(table, 1)
    free = [r for r in range(fixed, len(rounds)) if len(rounds[r]) >= 2]  # one table: nothing to move
    tables = max((len(r) for r in rounds), default=0)  # the players may have changed: rounds differ
    if not free:
        return
    at = [[0] * tables for _ in range(pairs.n)]
    for r in rounds:
        for t, table in enumerate(r):
            for p in table:
                at[p][t] += 1
    spread = 1.0 if tables >= 3 else 0.0  # theirs counts the tables from three on
    steps = int(STEPS * effort * max(tables, 6) * len(free))  # two tables need more than 2/10 of ten
    for k in range(steps):
        heat = HOT * (COLD / HOT) ** (k / steps)
        r = rounds[free[rng.randrange(len(free))]]
        a, b = rng.sample(range(len(r)), 2)
        ta, tb = r[a], r[b]
        if spread and rng.random() < RENUMBER:
            # a count c going down costs -2c+1, going up 2c+1: 2(c_onto - c_off + 1) a player
            delta = 2.0 * (
                sum(at[p][b] - at[p][a] + 1 for p in ta) + sum(at[p][a] - at[p][b] + 1 for p in tb)
            )
            if delta <= 0 or rng.random() < math.exp(-delta / heat):
                for p in ta:
                    at[p][a] -= 1
                    at[p][b] += 1
                for p in tb:
                    at[p][b] -= 1
                    at[p][a] += 1
                r[a], r[b] = tb, ta
            continue
        s = rng.randrange(len(ta))
        x, y = ta[s], tb[s]
        rest_a = [p for p in ta if p != x]
        rest_b = [p for p in tb if p != y]
        delta = (
            pairs.change(x, rest_a, -1)
            + pairs.change(x, rest_b, 1)
            + pairs.change(y, rest_b, -1)
            + pairs.change(y, rest_a, 1)
            + spread * 2 * (at[x][b] - at[x][a] + at[y][a] - at[y][b] + 2)
        )
        if delta <= 0 or rng.random() < math.exp(-delta / heat):
            pairs.move(x, rest_a, -1)
            pairs.move(x, rest_b, 1)
            pairs.move(y, rest_b, -1)
            pairs.move(y, rest_a, 1)
            at[x][a] -= 1
            at[x][b] += 1
            at[y][b] -= 1
            at[y][a] += 1
            ta[s], tb[s] = y, x


def number_tables(rounds: list[list[list[int]]], fixed: int, players: int) -> None:
    """Renumber each free round's tables (exchanging two whole tables keeps
    every seat and every meeting) while that brings each player's count at
    each table nearer ``games / tables``: the sum of squares goes down."""
    tables = max((len(r) for r in rounds), default=0)
    if tables < 2:
        return
    at = [[0] * tables for _ in range(players)]
    for r in rounds:
        for t, table in enumerate(r):
            for p in table:
                at[p][t] += 1

    def cost(group: list[int], t: int, step: int) -> int:
        # the change of sum(at^2) when ``group`` moves onto (+1) or off (-1) table t
        return sum(2 * step * at[p][t] + 1 for p in group)

    better = True
    while better:
        better = False
        for r in rounds[fixed:]:
            for a in range(len(r)):
                for b in range(a + 1, len(r)):
                    ga, gb = r[a], r[b]
                    delta = cost(ga, a, -1) + cost(gb, b, -1)
                    for p in ga:
                        at[p][a] -= 1
                    for p in gb:
                        at[p][b] -= 1
                    delta += cost(ga, b, 1) + cost(gb, a, 1)
                    if delta < 0:
                        r[a], r[b] = gb, ga
                        better = True
                    for p in r[a]:
                        at[p][a] += 1
                    for p in r[b]:
                        at[p][b] += 1
