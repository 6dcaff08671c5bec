"""The search behind a seating's tables: who meets whom, evened out by
simulated annealing on the sum of squares of each pair's meetings from the
expected ``games * 9 / (players - 1)`` — the pair term of mafiaratings'
objective (measure.py). Seats play no part here: any table assignment can be
given exact seats afterwards (colouring.py), so a move exchanges any two
players of two tables of a round. A pair kept apart is expected to meet never
and weighs :data:`APART` times more. Then (:func:`number_tables`), every
meeting kept, the tables of each round are renumbered so that each player's
count at each table number evens out (their tables term).

Rounds here are mutable lists (round -> table -> player indices, in no
particular order); the first ``fixed`` of them are played and never changed."""

from __future__ import annotations

import math
import random

from host_device.tournament.measure import least_meetings_squared

APART = 1000.0  # a pair kept apart against an ordinary pair
STEPS = 4000  # moves per seated player and round at effort 1.0
HOT, COLD = 1.2, 0.4  # the temperature at the start and at the end
HOT_PER_MEETING = 0.65  # more meetings a pair, wider swings: the start no cooler than this times them
REFERENCE = 1000  # seated player-rounds (100 players, ten rounds): smaller tournaments may anneal again
CYCLES = 3  # the most times they do
RENUMBER_STEPS = 500  # renumbering moves per free table at effort 1.0
RENUMBER_HOT, RENUMBER_COLD = 4.0, 0.2


class Pairs:
    """Every pair's meetings, with what one more (``up``) or one fewer (``down``)
    meeting of each pair changes the objective by: ``w·(±2(met − expected) + 1)``."""

    def __init__(self, players: int, expected: float, apart: set[tuple[int, int]]) -> None:
        self.n = players
        self.mean = expected
        self.kept = len(apart)
        self.met = [[0] * players for _ in range(players)]
        self.expected = [[expected] * players for _ in range(players)]
        self.weight = [[1.0] * players for _ in range(players)]
        for a, b in apart:
            for x, y in ((a, b), (b, a)):
                self.expected[x][y] = 0.0
                self.weight[x][y] = APART
        self.up = [[0.0] * players for _ in range(players)]
        self.down = [[0.0] * players for _ in range(players)]
        for x in range(players):
            for y in range(players):
                if x != y:
                    self._price(x, y)

    def _price(self, x: int, y: int) -> None:
        w, gap = self.weight[x][y], self.met[x][y] - self.expected[x][y]
        self.up[x][y] = w * (2 * gap + 1)
        self.down[x][y] = w * (1 - 2 * gap)

    def cost(self) -> float:
        met, expected, weight = self.met, self.expected, self.weight
        n = self.n
        return sum(
            weight[x][y] * (met[x][y] - expected[x][y]) ** 2 for x in range(n) for y in range(x + 1, n)
        )

    def floor(self, rounds: list[list[list[int]]]) -> float:
        """A floor under :meth:`cost` for these rounds' players and tables
        (measure.py's, less what a pair kept apart could save: its square
        from ``expected`` is at most ``expected²`` above its own term)."""
        met = sum(len(table) * (len(table) - 1) // 2 for r in rounds for table in r)
        pairs = self.n * (self.n - 1) // 2
        e = self.mean
        return least_meetings_squared(rounds) - 2 * e * met + (pairs - self.kept) * e * e

    def count(self, a: int, b: int) -> int:
        return self.met[a][b]

    def add(self, table: list[int], step: int) -> None:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                self.meet(a, b, step)

    def meet(self, a: int, b: int, step: int) -> None:
        self.met[a][b] += step
        self.met[b][a] += step
        self._price(a, b)
        self._price(b, a)


def anneal(
    rounds: list[list[list[int]]], fixed: int, pairs: Pairs, rng: random.Random, effort: float
) -> None:
    """Even out the meetings in place: simulated annealing on the pair term, a
    move exchanging two players of two tables of a round; for a small
    tournament up to :data:`CYCLES` times, each heating again from where the
    last ended, stopping once the pair term reaches the floor no seating of
    these rounds can go under (measure.py). The number of moves is fixed by
    the size (never a clock): the same seed, the same result."""
    for r in rounds:
        for table in r:
            pairs.add(table, 1)
    free = [rounds[r] for r in range(fixed, len(rounds)) if len(rounds[r]) >= 2]  # one table: nothing to move
    if not free:
        return
    seated = sum(len(table) for r in free for table in r)
    steps = int(STEPS * effort * seated)
    cycles = min(max(REFERENCE // seated, 1), CYCLES)
    cost, floor = pairs.cost(), pairs.floor(rounds)
    hot = max(HOT, HOT_PER_MEETING * pairs.mean)
    up, down = pairs.up, pairs.down
    random_ = rng.random
    exp = math.exp
    cool = math.log(COLD / hot) / max(steps, 1)
    for k in range(steps * cycles):
        if not k % 256 and cost <= floor + 1e-6:
            return  # no seating of these rounds does better
        r = free[int(random_() * len(free))]
        count = len(r)
        a = int(random_() * count)
        b = int(random_() * (count - 1))
        b += b >= a
        ta, tb = r[a], r[b]
        i = int(random_() * len(ta))
        j = int(random_() * len(tb))
        x, y = ta[i], tb[j]
        ux, dx, uy, dy = up[x], down[x], up[y], down[y]
        delta = (
            sum(map(ux.__getitem__, tb))
            - ux[y]
            + sum(map(dx.__getitem__, ta))
            + sum(map(uy.__getitem__, ta))
            - uy[x]
            + sum(map(dy.__getitem__, tb))
        )
        if delta > 0 and random_() >= exp(-delta / (hot * exp(cool * (k % steps)))):
            continue
        for z in ta:
            if z != x:
                pairs.meet(x, z, -1)
                pairs.meet(y, z, 1)
        for z in tb:
            if z != y:
                pairs.meet(y, z, -1)
                pairs.meet(x, z, 1)
        ta[i], tb[j] = y, x
        cost += delta


def number_tables(
    rounds: list[list[list[int]]], fixed: int, players: int, rng: random.Random, effort: float
) -> None:
    """Renumber each free round's tables (exchanging two whole tables keeps
    every seat and every meeting) so that each player's count at each table
    comes near ``games / tables``: simulated annealing on the sum of squares of
    the counts (a fixed number of moves), then exchanges while one lowers it."""
    tables = max((len(r) for r in rounds), default=0)
    free = [r for r in rounds[fixed:] if len(r) >= 2]
    if tables < 2 or not free:
        return
    at = [[0] * tables for _ in range(players)]
    for r in rounds:
        for t, table in enumerate(r):
            for p in table:
                at[p][t] += 1

    def change(r: list[list[int]], a: int, b: int) -> int:
        # a count c going down costs -2c+1, going up 2c+1: 2(c_onto - c_off + 1) a player
        return 2 * (sum(at[p][b] - at[p][a] + 1 for p in r[a]) + sum(at[p][a] - at[p][b] + 1 for p in r[b]))

    def exchange(r: list[list[int]], a: int, b: int) -> None:
        for p in r[a]:
            at[p][a] -= 1
            at[p][b] += 1
        for p in r[b]:
            at[p][b] -= 1
            at[p][a] += 1
        r[a], r[b] = r[b], r[a]

    steps = int(RENUMBER_STEPS * effort * sum(len(r) for r in free))
    cool = math.log(RENUMBER_COLD / RENUMBER_HOT) / max(steps, 1)
    for k in range(steps):
        r = free[int(rng.random() * len(free))]
        a = int(rng.random() * len(r))
        b = int(rng.random() * (len(r) - 1))
        b += b >= a
        delta = change(r, a, b)
        if delta <= 0 or rng.random() < math.exp(-delta / (RENUMBER_HOT * math.exp(cool * k))):
            exchange(r, a, b)
    better = True
    while better:
        better = False
        for r in free:
            for a in range(len(r)):
                for b in range(a + 1, len(r)):
                    if change(r, a, b) < 0:
                        exchange(r, a, b)
                        better = True
