"""``club web``'s server (host_device/web/club_serve.py) under attack, with
a real club database: a flood of slow connections does not stop its pages
and is one line in its log; a database gone away is one line on the page
(«база клуба недоступна») and its address only in the log; a name with a
NUL in it is a 404, not a database error (issue 46 items 6, 7, 8)."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

from host_device.clubdb.db import ClubDB
from host_device.web.club_pages import club_app
from host_device.web.club_worker import ClubPages
from tests.helpers.paths import ROOT
from tests.helpers.postgres import fresh_database, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names

SERVER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
from host_device.cli.main import set_up_logging
from host_device.web.club_serve import serve_club

if __name__ == "__main__":  # the pages' worker is spawned: it reads this file again
    set_up_logging()
    try:
        serve_club(sys.argv[1], "127.0.0.1", 0, lambda line: print(line, flush=True))
    except KeyboardInterrupt:  # closed by now; main() says «остановлено» and exits 130
        sys.exit(130)
"""


@contextlib.contextmanager
def club_web(tmp_path, url):
    """``club web``'s server in a child process whose descriptor limit is 256: its port and its log."""
    script = tmp_path / "club_web.py"
    script.write_text(SERVER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), url],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # this tree's host_device, whatever is installed
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    log: list[str] = []
    reader = threading.Thread(target=lambda: log.extend(proc.stderr), daemon=True)
    reader.start()
    try:
        line = proc.stdout.readline()
        assert line.startswith("Страницы клуба: http://127.0.0.1:"), line + "".join(log)
        yield int(line.split()[2].split(":")[2].split("/")[0]), log
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(10)


def get(port: int, path: str, timeout: float) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def slow_flood(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that each send the start of a request's head, and no more."""
    flood = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect(("127.0.0.1", port))
            flood.append(sock)
        time.sleep(0.3)
        for sock in flood:
            with contextlib.suppress(OSError):
                sock.send(b"GET /club HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    except BaseException:
        for sock in flood:
            sock.close()
        raise
    return flood


@pytest.mark.slow
def test_a_flood_of_slow_connections_leaves_club_webs_pages_served_and_is_one_line(tmp_path, fresh_database):
    with ClubDB.open(fresh_database) as db:
        db.init()
    with club_web(tmp_path, fresh_database) as (port, log):
        for _ in range(100):  # the address is printed just before the server listens
            with contextlib.suppress(urllib.error.URLError):
                first = get(port, "/club", timeout=30)
                assert first[0] == 200, (first[1][-300:], log)  # the worker has started
                break
            time.sleep(0.1)
        for _ in range(2):  # two waves, the second while the first is still held
            flood = slow_flood(port, 300)
            try:
                start = time.monotonic()
                status, page = get(port, "/club", timeout=5)
                assert status == 200 and "<table" in page and time.monotonic() - start < 2
            finally:
                for sock in flood:
                    sock.close()
    said = [line for line in log if "подключ" in line]
    assert len(said) == 1, log[:5]
    assert said[0].startswith("host-device: внимание: страницы перегружены")
    assert "Traceback" not in "".join(log)


@pytest.mark.slow
def test_a_database_away_is_said_on_the_page_without_its_address(postgres_server, caplog):
    url = postgres_server.url("club").replace(str(postgres_server.port), "1")
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=url)
    with TestClient(club_app(pages)) as client:
        pages_seen = [client.get(path) for path in ("/club", "/club", "/tournament/Кубок", "/player/x")]
    for page in pages_seen:
        assert page.status_code == 503 and "база клуба недоступна" in page.text.lower()
        assert "postgresql" not in page.text and "127.0.0.1" not in page.text and ":1/" not in page.text
    said = [
        r.getMessage() for r in caplog.records if "postgresql://club:***@127.0.0.1:1/club" in r.getMessage()
    ]
    assert len(said) == 1, said  # said once while it stays away
    assert "secret" not in caplog.text


@pytest.mark.slow
def test_a_nul_or_a_huge_number_is_a_404_from_the_club_database(fresh_database, caplog):
    with ClubDB.open(fresh_database) as db:
        db.init()
    pages = ClubPages(None, pool=ThreadPoolExecutor(1), database=fresh_database)
    with TestClient(club_app(pages)) as client:
        for path in (
            "/tournament/%00",
            "/tournament/a%00b",
            "/player/%00",
            f"/tournament/{'я' * 5000}",
            f"/tournament/Кубок?round={'9' * 5000}",
            "/tournament/Кубок?round=%00",
            f"/game/{'9' * 5000}",
            f"/game/{'9' * 20}",
            f"/player/{'9' * 5000}",
            f"/club?from={'9' * 5000}",
            "/club?preset=%00",
        ):
            page = client.get(path)
            assert page.status_code in (400, 404), (path[:40], page.status_code, page.text[:200])
            assert "postgresql" not in page.text
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
