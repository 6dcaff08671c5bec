"""The pages' server under attack (host_device/web/guard.py), on a real
server on loopback with real sockets and small limits: idle connections and
unfinished heads closed in time, an oversized head answered, strangers'
connections unable to lock out the console and the phones, and the
descriptors running out said a bounded number of times."""

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from host_device.web.limits import Limits
from tests.helpers.paths import ROOT
from tests.helpers.web import on_loopback

WS_HEAD = (
    "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def closed_within(sock: socket.socket, seconds: float) -> tuple[bytes, float]:
    """What the server sent until it closed the connection, and when it closed it."""
    start = time.monotonic()
    sock.settimeout(seconds)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        pytest.fail(f"still open after {seconds} s; received {got[:80]!r}")
    return got, time.monotonic() - start


def get(port: int, path: str, timeout: float = 5.0, **headers: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_an_idle_connection_and_an_unfinished_head_are_closed_in_time(builtin_pack):
    with on_loopback(Limits(head_timeout_s=0.5, keep_alive_s=1)) as (port, _, _):
        idle = socket.create_connection(("127.0.0.1", port))
        unfinished = socket.create_connection(("127.0.0.1", port))
        unfinished.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        answered = socket.create_connection(("127.0.0.1", port))
        answered.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        for sock in (idle, unfinished):
            got, after = closed_within(sock, 5)
            assert got == b"" and after < 3
        got, after = closed_within(answered, 5)  # answered, then closed by the keep-alive timeout
        assert got.startswith(b"HTTP/1.1 200 ") and b'"phase": "roles"' in got and after < 4
        for sock in (idle, unfinished, answered):
            sock.close()


def test_an_oversized_head_is_answered_and_closed(builtin_pack):
    with on_loopback(Limits(head_timeout_s=30)) as (port, _, _):
        upgrade = socket.create_connection(("127.0.0.1", port))
        upgrade.sendall(f"GET /api/events?x={'a' * 9000} HTTP/1.1\r\n{WS_HEAD}".encode())
        got, after = closed_within(upgrade, 5)
        assert got.split(b" ")[1] in (b"414", b"431", b"400") and after < 3
        long_head = socket.create_connection(("127.0.0.1", port))
        long_head.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 6000)
        long_head.sendall(b"a" * 6000)  # past 8 KB with no end of the head
        got, after = closed_within(long_head, 5)
        assert got.split(b" ")[1] in (b"431", b"400") and after < 3
        upgrade.close()
        long_head.close()


def test_strangers_filling_the_connections_do_not_lock_out_the_console_and_the_phones(builtin_pack):
    limits = Limits(connections=40, public=20, head_timeout_s=30)
    with on_loopback(limits) as (port, access, _), contextlib.ExitStack() as stack:
        base = f"ws://127.0.0.1:{port}"
        for _ in range(20):  # the table page's stream, twenty times: the public share is full
            stack.enter_context(connect(f"{base}/api/events", open_timeout=5))
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(60)]
        for sock in idle:
            stack.callback(sock.close)
        status, text = get(port, "/api/state")
        assert status == 503 and "перегружен" in text
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{base}/api/events", open_timeout=5)
        assert refused.value.response.status_code == 503
        seat = f"/seat/3?t={access.seats[3]}"
        assert get(port, seat)[0] == 200
        assert get(port, "/static/common.js", Referer=f"http://127.0.0.1:{port}{seat}")[0] == 200
        assert get(port, f"/host?t={access.host}")[0] == 200
        with connect(f"{base}/api/seat/3?t={access.seats[3]}", open_timeout=5) as phone:
            assert json.loads(phone.recv(timeout=5))["seat"] == 3
        with connect(f"{base}/api/host?t={access.host}", open_timeout=5) as console:
            assert json.loads(console.recv(timeout=5))["type"] == "view"
        closed = 0
        for sock in idle[:-1]:  # the strangers' idle connections made room: closed
            sock.settimeout(5)
            with contextlib.suppress(ConnectionResetError):
                closed += sock.recv(1) == b""
        assert closed == len(idle) - 1


SERVER = """
import logging, resource, sys
logging.basicConfig(format="host-device: warning: %(message)s", level=logging.WARNING)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
from engine import Game
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.public import PublicStream
from host_device.web.publisher import Publisher
from host_device.web.server import WebServer
from voices.catalogue import russian

runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0)
server = WebServer(Publisher(PublicStream(runtime, russian().text)), "127.0.0.1", 0)
print(server.start()[1], flush=True)
held = []
for line in sys.stdin:
    if line.strip() == "fill":  # every descriptor taken: the listener cannot accept
        try:
            while True:
                held.append(open("/dev/null"))
        except OSError:
            print("full", flush=True)
    elif line.strip() == "free":
        for file in held:
            file.close()
        held.clear()
        print("free", flush=True)
server.stop()
"""


@contextlib.contextmanager
def server_under_a_descriptor_limit(tmp_path):
    """The pages served in a child process whose descriptor limit is 256: its port, its stdin and stdout,
    and the lines of its log (stderr, read as they come)."""
    script = tmp_path / "server.py"
    script.write_text(SERVER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    log: list[str] = []
    reader = threading.Thread(target=lambda: log.extend(proc.stderr), daemon=True)
    reader.start()
    try:
        port = int(proc.stdout.readline())
        yield port, proc, log
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(10)


@pytest.mark.slow
def test_a_flood_of_idle_connections_under_the_descriptor_limit_leaves_the_pages_served(tmp_path):
    with server_under_a_descriptor_limit(tmp_path) as (port, _, log):
        flood = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(260)]
        try:
            status, text = get(port, "/api/state", timeout=5)
            assert status == 200 and json.loads(text)["phase"] == "roles"
        finally:
            for sock in flood:
                sock.close()
    assert not [line for line in log if "Too many open files" in line], log[:5]
    said = [line for line in log if "перегружены" in line]  # the flood: one line, not one per connection
    assert len(said) == 1 and "подключений больше" in said[0], log[:5]


@pytest.mark.slow
def test_descriptors_running_out_are_said_a_bounded_number_of_times_and_the_pages_come_back(tmp_path):
    with server_under_a_descriptor_limit(tmp_path) as (port, proc, log):
        proc.stdin.write("fill\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "full\n"
        waiting = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
        deadline = time.monotonic() + 10
        while not any("Too many open files" in line for line in log):
            assert time.monotonic() < deadline, log
            time.sleep(0.05)
        time.sleep(2.5)  # asyncio tries to accept again every second: let it try twice more
        proc.stdin.write("free\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "free\n"
        status, _ = get(port, "/api/state", timeout=10)
        assert status == 200
        for sock in waiting:
            sock.close()
    said = [line for line in log if "Too many open files" in line]
    assert len(said) == 1, f"{len(said)} lines: {said[:3]}"
    assert said[0].startswith("host-device: warning: страницы не принимают новые подключения")
    assert "Traceback" not in "".join(log)
