"""Every way of stopping a long-running command is quiet and leaves no
process behind: ``club web``, ``run --web`` after a club page was opened
(its pages' worker process started; and its club database's sender) and ``run --box --web`` between games
(the club's pages served while idle), each stopped by Ctrl-C (SIGINT to the
whole process group, as a terminal sends it), by SIGTERM (to the command
alone, as ``kill`` does), by SIGHUP (the terminal closed: to the whole group)
and by SIGKILL (to the command alone: nothing of it runs after): it ends with
0 (130 for Ctrl-C, as any command's; -9 for SIGKILL), says no
traceback, and once it has ended no process of its session is alive (the
worker and multiprocessing's helper included: checked in /proc; an exited
child that only waits for init to collect it is dead)."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from host_device.cli.main import main
from tests.helpers.paths import ROOT
from tests.helpers.postgres import fresh_database, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names
STOPS = {  # (signal, to the whole group)
    "ctrl-c": (signal.SIGINT, True),
    "sigterm": (signal.SIGTERM, False),
    "sighup": (signal.SIGHUP, True),
    "sigkill": (signal.SIGKILL, False),
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_of(pid):
    """The living processes of session ``pid`` (a zombie is dead: init collects it)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # state ppid pgrp session …
        if int(fields[3]) == pid and fields[0] != "Z":
            found[int(entry.name)] = cmdline
    return found


def page(url, deadline_s=60.0):
    """The page's text, asked until the server answers."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                return answer.read().decode()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def stopped(command, url, stop, tmp_path, expect):
    """Start ``command`` in a session of its own, open ``url`` (a club page: the worker starts),
    stop it the ``stop`` way; returns (its exit status, its stderr, the processes left)."""
    env = {
        **os.environ,
        "HOST_DEVICE_MODEL": str(tmp_path / "no-model"),
        "HOST_DEVICE_CONFIG": str(tmp_path / "none.toml"),
    }
    (tmp_path / "none.toml").write_text("")
    err = (tmp_path / "stderr.txt").open("w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_device", *command],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=err,
        start_new_session=True,
    )
    try:
        assert expect in page(url)
        deadline = time.monotonic() + 30
        while not any("spawn_main" in cmd for cmd in session_of(proc.pid).values()):
            assert time.monotonic() < deadline, "the club pages' worker never started"
            time.sleep(0.1)
        sig, group = STOPS[stop]
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        status = proc.wait(30)
        deadline = time.monotonic() + 10  # a child of a killed command may take a moment to see it
        while session_of(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = session_of(proc.pid)
    finally:
        for pid in session_of(proc.pid):  # a failed run's: never left to the next test
            os.kill(pid, signal.SIGKILL)
        proc.wait(30)
        err.seek(0)
        text = err.read()
        err.close()
    return status, text, left


def assert_quiet(status, stderr, left, stop):
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    expected = {"ctrl-c": 130, "sigkill": -signal.SIGKILL}.get(stop, 0)
    assert status == expected, stderr
    assert left == {}, left


@pytest.mark.parametrize("stop", STOPS)
def test_run_with_pages_stops_quietly_after_a_club_page(stop, tmp_path):
    port = free_port()
    command = ["run", "--web", f"127.0.0.1:{port}", "--panel", "mock", "--audio", "null"]
    command += ["--store", str(tmp_path / "g.db"), "--new"]
    command += ["--club-db", f"postgresql://club:x@127.0.0.1:{free_port()}/club"]  # its sender's process too
    status, stderr, left = stopped(command, f"http://127.0.0.1:{port}/club", stop, tmp_path, "Клуб")
    assert_quiet(status, stderr, left, stop)


@pytest.mark.parametrize("stop", STOPS)
def test_the_box_between_games_serves_the_club_pages_and_stops_quietly(stop, tmp_path):
    port = free_port()
    command = ["run", "--box", "--web", f"127.0.0.1:{port}", "--panel", "mock", "--audio", "null"]
    command += ["--store", str(tmp_path / "g.db")]
    status, stderr, left = stopped(command, f"http://127.0.0.1:{port}/club", stop, tmp_path, "Клуб")
    assert_quiet(status, stderr, left, stop)


@pytest.mark.parametrize("stop", STOPS)
def test_club_web_stops_quietly(stop, tmp_path, fresh_database, capsys):
    assert main(["club", "init", "--club-db", fresh_database]) == 0
    port = free_port()
    command = ["club", "web", "--club-db", fresh_database, "--listen", f"127.0.0.1:{port}"]
    status, stderr, left = stopped(command, f"http://127.0.0.1:{port}/club", stop, tmp_path, "Клуб")
    assert_quiet(status, stderr, left, stop)
