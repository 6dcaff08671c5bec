"""Pages in a real browser for tests: Debian's Chromium driven by Playwright,
and ``run --panel web --web`` hosted on loopback (every seat a phone)."""

import contextlib
import io
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextlib.contextmanager
def chromium():
    assert Path(CHROMIUM).exists(), "./run test installs Debian's chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def phones_hosted(monkeypatch, tmp_path, speed, **settings):
    """A game hosted with phones for every seat on a ``speed`` times fast clock
    (the runtime's settings changed by ``settings``): yields the host, the
    pages' address and the tokens."""
    import dataclasses

    from host_device.session.host import Host
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))  # the words are typed
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(
        args(
            panel="web", web="127.0.0.1:0", audio="null", speed=speed, days=None, store=str(tmp_path / "g.db")
        )
    )
    host.runtime.settings = dataclasses.replace(host.runtime.settings, **settings)
    thread = threading.Thread(target=host.run, daemon=True)
    thread.start()
    while host.publisher is None or not host.web_server.server.started:
        thread.join(0.02)
        assert thread.is_alive()
    bound, port = host.web_server.server.servers[0].sockets[0].getsockname()[:2]
    try:
        yield host, f"http://{bound}:{port}", host.publisher.private.access
    finally:
        host.runtime.stop()
        thread.join(30)
