"""The table's finished games sent to the club's database in the background
(host_device/clubdb/sender.py), when ``[club] database`` or ``--club-db``
names one; a table without one starts nothing.

The sender is a process of its own: on the runtime's thread there is only
its wake-up when the game ends (an event set, after the store marked the
game finished). ``run`` starts one for its game and ends it with the game;
``run --box`` starts one with the box, lends it to every game (Devices) and
ends it with the box."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from host_device.config import Config
from host_device.runtime.loop import Runtime
from host_device.session.options import GameOptions

if TYPE_CHECKING:
    from host_device.clubdb.sender import Sender
    from host_device.session.devices import Devices


def club_url(options: GameOptions, config: Config | None) -> str | None:
    """``--club-db``, else the config's ``[club] database``; None: the table has none."""
    return options.club_db or (config.club_database if config is not None else None) or None


def start_sender(url: str | None, store: Path) -> Sender | None:
    """The background sender of ``store`` to ``url`` (None without a URL)."""
    if not url:
        return None
    from host_device.clubdb.sender import Sender

    return Sender(store, url).start()


def wake_when_finished(runtime: Runtime, sender: Sender | None) -> None:
    """Wake the sender once the game has a winner. Attached after the store's
    recorder, so the game is marked finished in the store before the wake."""
    if sender is None:
        return
    woken: dict[str, Any] = {"game": None}

    def after(outputs: list[Any]) -> None:
        game = runtime.game
        if game.state.winner is not None and woken["game"] is not game:
            woken["game"] = game
            sender.wake()

    runtime.observers.append(after)


def attach(runtime: Runtime, devices: Devices | None, url: str | None, store: Path) -> Sender | None:
    """The game's sender (the box's, or one of its own for ``run``), woken when
    the game ends; what the session closes when the game ends (None: nothing)."""
    if devices is not None:
        wake_when_finished(runtime, devices.sender)
        return None
    sender = start_sender(url, store)
    wake_when_finished(runtime, sender)
    return sender
