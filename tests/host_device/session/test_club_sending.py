"""The table's background sender (host_device/session/club_sending.py):
started only when a club database is named, by ``run`` for its game and by
the box for all of its games, ended with them; woken once when a game ends,
after the store marked it finished."""

import io
import socket

from hardware.events import Held, Press, Release
from host_device.appliance.box import Box
from host_device.runtime.clock import VirtualClock
from host_device.scripts.script import load_script
from host_device.scripts.simulate import simulate
from host_device.session.club_sending import club_url, wake_when_finished
from host_device.session.host import Host
from host_device.store import Store
from tests.helpers.host import args
from tests.helpers.outbox import FULL


def silent_url():
    """A database address where nothing listens (the sender only tries it)."""
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    return f"postgresql://club:secret@127.0.0.1:{port}/club"


class Wakes:
    def __init__(self, store):
        self.store = store
        self.finished_when_woken = []

    def wake(self):
        self.finished_when_woken.append([g.winner for g in self.store.games.all()])


def test_a_finished_game_wakes_the_sender_once_after_it_is_marked(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    try:
        wakes = Wakes(store)
        simulate(
            load_script(FULL),
            lambda key, slots: 1.0,
            store=store,
            watch=lambda rt: wake_when_finished(rt, wakes),
        )
        assert wakes.finished_when_woken == [["red"]]
    finally:
        store.close()


def test_the_url_is_the_flags_else_the_configs():
    class Config:
        club_database = "postgresql://a@b/c"

    assert club_url(args(club_db="postgresql://x@y/z"), Config()) == "postgresql://x@y/z"
    assert club_url(args(), Config()) == "postgresql://a@b/c"
    assert club_url(args(), None) is None


def test_run_without_a_club_database_starts_no_sender(monkeypatch, tmp_path, builtin_pack):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(args(store=str(tmp_path / "games.sqlite3")), clock=VirtualClock(limit=3600))
    assert host.run() == 0 and host.sender is None


def test_run_with_a_club_database_starts_its_sender_and_ends_it(monkeypatch, tmp_path, builtin_pack):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(
        args(store=str(tmp_path / "games.sqlite3"), club_db=silent_url()), clock=VirtualClock(limit=3600)
    )
    assert host.run() == 0
    assert host.sender is not None and host.sender.pid is not None
    assert not host.sender.alive  # ended with the game


def test_the_box_lends_one_sender_to_its_games_and_ends_it(monkeypatch, tmp_path, builtin_pack):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    config = tmp_path / "config.toml"
    config.write_text(f'[box]\npower_off = true\n[club]\ndatabase = "{silent_url()}"\n', encoding="utf-8")
    settings = dict(
        store=str(tmp_path / "games.sqlite3"),
        config=str(config),
        days=1,
        new=False,
        no_ambience=False,
        deal=None,
    )
    box = Box(args(**settings), power_off=lambda command: None, clock=VirtualClock(limit=3600))
    sender = box.devices.sender
    assert sender is not None and sender.alive
    for event in (Press(key="next", at=0.0), Release(key="next", at=0.2)):
        box.inbox.put(event)
    said = lambda: [p.label for p in box.devices.speaker.played]  # noqa: E731
    box.clock.when(lambda: said().count("ready") == 2, Held(key="pause", seconds=5.0, at=0))
    assert box.run() == 0
    assert "game_starts" in said() and not sender.alive


def test_a_box_without_a_club_database_has_no_sender(monkeypatch, tmp_path, builtin_pack):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    settings = dict(store=str(tmp_path / "games.sqlite3"), config=None, days=1, new=False)
    box = Box(args(**settings, no_ambience=False, deal=None), power_off=lambda c: None, clock=VirtualClock())
    try:
        assert box.devices.sender is None
    finally:
        box.close()
