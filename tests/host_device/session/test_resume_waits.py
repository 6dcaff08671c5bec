"""A resumed game with phones for seats waits for them (host_device/session/phone_wait.py): the
process that was stopped (a kill, a power cut) took the phones' tokens with it, and the new one
makes new ones. Until every living seat's phone is back (or the host says «Продолжить») nothing
of the game happens — a press is not taken, the vote window is not opened, the night's calls are
not made — and the wait is shown on the console, the table page and the terminal; then the step
begins again from its question (a vote) or its call (a night step). The ballots stored before the
stop are kept, their LEDs lit again; a check made before it still shows its answer on the
checker's phone. On the virtual clock (the real process killed -9: tests/system/test_resume_phones.py)."""

import io

from engine import Check, Phase, Role, Vote
from hardware.events import TypedLine
from host_device.runtime.clock import VirtualClock
from host_device.screens.views import seat_view
from host_device.session.host import Host
from host_device.store import Store
from host_device.web.inputs import PhonePress, phone_notice
from tests.helpers.host import args
from tests.helpers.store import stopped_in


def resumed(monkeypatch, tmp_path, gid, day):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    options = args(
        panel="web", web="127.0.0.1:0", store=tmp_path / "g.db", resume=gid, new=False, days=day, speed=10.0
    )
    return Host(options, clock=VirtualClock(limit=3600))


def said(host, key):
    return [e["t"] for e in host.runtime.timeline.dicts() if e["type"] == "say" and e.get("key") == key]


def back(host, seat):
    """Seat ``seat``'s phone is back: the publisher's list, and the socket's notice."""
    host.publisher.online = host.publisher.online | {seat}
    return phone_notice(seat)


def phones_back(host, seats, after_s):
    """Each phone comes back ``after_s`` wall seconds after the one before."""
    for n, seat in enumerate(seats, 1):
        host.clock.when(lambda n=n: host.clock.now() >= n * after_s, lambda seat=seat: back(host, seat))


def stop_when(host, condition):
    """The game's hosting ends once ``condition()`` holds (what the test looks at is over)."""
    host.clock.when(condition, lambda: (host.runtime.stop(), TypedLine(text="?", at=0.0))[1])


def pressed(host, seat):
    """A press of seat ``seat``'s phone now, in the step its view shows."""
    return PhonePress(key=seat, at=host.clock.now(), made_in=host.runtime.step)


def test_a_vote_resumed_waits_for_the_phones_then_asks_again_keeping_its_ballots(
    monkeypatch, tmp_path, builtin_pack, capsys
):
    gid, game = stopped_in(
        tmp_path / "g.db",
        lambda g: g.phase is Phase.VOTE,
        lambda g: [inp for inp in g.legal_inputs() if isinstance(inp, Vote)][:3],  # three ballots cast
    )
    s = game.state
    first = dict(s.vote_round.ballots)
    assert len(first) == 3
    host = resumed(monkeypatch, tmp_path, gid, s.day)
    living = s.alive()
    late = living[-1]
    phones_back(host, [seat for seat in living if seat != late], after_s=1.0)
    # a phone's press while the game waits: its step has not begun again, it is not taken
    host.clock.when(lambda: host.clock.now() >= 5.0, lambda: pressed(host, living[0]))
    seen = {}

    def waiting_for_the_last():
        if host.phone_wait is not None and host.phone_wait.waiting and host.clock.now() >= 15.0:
            seen["question"] = dict(host.console.question)
            seen["table"] = host.publisher.waiting
            seen["window"] = host.runtime.window
            seen["record"] = len(host.game.record)
            return True
        return False

    host.clock.when(waiting_for_the_last, lambda: back(host, late))
    voters = [seat for seat in living if seat not in first]

    def window_open():
        w = host.runtime.window
        if host.game.phase is Phase.VOTE and w is not None and w[0] <= host.sched.now < w[1]:
            seen["lit"] = {seat for seat, pattern in host.runtime.leds.items() if pattern == "on"}
            return True
        return False

    host.clock.when(window_open, *[lambda seat=seat: pressed(host, seat) for seat in voters])
    stop_when(host, lambda: said(host, "game_resumed") and host.game.phase is not Phase.VOTE)
    assert host.run() == 0

    n = len(living)
    line = f"Игра продолжится, когда вернутся телефоны: подключены {n - 1} из {n} — «"
    assert seen["question"]["text"].startswith(line) and seen["question"]["yes"] == "Продолжить"
    assert seen["table"] == seen["question"]["text"] and "начнётся заново" in seen["table"]
    assert seen["window"] is None and seen["record"] == len(game.record)  # nothing happened meanwhile
    out = capsys.readouterr().out
    assert (
        f"подключены 0 из {n}" in out
        and "(«Продолжить» на пульте или «Дальше» — продолжить без остальных)" in out
    )
    # the step began again once the last phone was back: «Продолжаем игру», the question, the window
    (resumed_at,) = said(host, "game_resumed")
    asked = said(host, "vote_question")[0]
    assert asked > resumed_at
    assert seen["lit"] == set(first)  # the voters' LEDs lit again: their votes stand
    store = Store(tmp_path / "g.db")
    record = [inp for _, _, inp in store.games.inputs(gid)]
    store.close()
    assert record[: len(game.record)] == list(game.record)  # the three ballots kept
    taken = {inp.seat for inp in record[len(game.record) :] if isinstance(inp, Vote)}
    assert taken == set(voters)  # every other living seat voted in the window asked again


def test_a_night_step_resumed_waits_then_calls_again_and_the_check_still_shows(
    monkeypatch, tmp_path, builtin_pack
):
    def sheriffs_step(g):
        return g.phase is Phase.NIGHT_CHECK and g.state.step_role is Role.SHERIFF

    def his_check(g):
        s = g.state
        sheriff = next(seat for seat, role in s.roles.items() if role is Role.SHERIFF)
        target = next(seat for seat in s.alive() if seat != sheriff)
        return [Check(seat=sheriff, target=target)]

    gid, game = stopped_in(tmp_path / "g.db", sheriffs_step, his_check)
    s = game.state
    checked = game.record[-1]
    sheriff = checked.seat
    host = resumed(monkeypatch, tmp_path, gid, s.day + 1)
    phones_back(host, s.alive(), after_s=2.0)
    answers = []
    host.runtime.recorders.append(
        lambda e: (
            answers.append(seat_view(host.runtime, sheriff)["answer"])
            if getattr(e, "key", None) == "call"
            else None
        )
    )
    stop_when(host, lambda: said(host, "game_resumed") and host.game.phase is not Phase.NIGHT_CHECK)
    assert host.run() == 0
    (resumed_at,) = said(host, "game_resumed")
    last = 2.0 * len(s.alive()) * host.options.speed  # the last phone's wall time, in game time
    assert resumed_at >= last - 1  # nothing of the night before every phone was back
    woken = [t for t in said(host, "role_wakes") if t > resumed_at]
    calls = [t for t in said(host, "call") if t > resumed_at]
    assert woken and calls and woken[0] < calls[0]  # the step from its call
    assert answers and answers[0] is not None and answers[0].endswith(f"(игрок {checked.target})")


def test_in_assist_mode_the_host_says_go_without_the_phones(monkeypatch, tmp_path, builtin_pack):
    """Assist mode waits too (the line on the host's screen and console); his «n» goes on at once."""
    gid, _ = stopped_in(
        tmp_path / "g.db",
        lambda g: g.phase is Phase.VOTE,
        lambda g: [inp for inp in g.legal_inputs() if isinstance(inp, Vote)][:3],
    )
    store = Store(tmp_path / "g.db")
    store.db.execute("UPDATE games SET mode = 'assist' WHERE id = ?", (gid,))  # a game a human host led
    store.db.commit()
    store.close()
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    options = args(
        mode="assist",
        panel="web",
        web="127.0.0.1:0",
        store=tmp_path / "g.db",
        resume=gid,
        new=False,
        speed=10.0,
    )
    host = Host(options, clock=VirtualClock(limit=600))
    seen = {}

    def a_while_later():
        if host.clock.now() >= 5.0:
            seen["waiting"] = host.phone_wait.waiting and host.runtime.window is None
            seen["line"] = host.assist.messages.message
            return True
        return False

    host.clock.when(a_while_later, TypedLine(text="n", at=0.0))
    stop_when(host, lambda: said(host, "vote_question"))
    assert host.run() == 0
    assert seen["waiting"] and seen["line"].startswith(
        "Игра продолжится, когда вернутся телефоны: подключены 0 из"
    )
    (resumed_at,) = said(host, "game_resumed")
    assert resumed_at >= 5.0 * 10.0 - 1  # not before the host said go
