"""A table of a tournament played by a real ``run`` process (``--panel mock``: no button is
ever pressed) whose speakers' words are typed on its stdin, as the box takes them with no
speech model: the test reads the game from the box's own store (the engine replays what it
stored), and when a speaker has the floor and the day still wants a candidate it types his
nomination. Nobody votes (every vote goes to the last candidate, as the rules say) and nobody
shoots (each night is a miss), so the plan decides the game: ``red`` nominates a black player
until none is left, ``black`` a red one until the black side is as many as the red."""

from __future__ import annotations

import time
from pathlib import Path

from engine import Game, Phase
from engine.roles import BLACK_ROLES
from host_device.store import Store
from host_device.store.faults import StoreError

POLL_S = 0.02
RETYPE_S = 0.25  # a line typed before his floor opened is typed again


def state_of(path: Path, games_before: int) -> Game | None:
    """The game the process plays (the store's first game after ``games_before``), replayed."""
    try:
        store = Store(path, create=False)
    except StoreError:
        return None  # not made yet
    try:
        rows = store.games.all()
        if len(rows) <= games_before:
            return None
        game = Game("classic")
        for _seq, _t, inp in store.games.inputs(rows[games_before].id):
            game.handle(inp)
        return game
    finally:
        store.close()


def wanted(game: Game) -> int:
    """Candidates this day wants: two on day 1 (a lone one is not voted on), one after."""
    return 2 if game.state.day == 1 else 1


def target(game: Game, plan: str) -> int | None:
    s = game.state
    black = [seat for seat in s.alive() if s.role(seat) in BLACK_ROLES]
    red = [seat for seat in s.alive() if seat not in black]
    pool = black if plan == "red" else red
    free = [seat for seat in pool if seat != s.speaker and seat not in s.nominations.values()]
    return free[0] if free else None


def play(run, path: Path, games_before: int, plan: str, timeout: float = 240.0) -> None:
    """Type the nominations of ``plan`` until the process ends (its game over)."""
    typed: dict[tuple[int, int], float] = {}
    deadline = time.monotonic() + timeout
    while run.proc.poll() is None:
        assert time.monotonic() < deadline, "\n".join(run.lines()[-30:])
        game = state_of(path, games_before)
        s = game.state if game is not None else None
        if s is not None and s.phase is Phase.SPEECH and s.speaker is not None:
            here = (s.day, s.speaker)
            if s.speaker not in s.nominations and len(s.nominations) < wanted(game):
                seat = target(game, plan)
                if seat is not None and time.monotonic() - typed.get(here, 0.0) > RETYPE_S:
                    typed[here] = time.monotonic()
                    run.proc.stdin.write(f"я выставляю игрока номер {seat}\n".encode())
                    run.proc.stdin.flush()
        time.sleep(POLL_S)
