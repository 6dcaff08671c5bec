"""A game paused at the table (a full store, the host's «Пауза»): the pause's
own words are said at once, not when the game goes on, and the state the
pages read says paused while it is (on a virtual wall clock)."""

import io
import json

from engine import Phase
from hardware.events import Press
from host_device.runtime.clock import VirtualClock
from host_device.screens.public import PublicStream
from host_device.screens.views import Console
from host_device.session.host import Host
from host_device.web.access import Access
from host_device.web.publisher import Private, Publisher
from tests.helpers.full_disk import FullDisk
from tests.helpers.host import args
from voices.catalogue import russian

PAUSE_S = 5.0  # of wall time, while the game is paused


def hosted(monkeypatch, tmp_path, **overrides):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(args(store=str(tmp_path / "games.sqlite3"), **overrides), clock=VirtualClock(limit=900))
    console = Console(host.runtime, None, typed=True)
    host.publisher = Publisher(
        PublicStream(host.runtime, russian().text), private=Private(Access.new(()), console, host.inbox)
    )
    return host


def served(host):
    """(the public state, the console's view) as the pages read them now."""
    return json.loads(host.publisher.state), json.loads(host.publisher.views["host"])


def played(host):
    return [p.label for p in host.speaker.played]


def test_a_full_disk_mid_game_is_said_at_once_and_the_pages_say_paused(monkeypatch, tmp_path, builtin_pack):
    host = hosted(monkeypatch, tmp_path)
    seen = []  # while the game waits for the store: (wall time, said so far, the pages' paused)
    disk = {}

    def watch():
        rt = host.runtime
        if "db" not in disk and host.store is not None and rt.game.phase is Phase.SPEECH:
            disk["db"] = host.store.connection.db = FullDisk(host.store.connection.db)
        if rt.unrecorded is not None:
            public, console = served(host)
            seen.append((host.clock.now(), played(host), public["paused"], console["paused"]))
            if host.clock.now() - seen[0][0] >= PAUSE_S:
                disk["db"].full = False  # room again: the next health check records it
        return False

    host.clock.when(watch, repeat=True)
    assert host.run() == 0
    assert len(seen) > 2 and not disk["db"].full  # it waited, and went on
    tl = host.runtime.timeline.as_dicts()
    fault = next(e for e in tl if e["type"] == "not_recorded")
    said = [(e["t"], e["key"]) for e in tl if e["type"] == "say"]
    full_at = next(t for t, key in said if key == "store_full")
    resumed_at = next(t for t, key in said if key == "resumed" and t >= fault["t"])
    assert full_at == fault["t"] < resumed_at  # said at the moment of the fault, before «Продолжаем»
    assert any(e["type"] == "paused" and e["t"] == fault["t"] for e in tl)
    for _, labels, public_paused, console_paused in seen[1:]:  # the turn after the fault, and on
        assert labels[-1] == "store_full" and "resumed" not in labels[labels.index("store_full") :]
        assert public_paused and console_paused
    public, console = served(host)
    assert not public["paused"] and not console["paused"]
    assert host.game.state.day == 2  # the day went on to its end after the pause


def test_the_hosts_pause_is_said_at_once_and_the_pages_say_paused(monkeypatch, tmp_path, builtin_pack):
    host = hosted(monkeypatch, tmp_path)
    seen = []
    rt = host.runtime

    def press():
        return Press(key="pause", at=host.clock.now())

    def watch():
        if rt.sched.paused:
            public, console = served(host)
            seen.append((host.clock.now(), played(host), public["paused"], console["paused"]))
        return False

    host.clock.when(lambda: rt.game.phase is Phase.SPEECH, press)
    host.clock.when(watch, repeat=True)
    host.clock.when(lambda: bool(seen) and host.clock.now() - seen[0][0] >= PAUSE_S, press)
    assert host.run() == 0
    assert len(seen) > 2
    for _, labels, public_paused, console_paused in seen:
        assert labels[-1] == "paused" and public_paused and console_paused
    said = [(e["t"], e["key"]) for e in rt.timeline.as_dicts() if e["type"] == "say"]
    paused_at = next(e["t"] for e in rt.timeline.dicts() if e["type"] == "paused")
    assert (paused_at, "paused") in said
    assert next(t for t, key in said if key == "resumed") > paused_at
