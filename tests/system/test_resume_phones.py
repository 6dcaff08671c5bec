"""A real ``run --panel web`` killed with SIGKILL in a vote after three ballots, and in the
Sheriff's night step after his check, then resumed with ``run --resume``: the new process makes
new tokens, and the phones come back with them. The resumed game waits for them — nothing of the
game happens, a phone's press is not taken — and says so on the terminal; once the last phone is
back, the step begins again: the vote from its question (its three ballots kept; every other
player votes in the window asked again, nobody is counted by default), the night step from its
call (the Sheriff's phone still has his check's answer). The same on the virtual clock, faster
and with more looked at: tests/host_device/session/test_resume_waits.py."""

import signal
import socket
import time

import pytest

from engine import Check, Phase, Role, Vote
from host_device.store import Store
from tests.helpers.phones import Phone, Run
from tests.helpers.store import stopped_in

WAITING = "Игра продолжится, когда вернутся телефоны: подключены"
RESUMED = "Продолжаем прерванную игру."


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def inputs(path, gid):
    store = Store(path)
    try:
        return [inp for _, _, inp in store.games.inputs(gid)]
    finally:
        store.close()


@pytest.fixture
def runs(tmp_path):
    """``run --resume GID`` started as a new process each call; every one closed after the test."""
    started, phones = [], []

    def start(gid, store, speed, name):
        port = free_port()
        argv = ["--resume", str(gid), "--panel", "web", "--web", f"127.0.0.1:{port}", "--audio", "null"]
        argv += ["--speed", str(speed), "--store", str(store)]
        run = Run(argv, tmp_path, name)
        started.append(run)
        run.port = port
        return run

    def connect(run, seats):
        tokens = run.tokens()
        made = [Phone(run.port, seat, tokens[seat]) for seat in seats]
        phones.extend(made)
        return made

    yield start, connect
    for phone in phones:
        phone.close()
    for run in started:
        run.close()


def waits_then_goes_on(run, connect, living, path, gid, stored):
    """The resumed process waits while one living seat's phone is missing: nothing of the game
    (a press too) is taken; the last phone back, it goes on: returns every seat's phone."""
    *first, late = living
    phones = connect(run, first)
    run.until(lambda: run.printed(f"{WAITING} {len(first)} из {len(living)}") is not None)
    run.until(lambda: "window" in phones[0].view)
    phones[0].press()  # a press in the wait: its step has not begun again
    time.sleep(2.0)
    assert run.printed(RESUMED) is None
    assert inputs(path, gid) == stored  # nothing taken meanwhile
    phones += connect(run, [late])
    run.until(lambda: run.printed(RESUMED) is not None)
    assert run.printed(WAITING) < run.printed(RESUMED)
    return {phone.seat: phone for phone in phones}


def test_a_vote_killed_after_three_ballots_waits_for_the_phones_and_asks_again(tmp_path, runs):
    start, connect = runs
    path = tmp_path / "g.db"
    gid, game = stopped_in(path, lambda g: g.phase is Phase.VOTE_ANNOUNCE and len(g.state.candidates) >= 2)
    living = game.state.alive()
    # the first process: its phones, the vote, three ballots, then SIGKILL in the window
    first = start(gid, path, 1.0, "first")
    phones = {phone.seat: phone for phone in connect(first, living)}
    first.until(lambda: all(phone.vote_open() for phone in phones.values()))
    for seat in living[:3]:
        phones[seat].press()
    first.until(lambda: sum(isinstance(inp, Vote) for inp in inputs(path, gid)) == 3, timeout=10)
    assert first.kill() == -signal.SIGKILL
    stored = inputs(path, gid)
    assert isinstance(stored[-1], Vote)  # killed in the window, after its third ballot
    for phone in phones.values():
        phone.close()
    # resumed: new tokens; it waits for the phones, then asks the question again
    second = start(gid, path, 1.0, "second")
    phones = waits_then_goes_on(second, connect, living, path, gid, stored)
    second.until(lambda: all(phone.vote_open() for phone in phones.values()))
    question = second.printed("покинул игру?")
    assert question is not None and question > second.printed(RESUMED)
    for seat in living[3:]:
        phones[seat].press()
    second.until(
        lambda: {i.seat for i in inputs(path, gid) if isinstance(i, Vote)} == set(living), timeout=10
    )
    record = inputs(path, gid)
    assert record[: len(stored)] == stored  # the three ballots kept
    assert second.kill(signal.SIGTERM) == 0


def test_the_sheriffs_step_killed_after_his_check_waits_then_calls_again(tmp_path, runs):
    start, connect = runs
    path = tmp_path / "g.db"

    def sheriffs_step(g):
        return g.phase is Phase.NIGHT_CHECK and g.state.step_role is Role.SHERIFF

    gid, game = stopped_in(path, sheriffs_step)
    s = game.state
    living = s.alive()
    sheriff = next(seat for seat, role in s.roles.items() if role is Role.SHERIFF)
    first = start(gid, path, 1.0, "first")
    phones = {phone.seat: phone for phone in connect(first, living)}
    first.until(lambda: first.printed(RESUMED) is not None)
    # he presses until a number called takes it: a check of whoever is called then
    deadline = time.monotonic() + 30
    while len(stored := inputs(path, gid)) == len(game.record):
        assert time.monotonic() < deadline, first.lines()[-20:]
        phones[sheriff].press()
        time.sleep(0.3)
    assert isinstance(stored[-1], Check) and stored[-1].seat == sheriff
    assert first.kill() == -signal.SIGKILL
    for phone in phones.values():
        phone.close()
    second = start(gid, path, 1.0, "second")
    phones = waits_then_goes_on(second, connect, living, path, gid, stored)
    second.until(lambda: any("Просыпается" in line for line in second.lines()[second.printed(RESUMED) :]))
    woken = next(i for i, line in enumerate(second.lines()) if "Просыпается" in line)
    assert woken > second.printed(RESUMED)  # the step from its call, after the wait
    second.until(lambda: phones[sheriff].view.get("answer") is not None, timeout=10)
    assert phones[sheriff].view["answer"].endswith(f"(игрок {stored[-1].target})")
    assert second.kill(signal.SIGTERM) == 0
