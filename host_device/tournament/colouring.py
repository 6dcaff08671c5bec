"""Seats for tables already chosen, by colouring the edges of a bipartite
multigraph: players on one side, the tables of the rounds (a (round, table)
each, ten players) on the other, an edge for every player at a table; a seat
is a colour. A table's ten edges take the ten colours, so its players get the
ten seats; a player's edges with different colours give him different seats.

1. König's theorem: a bipartite graph whose degrees are at most ten can be
   coloured with ten colours. A player with more than ten games is split into
   nodes of ten edges each (his seats then differ by one at most); the colouring
   is built edge by edge, an alternating path of two colours flipped where a
   table already has the colour the player lacks (:func:`_colour`). So with
   ten games everyone sits every seat exactly once, with fewer never a seat
   twice, whatever the tables.
2. Kempe changes: the edges of two colours ``a`` and ``b`` make paths and
   cycles; exchanging the two colours on one of them keeps every table's seats
   whole and every player's count of seats (his ``a`` and ``b`` counts swap). A
   search over such exchanges (simulated annealing, a fixed number of moves,
   stopping once nobody sits after the same player twice) evens out how often
   one player sits directly after another — the voting order: seat ``s + 1``
   after seat ``s`` at a table, seat 1 after seat 10 — on the sum of each
   ordered pair's count cubed. Twenty and thirty players over ten rounds: at
   most twice (it was four times); fifty and a hundred: never twice.
3. Where rounds were played, König ignores their seats: first a search
   exchanging two players' seats at one table evens each player's seats with
   the ones he had (:meth:`_Search.balance`), then the Kempe search, the seat
   counts weighing :data:`SEAT_WEIGHT` against the voting order.

Rounds are mutable lists (round -> table -> player indices); on return each
free table lists its players by seat (index 0 is seat 1). The first ``fixed``
rounds are played: their seats count and never change."""

from __future__ import annotations

import math
import random

SEATS = 10
STEPS = 500  # exchanges per free table at effort 1.0 (fewer once nothing is left to even out)
HOT, COLD = 2.0, 0.05
BALANCE = 20000  # seat exchanges per free table at effort 1.0 (where rounds were played)
BALANCE_WEIGHT = 30.0  # a player's seat counts against the voting order while balancing
BALANCE_HOT, BALANCE_COLD = 30.0, 2.0
SEAT_WEIGHT = 1000.0  # a player's seat counts against the voting order
FOLLOW_POWER = 3  # the cost of one player sitting directly after another c times: c ** 3


def colour(
    rounds: list[list[list[int]]], fixed: int, players: int, rng: random.Random, effort: float
) -> None:
    """Give every free table's players their seats in place (see the module)."""
    free = [(r, t) for r in range(fixed, len(rounds)) for t in range(len(rounds[r]))]
    if not free:
        return
    played = [[0] * SEATS for _ in range(players)]
    for done in rounds[:fixed]:
        for table in done:
            for s, p in enumerate(table):
                played[p][s] += 1
    seats = _colour([rounds[r][t] for r, t in free], played, rng)
    search = _Search(rounds, fixed, players, seats)
    if fixed:
        search.balance(rng, int(BALANCE * effort * len(free)))
    search.run(rng, int(STEPS * effort * len(free)))
    for k, (r, t) in enumerate(free):
        rounds[r][t] = list(search.seated[k])


def _colour(tables: list[list[int]], played: list[list[int]], rng: random.Random) -> list[list[int]]:
    """König: each table's players by seat, no player on a seat more than
    ``ceil(games / 10)`` times. Edge by edge: a colour the player's node lacks
    (``alpha``; of those, one he had least in the rounds ``played``) and one
    the table lacks (``beta``); where the table has ``alpha``, the path from it
    of ``alpha`` and ``beta`` edges is flipped (it cannot reach the player's
    node: bipartite), freeing ``alpha`` there."""
    node: dict[tuple[int, int], int] = {}  # (player, his k-th ten of games) -> node
    seen = [0] * len(played)
    owner: list[int] = []  # node -> player
    ends: list[tuple[int, int]] = []  # edge -> (node, table)
    for t, table in enumerate(tables):
        for p in table:
            key = (p, seen[p] // SEATS)
            seen[p] += 1
            if key not in node:
                node[key] = len(owner)
                owner.append(p)
            ends.append((node[key], t))
    at_node = [[-1] * SEATS for _ in node]
    at_table = [[-1] * SEATS for _ in tables]
    colours = [-1] * len(ends)
    order = list(range(len(ends)))
    rng.shuffle(order)
    for e in order:
        u, v = ends[e]
        lacks = [c for c in range(SEATS) if at_node[u][c] < 0]
        least = min(played[owner[u]][c] for c in lacks)
        alpha = rng.choice([c for c in lacks if played[owner[u]][c] == least])
        if at_table[v][alpha] >= 0:
            beta = rng.choice([c for c in range(SEATS) if at_table[v][c] < 0])
            path, side, here, c = [], at_table, v, alpha
            while (f := side[here][c]) >= 0:
                path.append(f)
                here = ends[f][0] if side is at_table else ends[f][1]
                side = at_node if side is at_table else at_table
                c = beta if c == alpha else alpha
            for f in path:
                at_node[ends[f][0]][colours[f]] = at_table[ends[f][1]][colours[f]] = -1
            for f in path:
                colours[f] = beta if colours[f] == alpha else alpha
                at_node[ends[f][0]][colours[f]] = at_table[ends[f][1]][colours[f]] = f
        colours[e] = alpha
        at_node[u][alpha] = at_table[v][alpha] = e
    out = [[0] * SEATS for _ in tables]
    for e, (_, t) in enumerate(ends):
        out[t][colours[e]] = tables[t][e - t * SEATS]
    return out


class _Search:
    """The Kempe-change search; ``seated[k]`` is the k-th free table by seat."""

    def __init__(
        self,
        rounds: list[list[list[int]]],
        fixed: int,
        players: int,
        seated: list[list[int]],
    ) -> None:
        self.seated = seated
        self.count = [[0] * SEATS for _ in range(players)]  # every round's seats, played ones too
        self.played = [[0] * SEATS for _ in range(players)]  # the played rounds' only
        self.holds: list[list[list[int]]] = [[[] for _ in range(SEATS)] for _ in range(players)]
        self.after = [[0] * players for _ in range(players)]  # after[x][y]: y sat directly after x
        for r in rounds[:fixed]:
            for table in r:
                self._sit(table, 1)
                for s, p in enumerate(table):
                    self.played[p][s] += 1
                    self.count[p][s] += 1
        for k, table in enumerate(seated):
            self._sit(table, 1)
            for s, p in enumerate(table):
                self.count[p][s] += 1
                self.holds[p][s].append(k)
        self.repeats = sum(c - 1 for row in self.after for c in row if c > 1)  # sat after the same again

    def _sit(self, table: list[int], step: int) -> None:
        for s in range(SEATS):
            self.after[table[s]][table[(s + 1) % SEATS]] += step

    def balance(self, rng: random.Random, steps: int) -> None:
        """Where rounds were played, König's seats ignore them: a player may
        get again a seat he had. Simulated annealing on the sum over players
        and seats of each count squared (played and to play; times
        :data:`BALANCE_WEIGHT`) and the voting order's cost, a move exchanging
        the seats of two players at one table; then such exchanges while one
        lowers the counts' sum."""
        random_ = rng.random
        tables = len(self.seated)
        cool = math.log(BALANCE_COLD / BALANCE_HOT) / max(steps, 1)
        for k in range(steps):
            table = int(random_() * tables)
            a = int(random_() * SEATS)
            b = int(random_() * (SEATS - 1))
            b += b >= a
            delta = self._swap(table, a, b, BALANCE_WEIGHT)
            if delta > 0 and random_() >= math.exp(-delta / (BALANCE_HOT * math.exp(cool * k))):
                self._swap(table, a, b, BALANCE_WEIGHT)
        better = True
        while better:
            better = False
            for table in range(tables):
                for a in range(SEATS):
                    for b in range(a + 1, SEATS):
                        if self._swap(table, a, b, SEAT_WEIGHT) >= 0:
                            self._swap(table, a, b, SEAT_WEIGHT)
                        else:
                            better = True

    def run(self, rng: random.Random, steps: int) -> None:
        """The Kempe search on the voting order (every player's seat counts kept
        where no round was played; where some were, they weigh :data:`SEAT_WEIGHT`)."""
        random_ = rng.random
        cool = math.log(COLD / HOT) / max(steps, 1)
        tables = len(self.seated)
        for k in range(steps):
            if not self.repeats:
                return  # nobody sits after the same player twice: nothing left to even out
            a = int(random_() * SEATS)
            b = int(random_() * (SEATS - 1))
            b += b >= a
            component = self._component(int(random_() * tables), a, b)
            delta = self._exchange(component, a, b)
            if delta > 0 and random_() >= math.exp(-delta / (HOT * math.exp(cool * k))):
                self._exchange(component, a, b)

    def _component(self, start: int, a: int, b: int) -> list[int]:
        """The free tables joined to ``start`` by seats ``a`` and ``b``."""
        seen = {start}
        todo = [start]
        seated, holds = self.seated, self.holds
        while todo:
            k = todo.pop()
            for s in (a, b):
                p = seated[k][s]
                for j in holds[p][a]:
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
                for j in holds[p][b]:
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
        return sorted(seen)

    def _turn(self, k: int, a: int, b: int) -> float:
        """Exchange the players of seats ``a`` and ``b`` at free table ``k``,
        counting who sits after whom; what the voting order's cost changed by."""
        after, table = self.after, self.seated[k]
        lefts = {(a - 1) % SEATS, a, (b - 1) % SEATS, b}
        delta = 0.0
        for s in lefts:
            x, y = table[s], table[(s + 1) % SEATS]
            c = after[x][y]
            delta += (c - 1.0) ** FOLLOW_POWER - c**FOLLOW_POWER
            after[x][y] = c - 1
            self.repeats -= c > 1
        table[a], table[b] = table[b], table[a]
        for s in lefts:
            x, y = table[s], table[(s + 1) % SEATS]
            c = after[x][y]
            delta += (c + 1.0) ** FOLLOW_POWER - c**FOLLOW_POWER
            after[x][y] = c + 1
            self.repeats += c > 0
        return delta

    def _swap(self, k: int, a: int, b: int, weight: float) -> float:
        """Two players of one table exchange seats; what the cost changed by."""
        delta = self._turn(k, a, b)
        table, count, holds = self.seated[k], self.count, self.holds
        x, y = table[a], table[b]  # x now on a (was on b), y on b
        cx, cy = count[x], count[y]
        delta += weight * 2 * (cx[a] - cx[b] + cy[b] - cy[a] + 2)
        cx[b] -= 1
        cx[a] += 1
        cy[a] -= 1
        cy[b] += 1
        holds[x][b].remove(k)
        holds[x][a].append(k)
        holds[y][a].remove(k)
        holds[y][b].append(k)
        return delta

    def _exchange(self, component: list[int], a: int, b: int) -> float:
        """Exchange seats ``a`` and ``b`` at every table of ``component``; what the cost changed by."""
        count, holds, played = self.count, self.holds, self.played
        delta = 0.0
        moved: set[int] = set()
        for k in component:
            delta += self._turn(k, a, b)
            moved.add(self.seated[k][a])
            moved.add(self.seated[k][b])
        for p in moved:
            row, mine = count[p], holds[p]
            before = row[a] ** 2 + row[b] ** 2
            row[a] = played[p][a] + len(mine[b])
            row[b] = played[p][b] + len(mine[a])
            mine[a], mine[b] = mine[b], mine[a]
            delta += SEAT_WEIGHT * (row[a] ** 2 + row[b] ** 2 - before)
        return delta
