"""Which stored game a session carries on: ``--resume ID`` (checked against
this table), ``--new``, or the table's answer when an unfinished game of
this table is found; and the runtime recorded into the store from then on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import CLASSIC, Game
from host_device.base.errors import HostDeviceError
from host_device.runtime.loop import Runtime
from host_device.store.faults import StoreError
from voices.words import MODE_NAMES, WINS, local_time, preset_name

TABLE_MODES = ("host", "assist")  # a game played at a table: by the device, or by a human host with it


def game_to_resume(
    store: Any, resume: int | None, new: bool, preset: str, mode: str, ask: Callable[[Any], bool]
) -> int | None:
    """--resume ID, --new, or ``ask(latest)`` when an unfinished game is
    found. A game is carried on in the mode it was played in: the device
    does not take over a human host's game, nor he the device's."""
    if resume is not None:
        row = store.games.game(resume)
        if row.preset != preset:
            raise StoreError(
                f"игра {row.id} — по правилам «{preset_name(row.preset)}», а стол настроен на "
                f"«{preset_name(preset)}»: запустите её с --preset {row.preset}"
            )
        if row.mode not in TABLE_MODES:
            raise StoreError(
                f"игра {row.id} — симуляция: продолжить её — host-device simulate СЦЕНАРИЙ --resume"
            )
        if row.mode != mode:
            raise StoreError(
                f"игра {row.id} шла в режиме «{MODE_NAMES.get(row.mode, row.mode)}», а стол настроен на "
                f"«{MODE_NAMES.get(mode, mode)}»: запустите её с --mode {row.mode}"
            )
        if row.finished_at is not None:
            raise StoreError(f"игра {row.id} окончена; посмотреть её: host-device games show {row.id}")
        return int(resume)  # a damaged game is named by the replay, before anything is written
    if new:
        return None
    unfinished = [g for g in store.games.unfinished() if offered(store, g, preset, mode)]
    if not unfinished:
        return None
    latest = unfinished[-1]
    return int(latest.id) if ask(latest) else None


def offered(store: Any, game: Any, preset: str, mode: str) -> bool:
    """An unfinished game the table is asked about: a game of this table's
    rules played at a table in this mode (not a simulation, nor a game of
    the other mode), and not a trial (--days)."""
    if game.preset != preset or game.mode != mode:
        return False
    try:
        return not store.games.settings(game.id).get("trial_days")
    except HostDeviceError:  # damaged settings: not offered (games check names it)
        return False


def record(store: Any, runtime: Runtime, mode: str, game_id: int | None, days: int | None) -> int:
    """Every input of the runtime into the store: a new game (a trial with
    ``days``), or ``game_id`` replayed into the runtime and carried on."""
    from host_device.store import record_runtime

    if game_id is None:
        trial = {"trial_days": days} if days is not None else {}
        return record_runtime(store.games, runtime, mode, settings=trial)
    runtime.adopt(store.games.replay(game_id))  # undo reaches back to the restart, no further
    return record_runtime(store.games, runtime, mode, game_id=game_id)


def trial_days(store: Any, game_id: int) -> int | None:
    """The days a trial game (--days) was begun for; None for a game played for real."""
    try:
        days = store.games.settings(game_id).get("trial_days")
    except HostDeviceError:  # damaged settings (games check names them)
        return None
    return days if isinstance(days, int) else None


def not_finished(game_id: int | None, mode: str, preset: str, days: int | None) -> str:
    """What ``run`` says of a game it leaves unfinished: how to carry it on
    (in its mode, with its rules), and for a trial (--days), that it is never
    offered again."""
    if game_id is None:
        return "игра не окончена"
    again = f"host-device run --resume {game_id}"
    again += "" if mode == "host" else f" --mode {mode}"
    again += "" if preset == CLASSIC.name else f" --preset {preset}"
    if days:
        return f"пробная игра (--days {days}) остановлена; сама она не предлагается, продолжить: {again}"
    return f"игра не окончена (продолжить: {again})"


def how_it_ended(game: Game, game_id: int | None, mode: str, days: int | None) -> str:
    """``run``'s last line: the result, or how to carry the game on."""
    winner = game.state.winner
    if winner is not None:
        return f"игра окончена: {WINS[winner]}"
    return not_finished(game_id, mode, game.preset.name, days)


def ask_to_resume(
    latest: Any, say_line: Callable[[str], None], say: Callable[[str], Any], question: Any
) -> bool:
    """Whether to carry on the unfinished game ``latest``: asked on the terminal,
    aloud and on the console (``question``: session/question.py); True: carry it on."""
    which = f"{latest.id} (начата {local_time(latest.started_at)}) не окончена"
    say_line(
        f"host-device: игра {which}: "
        "«Дальше» — продолжить её, «Отмена» — новая игра (или наберите n или u и Enter)"
    )
    say("unfinished_game")
    again = f"n — продолжить игру {latest.id}, u — новая игра"
    return bool(question.ask(f"Игра {which}", "Продолжить", "Новая игра", again))
