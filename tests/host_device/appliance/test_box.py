"""``run --box``: the three host buttons between games (on virtual time), and
the box on mock pins: ready → game → ready, the resume question, power-off."""

import io
import json
import sqlite3

import pytest

from hardware.events import Held, HostKey, Press, Release
from host_device.appliance.box import POWER_OFF, Box, load_choice
from host_device.appliance.controls import GAP_S, MENU_IDLE_S, Choice, Controls, Outcome
from host_device.config import Strictness
from host_device.runtime.clock import Scheduler, VirtualClock
from tests.helpers.host import args

SEATS = {"classic": 10, "event": 12, "city": 9}


def seconds(key, slots):
    return 1.0 + 0.1 * len(key)  # any length: the test reads the times from it


class Table:
    """Controls on a virtual clock, with what they said and when."""

    def __init__(self, choice=None, offer=None, power_off=True):
        choice = choice or Choice()
        self.sched = Scheduler()
        self.said = []
        self.controls = Controls(
            self.sched,
            lambda key, slots: self.said.append((round(self.sched.now, 3), key, slots)),
            seconds,
            choice,
            SEATS.__getitem__,
            offer=offer,
            power_off=power_off,
        )
        self.controls.start()

    def run(self, until):
        self.sched.run_virtual(until)
        self.sched.now = max(self.sched.now, until)

    def tap(self, key, at):
        self.run(at)
        self.controls.input(Press(key=key, at=at))
        self.controls.input(Release(key=key, at=at + 0.2))

    def hold(self, key, at, seconds):
        self.run(at)
        self.controls.input(Press(key=key, at=at))
        self.run(at + seconds)
        self.controls.input(Held(key=key, seconds=seconds, at=at + seconds))
        self.controls.input(Release(key=key, at=at + seconds + 0.5))

    def keys(self):
        self.sched.run_virtual(self.sched.now + 5)  # what it has begun to say, and the phrase after
        return [(key, slots.get("count")) for _, key, slots in self.said]


def test_ready_says_the_rules_and_a_short_next_starts_a_game():
    table = Table()
    table.run(30)
    assert table.said[0] == (0.0, "ready", {})
    first = seconds("ready", {}) + GAP_S
    assert table.said[1] == (round(first, 3), "rules_classic", {"count": 10})  # after it, not over it
    assert table.controls.outcome is None  # it waits as long as it takes
    table.tap(5, 31)  # a seat's button: nothing between games
    table.tap("pause", 32)
    assert table.controls.outcome is None
    table.tap("next", table.sched.now + 1)
    assert table.controls.outcome == Outcome("new")


def test_next_counts_when_let_go_and_not_after_a_hold():
    table = Table()
    table.run(10)
    table.controls.input(Press(key="next", at=10))
    assert table.controls.outcome is None  # pressed, not yet let go
    table.controls.input(Release(key="next", at=10.3))
    assert table.controls.outcome == Outcome("new")
    held = Table()
    held.hold("next", 10, 3.0)
    assert held.controls.outcome is None and held.controls.state == "rules"


def test_the_menu_chooses_the_rules_then_the_deal():
    table = Table()
    table.hold("next", 10, 3.0)
    assert table.keys()[-2:] == [("menu", None), ("rules_classic", 10)]
    table.tap("next", 20)
    table.tap("next", 22)
    assert table.keys()[-2:] == [("rules_event", 12), ("rules_city", 9)]
    table.tap("next", 24)
    table.tap("next", 26)
    assert table.keys()[-1] == ("rules_event", 12)  # round again
    table.tap("undo", 28)  # chosen: the event rules
    assert table.keys()[-1] == ("deal_device", None)
    table.tap("next", 30)
    assert table.keys()[-1] == ("deal_cards", None)
    table.tap("undo", 32)  # chosen: by cards; then how strict the device is
    assert table.keys()[-1] == ("fouls_warn", None)
    table.tap("next", 34)
    assert table.keys()[-1] == ("fouls_foul", None)
    table.tap("next", 35)
    assert table.keys()[-1] == ("fouls_off", None)  # round again
    table.tap("next", 36)
    table.tap("next", 37)
    table.tap("undo", 38)
    assert table.controls.choice == Choice("event", "cards", Strictness.FOUL)
    assert table.controls.state == "ready"
    table.run(table.sched.now + 20)
    assert table.keys()[-4:] == [
        ("ready", None),
        ("rules_event", 12),
        ("deal_cards", None),
        ("fouls_foul", None),
    ]
    assert table.controls.outcome is None
    table.tap("next", table.sched.now + 1)
    assert table.controls.outcome == Outcome("new")


def test_a_menu_left_alone_closes_unchanged():
    table = Table(Choice("city", "device"))
    table.hold("next", 10, 3.0)
    table.tap("next", 15)  # heard the classic rules, chose nothing
    assert table.keys()[-1] == ("rules_classic", 10)
    said = len(table.said)
    table.run(15 + MENU_IDLE_S)
    assert len(table.said) == said  # still open MENU_IDLE_S after the last phrase began
    table.run(40 + MENU_IDLE_S)
    assert table.keys()[said:] == [("ready", None), ("rules_city", 9)]
    assert table.controls.choice == Choice("city", "device") and table.controls.state == "ready"


def test_the_unfinished_game_is_offered_by_voice():
    yes = Table(offer=7)
    assert yes.keys() == [("resume_question", None)]
    yes.hold("next", 5, 3.0)  # a hold is no answer, and opens no menu here
    assert yes.controls.outcome is None and yes.controls.state == "question"
    yes.tap("next", 10)
    assert yes.controls.outcome == Outcome("resume", 7)
    no = Table(offer=7)
    no.tap("undo", 10)
    assert no.controls.outcome == Outcome("new")


def test_holding_pause_powers_off_only_when_allowed():
    table = Table()
    table.hold("pause", 10, 5.0)
    assert table.controls.outcome == Outcome("off")
    assert table.keys()[-1] == ("powering_off", None)
    assert table.controls.speaking_until > 15  # the box waits for «Выключаюсь» to be heard
    menu = Table()
    menu.hold("next", 1, 3.0)
    menu.hold("pause", 10, 5.0)  # from the menu too
    assert menu.controls.outcome == Outcome("off")
    off = Table(power_off=False)
    off.hold("pause", 10, 5.0)
    assert off.controls.outcome is None and ("powering_off", None) not in off.keys()  # noqa: SIM118


def test_the_hosts_keys_reach_the_controls_as_the_panels():
    table = Table()
    table.controls.input(HostKey(Press(key="next", at=1)))
    table.controls.input(HostKey(Release(key="next", at=1.1)))
    assert table.controls.outcome == Outcome("new")


# ---------------------------------------------------------------- the box on mock pins


@pytest.fixture
def box_env(monkeypatch, tmp_path, builtin_pack):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    config = tmp_path / "config.toml"
    config.write_text("[box]\npower_off = true\n", encoding="utf-8")
    return tmp_path


def make_box(tmp_path, **overrides):
    """A box on mock pins and a virtual wall clock: what the table does is cued (see feed)."""
    calls = []
    settings = dict(
        store=str(tmp_path / "games.sqlite3"),
        config=str(tmp_path / "config.toml"),
        days=None,
        new=False,
        no_ambience=False,
        deal=None,
    )
    box = Box(
        args(**(settings | overrides)),
        power_off=lambda command: calls.append((command, closed(box))),
        clock=VirtualClock(limit=3600),
    )
    return box, calls


def closed(box):
    try:
        box.store.db.execute("select 1")
    except sqlite3.ProgrammingError:
        return True
    return False


def labels(box):
    return [p.label for p in box.devices.speaker.played]


def feed(box, condition, *events):
    """The table does ``events`` once ``condition`` holds (seen whenever the box waits)."""
    box.clock.when(condition, *events)


def tap(key):
    return [Press(key=key, at=0.0), Release(key=key, at=0.2)]


def test_ready_game_ready_and_power_off(box_env):
    box, calls = make_box(box_env, days=1)  # a one-day trial game, so that it ends soon
    for event in tap("next"):
        box.inbox.put(event)
    ready_again = lambda: labels(box).count("ready") == 2 and labels(box)[-1] == "rules_classic"  # noqa: E731
    feed(box, ready_again, Held(key="pause", seconds=5.0, at=0))  # once «Готов» is heard whole
    assert box.run() == 0
    said = labels(box)
    assert said[0] == "model_missing"  # said once at start: nominations are not heard
    assert said[1] == "ready"
    assert said.index("game_starts") < said.index("night_falls") < said.index("speech")
    again = said.index("ready", 2)
    assert said[again + 1] == "rules_classic" and said[-1] == "powering_off"
    assert calls == [(POWER_OFF, True)]  # once, and after the store was closed


@pytest.mark.slow
def test_power_off_mid_game_then_the_next_start_offers_it(box_env):
    box, calls = make_box(box_env)
    for event in tap("next"):
        box.inbox.put(event)
    feed(box, lambda: "speech" in labels(box), Held(key="pause", seconds=5.0, at=0))
    box.run()
    assert labels(box)[-1] == "powering_off" and calls == [(POWER_OFF, True)]

    again, calls = make_box(box_env)
    assert again.devices.speaker.played == []
    feed(again, lambda: "resume_question" in labels(again), *tap("next"))
    feed(again, lambda: "game_resumed" in labels(again), Held(key="pause", seconds=5.0, at=0))
    again.run()
    said = labels(again)
    assert said[1] == "resume_question" and "ready" not in said and "game_starts" not in said
    assert "game_resumed" in said and said[-1] == "powering_off"

    # «Отмена»: a new game; the old one is not offered again after it
    third, _ = make_box(box_env)
    feed(third, lambda: "resume_question" in labels(third), Press(key="undo", at=0))
    feed(third, lambda: "game_starts" in labels(third), Held(key="pause", seconds=5.0, at=0))
    third.run()
    assert "game_starts" in labels(third)
    fourth, _ = make_box(box_env)
    assert fourth._offer() == 2  # the newest game, unfinished; game 1 is no longer asked about
    fourth.close()


def test_the_menus_choice_is_kept_and_sizes_the_panel(box_env):
    box, _ = make_box(box_env)
    for event in [Press(key="next", at=0), Held(key="next", seconds=3.0, at=0), Release(key="next", at=0)]:
        box.inbox.put(event)
    feed(box, lambda: "rules_classic" in labels(box), *tap("next"))
    feed(box, lambda: "rules_event" in labels(box), Press(key="undo", at=0))
    feed(box, lambda: "deal_device" in labels(box), Press(key="undo", at=0))
    feed(box, lambda: "fouls_warn" in labels(box), *tap("next"))
    feed(box, lambda: "fouls_foul" in labels(box), Press(key="undo", at=0))
    feed(box, lambda: labels(box).count("ready") == 2, Held(key="pause", seconds=5.0, at=0))
    box.run()
    assert box.choice == Choice("event", "device", Strictness.FOUL)
    assert box.panel.seats == 12
    later, _ = make_box(box_env)
    assert later.choice == Choice("event", "device", Strictness.FOUL) and later.panel.seats == 12
    assert later._game_options(Outcome("new")).fouls is Strictness.FOUL
    later.close()


def test_power_off_is_off_unless_allowed_and_never_on_the_keyboard(box_env):
    (box_env / "config.toml").write_text("", encoding="utf-8")
    box, _ = make_box(box_env)
    assert not box.devices.power_off  # this machine is not a Pi, and the config does not say
    box.close()
    from host_device.appliance.box import power_off_allowed

    assert power_off_allowed(True, "gpio") and not power_off_allowed(True, "keyboard")
    assert not power_off_allowed(False, "mock")


# ---------------------------------------------------------------- the night's sound


def night_sound(seed, **overrides):
    from host_device.session.host import Host

    host = Host(args(seed=seed, **overrides), clock=VirtualClock(limit=3600))
    host.run()
    return host


def test_the_night_sound_follows_the_night_phases_whatever_the_deal(monkeypatch, tmp_path, builtin_pack):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    a, b = night_sound(7), night_sound(8)
    assert a.effects.beds == b.effects.beds  # the same seconds, whoever is mafia
    assert [on for _, on in a.effects.beds] == [
        True,
        False,
        True,
        False,
    ]  # the deal's night, day 1, the night
    tl = a.runtime.timeline.as_dicts()
    said = [(e["t"], e["key"]) for e in tl if e["type"] == "say"]
    morning = next(t for t, key in said if key == "morning")
    last_night = max(t for t, key in said if t < morning)
    assert (
        a.effects.beds[0][0] == 0.0 and last_night <= round(a.effects.beds[1][0], 3) <= morning
    )  # on from the deal, off by morning (the night's last words are queued as it ends; the timeline's t is to 1 ms)
    quiet = night_sound(7, no_ambience=True)
    assert quiet.effects.beds == [] and quiet.speaker.beds == []
    assert len(a.speaker.beds) == len(a.effects.beds)  # the speaker was told each time


def test_the_bed_is_a_seamless_fixed_loop_ducked_under_phrases():
    import numpy as np

    from hardware.speaker import DUCK, mix
    from voices.ambience import BED_RMS_DBFS, generated_bed, scaled

    bed = generated_bed(22050)
    assert np.array_equal(bed, generated_bed(22050))  # fixed: nothing in it depends on a game
    rms = float(np.sqrt(np.mean(bed.astype(float) ** 2)))
    assert abs(20 * np.log10(rms / 32768) - BED_RMS_DBFS) < 0.5
    step = np.abs(np.diff(bed.astype(float)))
    assert abs(int(bed[0]) - int(bed[-1])) < 6 * np.median(step)  # the loop's seam is no click
    quiet = scaled(bed, 0.3)
    assert abs(float(np.abs(quiet).max()) / float(np.abs(bed).max()) - 0.3) < 0.01
    block = np.full(100, 1000, dtype=np.int16)
    phrase = np.full(40, 50, dtype=np.int16)
    out = mix(phrase, block, DUCK, DUCK)
    assert out[0] == 1000 * DUCK + 50 and out[50] == 1000 * DUCK  # under the phrase, and after it
    ramp = mix(np.zeros(0, dtype=np.int16), block, 1.0, DUCK)
    assert ramp[0] == 1000 and 1000 * DUCK <= ramp[-1] < 1000 * DUCK + 20  # a ramp, not a jump


# ---------------------------------------------------------------- a store the box cannot write


def test_a_store_that_cannot_be_opened_is_said_then_one_line(box_env, monkeypatch):
    from hardware.speaker import RecordingSpeaker
    from host_device.store import StoreError

    said = []
    real_play = RecordingSpeaker.play
    monkeypatch.setattr(RecordingSpeaker, "play", lambda self, p: (said.append(p.label), real_play(self, p)))
    (box_env / "afile").write_text("", encoding="utf-8")
    with pytest.raises(StoreError, match="afile"):
        make_box(box_env, store=str(box_env / "afile" / "games.sqlite3"))
    assert said == ["store_unusable"]


def test_a_full_disk_at_a_games_start_is_said_then_one_line(box_env):
    from host_device.store import StoreError
    from tests.helpers.full_disk import FullDisk

    box, calls = make_box(box_env)
    box.store.connection.db = FullDisk(box.store.connection.db)  # no room for the new game
    for event in tap("next"):
        box.inbox.put(event)
    with pytest.raises(StoreError, match="диск заполнен"):
        box.run()
    assert labels(box)[-1] == "store_unusable" and calls == []
    assert closed(box)


# ---------------------------------------------------------------- box.json, the menu's kept choice

LOAD_CHOICE = """
import logging, sys
from pathlib import Path
from host_device.appliance.box import load_choice
from host_device.appliance.controls import Choice
logging.basicConfig(format="host-device: warning: %(message)s")
print(load_choice(Path(sys.argv[1]), Choice("event", "cards")))
"""


def _no_more_than_a_gigabyte():
    import resource

    resource.setrlimit(
        resource.RLIMIT_AS, (1 << 30, 1 << 30)
    )  # memory that grows fails here, not the machine


def _bad_choice(kind, path):
    import os

    if kind == "deep":
        path.write_text('{"preset": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    elif kind == "shallow_but_deep":  # small enough to read, too deep for the parser
        path.write_text("[" * 2000 + "]" * 2000, encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "json":
        path.write_text('{"preset": "classic", "deal": ', encoding="utf-8")
    elif kind == "unknown":
        path.write_text('{"preset": "poker", "deal": "device"}', encoding="utf-8")


@pytest.mark.parametrize("kind", ["deep", "shallow_but_deep", "fifo", "zero", "json", "unknown"])
@pytest.mark.slow
def test_a_bad_box_json_is_one_line_and_the_defaults(tmp_path, kind):
    """Read in a child with a time limit and a memory limit: a FIFO hung the
    box before «готов», /dev/zero grew without bound, deep nesting was a
    RecursionError."""
    import subprocess
    import sys

    from tests.helpers.paths import ROOT

    path = tmp_path / "box.json"
    _bad_choice(kind, path)
    proc = subprocess.run(
        [sys.executable, "-c", LOAD_CHOICE, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        preexec_fn=_no_more_than_a_gigabyte,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert (
        proc.stdout
        == "Choice(preset='event', deal='cards', fouls=<Strictness.WARN: 'warn'>, voice='builtin')\n"
    )
    err = proc.stderr.splitlines()
    assert len(err) == 1 and err[0].startswith(f"host-device: warning: {path}: не выбор меню ("), err
    assert err[0].endswith("коробка начнёт с правилами event, раздача cards")


def test_the_box_starts_with_the_defaults_after_a_bad_box_json(box_env, caplog):
    (box_env / "box.json").write_text("{not json", encoding="utf-8")
    box, _ = make_box(box_env, preset="classic", deal="cards")
    assert box.choice == Choice("classic", "cards") and box.panel.seats == 10
    warned = [r.getMessage() for r in caplog.records if "box.json" in r.getMessage()]
    assert len(warned) == 1 and "не выбор меню" in warned[0]
    box.close()
    (box_env / "box.json").unlink()
    again, _ = make_box(box_env)  # none kept yet: the box's first start, nothing said
    assert again.choice == Choice("classic", "device")
    assert len([r for r in caplog.records if "box.json" in r.getMessage()]) == 1
    again.close()


# ---------------------------------------------------------------- the box on the keyboard panel


def test_the_box_on_the_keyboard_panel_starts_a_game_with_its_next_key(box_env, monkeypatch):
    """«Дальше» counts when let go: the keyboard's n is a press and a release;
    N is «Дальше» held, the menu (a menu left alone closes by itself)."""
    import os

    from host_device.appliance.box import Stopped

    r, w = os.pipe()  # the terminal's keys: typed below through the panel's own key()

    class Terminal(io.StringIO):
        def fileno(self):
            return r

    monkeypatch.setattr("sys.stdin", Terminal(""))
    from hardware.keyboard_panel import KeyboardPanel

    above = []  # the box's lines go above the panel's line of lights (a print ran on from its end)
    monkeypatch.setattr(KeyboardPanel, "write_line", lambda self, text: above.append(text))
    box, _ = make_box(box_env, panel="keyboard", days=1)

    def stop():
        raise Stopped  # as SIGTERM does

    ready = lambda n: lambda: labels(box).count("ready") == n and labels(box)[-1] == "rules_classic"  # noqa: E731
    feed(box, ready(1), lambda: box.panel.key("N"))
    feed(box, ready(2), lambda: box.panel.key("n"))  # the menu closed unchanged: ready again
    feed(box, lambda: "game_starts" in labels(box), stop)
    try:
        assert box.run() == 0
    finally:
        os.close(w)
        os.close(r)
    said = labels(box)
    assert said.index("menu") < said.index("ready", said.index("menu")) < said.index("game_starts")
    assert any(line.startswith("host-device: готов: классика") for line in above), above
    assert "host-device: Ведущий: Ведущий готов." in above


def test_the_box_on_the_keyboard_panel_at_speed_10_keeps_a_persons_time_and_its_choice(box_env, monkeypatch):
    """--speed hosts the games faster, not the people: the menu opened with N
    stays open for MENU_IDLE_S of wall time (a press 10 s later still moves
    it on), and its choice is in box.json the moment it is made, before any game."""
    import os

    from host_device.appliance.box import Stopped

    r, w = os.pipe()

    class Terminal(io.StringIO):
        def fileno(self):
            return r

    monkeypatch.setattr("sys.stdin", Terminal(""))
    box, _ = make_box(box_env, panel="keyboard", speed=10.0)
    clock = box.clock
    seen = {}

    def key(char):
        def press():
            seen[char] = clock.now()
            box.panel.key(char)

        return press

    def stop():
        seen["kept"] = json.loads((box_env / "box.json").read_text("utf-8"))
        raise Stopped  # as SIGTERM does: no game was started

    feed(box, lambda: labels(box)[-1:] == ["rules_classic"], key("N"))
    feed(box, lambda: "N" in seen and clock.now() - seen["N"] >= 10.0, key("n"))
    feed(box, lambda: "rules_event" in labels(box), key("u"))
    feed(box, lambda: "deal_device" in labels(box), key("u"))
    feed(box, lambda: "fouls_warn" in labels(box), key("u"))
    feed(box, lambda: labels(box).count("ready") == 2, stop)
    try:
        assert box.run() == 0
    finally:
        os.close(w)
        os.close(r)
    said = labels(box)
    assert "game_starts" not in said and said.index("menu") < said.index("rules_event")
    assert seen["kept"] == {"preset": "event", "deal": "device", "fouls": "warn"}


def test_the_box_on_mock_pins_is_answered_by_typing(box_env, monkeypatch, capsys):
    """No buttons to press: the resume question is answered by a line typed
    on the terminal (n and Enter), and what the box says is printed."""
    from host_device.store import Store

    store = Store(box_env / "games.sqlite3", create=True)
    game = store.games.new_game("classic", "host")
    store.close()
    monkeypatch.setattr("sys.stdin", io.StringIO("может быть\nn\n"))  # the terminal's lines
    box, _ = make_box(box_env)
    assert box._offer() == game
    feed(box, lambda: "game_resumed" in labels(box), Held(key="pause", seconds=5.0, at=0))
    assert box.run() == 0
    said = labels(box)
    assert said[1] == "resume_question" and "game_resumed" in said and said[-1] == "powering_off"
    out = capsys.readouterr().out
    assert f"игра {game} прервана: наберите и Enter: n — продолжить, u — новая" in out
    assert "host-device: Ведущий: Продолжить прерванную игру?" in out


def test_the_box_between_games_serves_its_stores_club_pages_on_its_address(box_env):
    """The bug: «готов» with nothing listening; the club's pages are seen without a dummy game."""
    import socket
    import urllib.request

    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from host_device.store import Store
    from tests.helpers.paths import ROOT

    store = Store(box_env / "games.sqlite3")
    simulate(load_script(ROOT / "examples" / "classic-full-game.json"), seconds, store=store)
    store.close()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    box, calls = make_box(box_env, web=f"127.0.0.1:{port}")
    pages = {}

    def look_then_power_off():
        for path in ("/club", "/game/1"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as answer:
                pages[path] = (answer.status, answer.read().decode())
        return Held(key="pause", seconds=5.0, at=0)

    feed(box, lambda: labels(box)[-1:] == ["rules_classic"], look_then_power_off)
    assert box.run() == 0
    assert pages["/club"][0] == 200 and "Клуб" in pages["/club"][1]
    assert pages["/game/1"][0] == 200 and "Победа мирных жителей" in pages["/game/1"][1]
    assert "game_starts" not in labels(box) and calls  # no game was started to see them
    with pytest.raises(OSError):  # and the address is free again once the box is off
        urllib.request.urlopen(f"http://127.0.0.1:{port}/club", timeout=5)


@pytest.mark.parametrize("answer", ["next", "undo"])
def test_with_pages_the_box_waits_after_the_end_then_plays_again_or_is_ready(box_env, answer):
    """«Дальше» after the end: the next game at once; «Отмена»: the evening's end, «готов» again."""
    from tests.helpers.store import almost_over

    almost_over(box_env / "games.sqlite3")  # its game 2 is offered and carried on to its end
    box, calls = make_box(box_env, web="127.0.0.1:0")
    feed(box, lambda: "resume_question" in labels(box), *tap("next"))
    ended = lambda: "winner" in labels(box)  # noqa: E731
    late = []

    def long_after():  # a minute of the box's clock after the winner was said: it still waits
        if ended() and not late:
            late.append(box.clock.now())
        return bool(late) and box.clock.now() > late[0] + 60

    feed(box, long_after, *tap(answer))
    then = "game_starts" if answer == "next" else "rules_classic"
    feed(box, lambda: labels(box)[-1:] == [then], Held(key="pause", seconds=5.0, at=0))
    assert box.run() == 0
    said = labels(box)
    after = said[said.index("winner") :]
    if answer == "next":
        assert "ready" not in after and "game_starts" in after  # straight into the next game
    else:
        assert after.index("ready") < after.index("rules_classic") and "game_starts" not in after
    assert said[-1] == "powering_off" and calls
    assert box.console_token is not None and box.last_game == (3 if answer == "next" else 2)


def test_ctrl_c_in_a_boxs_game_stops_the_box_and_keeps_the_game(box_env, capsys):
    """Ctrl-C at the terminal during a game: the box stops (it went back to «готов», and a second
    Ctrl-C was needed), the game kept to be resumed."""
    from host_device.store import Store

    box, calls = make_box(box_env)

    def ctrl_c():
        raise KeyboardInterrupt  # as the terminal's Ctrl-C arrives in the main thread

    feed(box, lambda: labels(box)[-1:] == ["rules_classic"], *tap("next"))
    feed(box, lambda: "speech" in labels(box), ctrl_c)
    with pytest.raises(KeyboardInterrupt):  # the command's main says nothing more and exits 130
        box.run()
    assert labels(box).count("ready") == 1 and not calls
    assert "host-device: остановлено" in capsys.readouterr().out
    store = Store(box_env / "games.sqlite3")
    (winner,) = [g.winner for g in store.games.all()]
    store.close()
    assert winner is None  # unfinished: `run --resume` or the box's question takes it up


@pytest.mark.parametrize("fouls", ["strict", 3])
def test_a_box_json_with_a_bad_strictness_is_the_defaults(tmp_path, caplog, fouls):
    path = tmp_path / "box.json"
    path.write_text(json.dumps({"preset": "city", "deal": "device", "fouls": fouls}), encoding="utf-8")
    assert load_choice(path, Choice("event", "cards")) == Choice("event", "cards")
    assert "не выбор меню" in caplog.text


def test_a_box_json_from_before_the_strictness_keeps_its_choice_and_the_default_strictness(tmp_path):
    path = tmp_path / "box.json"
    path.write_text(json.dumps({"preset": "city", "deal": "cards"}), encoding="utf-8")
    assert load_choice(path, Choice(fouls=Strictness.FOUL)) == Choice("city", "cards", Strictness.FOUL)


def test_a_tournament_box_plays_its_tables_next_round_each_game(box_env, capsys):
    """``run --box --tournament NAME --table 2``: each new game is the round after the last this
    box finished at table 2 (``--round`` a later start); past the last round, one line and an
    ordinary game; a resumed game keeps its own seats."""
    from host_device.cli.main import main
    from tests.helpers.outbox import finished_games

    path = box_env / "games.sqlite3"
    names = [f"Игрок {k:02d}" for k in range(1, 21)]
    assert main(["players", "add", *names, "--store", str(path)]) == 0
    assert main(["tournament", "create", "Кубок", *names, "--rounds", "3", "--store", str(path)]) == 0
    capsys.readouterr()
    box, _calls = make_box(box_env, tournament=("Кубок", 2, 0))
    try:
        assert box._game_options(Outcome("new")).tournament == ("Кубок", 2, 1)
        (game,) = finished_games(box.store, 1)
        box.store.tournaments.link_game(game, box.store.tournaments.get("Кубок").id, 1, 2)
        assert box._game_options(Outcome("new")).tournament == ("Кубок", 2, 2)  # round 1 finished here
        assert box.store.tournaments.last_finished_round("Кубок", 1) == 0  # table 1 is another box
        assert box._game_options(Outcome("resume", game)).tournament is None
        assert box._tournament_round(("Кубок", 2, 3)) == ("Кубок", 2, 3)  # --round 3: a later start
        (more,) = finished_games(box.store, 1)
        box.store.tournaments.link_game(more, box.store.tournaments.get("Кубок").id, 3, 2)
        assert box._game_options(Outcome("new")).tournament is None  # no round 4
        out = capsys.readouterr().out
        assert "тур 4: в турнире «Кубок» туры 1–3; эта игра — не турнирная" in out
        assert labels(box).count("no_tournament_table") == 1  # said: no «Стол…, игра…» follows
        assert "host-device: Ведущий: Рассадки нет. Игра не турнирная." in out  # and written as said
    finally:
        box.close()


def test_box_takes_a_tournament_and_table_without_a_round():
    import argparse

    from host_device.base.errors import HostDeviceError
    from host_device.cli.run import _tournament

    given = dict(tournament_file=None, box=True, tournament="Кубок", table=2, round=None)
    assert _tournament(argparse.Namespace(**given)) == ("Кубок", 2, 0)
    assert _tournament(argparse.Namespace(**(given | {"round": 3}))) == ("Кубок", 2, 3)
    with pytest.raises(HostDeviceError, match="с --box: --tournament и --table"):
        _tournament(argparse.Namespace(**(given | {"table": None})))


def test_a_tournament_box_says_which_table_it_is_when_ready(box_env, capsys):
    """«готов» names the tournament and the table: a box started for the wrong table is seen
    before its first game, not at it."""
    box, calls = make_box(box_env, tournament=("Кубок", 3, 0))
    feed(box, lambda: labels(box)[-1:] == ["rules_classic"], Held(key="pause", seconds=5.0, at=0))
    assert box.run() == 0 and calls
    ready = [line for line in capsys.readouterr().out.splitlines() if "готов:" in line]
    assert ready and "классика, 10 игроков; турнир «Кубок», стол 3 (" in ready[0], ready
