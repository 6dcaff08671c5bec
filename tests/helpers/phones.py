"""A real ``run --panel web`` process and phones that play its seats over its sockets, for the
system tests that kill it and resume it: the phones ping as the seat page does, keep the last
view the device sent, and press with the step their view shows.

The process is ``python -m tests.helpers.phones run …``: ``host-device run`` itself, which also
writes each game's tokens to the file ``HOST_DEVICE_TEST_TOKENS`` names — a test's phones take
them from there as a player's phone takes its own from the QR code on the host's console."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.helpers.paths import ROOT

TOKENS = "HOST_DEVICE_TEST_TOKENS"
PING_S = 0.25  # as the seat page pings


def _tokens_told() -> None:
    """``run`` with its tokens written where the test reads them."""
    from host_device.cli.main import main
    from host_device.web.access import Access

    made = Access.new.__func__  # type: ignore[attr-defined]

    def told(cls, phone_seats, host=None):
        access = made(cls, phone_seats, host)
        path = Path(os.environ[TOKENS])
        path.with_suffix(".part").write_text(json.dumps({"host": access.host, "seats": access.seats}))
        path.with_suffix(".part").replace(path)
        return access

    Access.new = classmethod(told)
    sys.exit(main(sys.argv[1:]))


class Run:
    """``run`` in a process of its own: its stdout as lines, its tokens, its end."""

    def __init__(self, argv, tmp_path, name):
        self.tokens_file = tmp_path / f"{name}.tokens.json"
        self.out_path = tmp_path / f"{name}.out"
        env = {
            **os.environ,
            TOKENS: str(self.tokens_file),
            "HOST_DEVICE_MODEL": str(tmp_path / "no-model"),
            "HOST_DEVICE_CONFIG": str(tmp_path / "none.toml"),
        }
        (tmp_path / "none.toml").write_text("")
        self.out = self.out_path.open("w")
        self.err = (tmp_path / f"{name}.err").open("w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.helpers.phones", "run", *argv],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=self.out,
            stderr=self.err,
            start_new_session=True,
        )

    def lines(self):
        return self.out_path.read_text(encoding="utf-8", errors="replace").splitlines()

    def until(self, what, timeout=60.0):
        """Wait until ``what()`` is true (the process still running)."""
        deadline = time.monotonic() + timeout
        while not what():
            assert self.proc.poll() is None, (self.proc.returncode, self.stderr())
            assert time.monotonic() < deadline, f"timed out; the output:\n{chr(10).join(self.lines()[-30:])}"
            time.sleep(0.05)

    def printed(self, text):
        """The index of the first output line that holds ``text``, or None."""
        return next((i for i, line in enumerate(self.lines()) if text in line), None)

    def tokens(self):
        """This game's phones' tokens, once its pages are served."""
        self.until(lambda: self.tokens_file.exists() and self.printed("Пульт ведущего:") is not None)
        told = json.loads(self.tokens_file.read_text())
        return {int(seat): token for seat, token in told["seats"].items()}

    def stderr(self):
        self.err.seek(0)
        return self.err.read()

    def kill(self, sig=signal.SIGKILL):
        self.proc.send_signal(sig)
        status = self.proc.wait(30)
        self.out.close()
        return status

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
        self.out.close()
        self.err.close()


class Phone:
    """A seat's phone on ``ws://…/api/seat/N?t=TOKEN``: pings, keeps the last view, presses."""

    def __init__(self, port, seat, token):
        from websockets.sync.client import connect

        self.seat = seat
        self.view = {}
        self.started = time.monotonic()
        url = f"ws://127.0.0.1:{port}/api/seat/{seat}?t={token}"
        self.socket = connect(url, open_timeout=30).__enter__()  # closed by close()
        self.closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._ping, daemon=True).start()

    def ms(self):
        return (time.monotonic() - self.started) * 1000  # its performance.now()

    def _read(self):
        try:
            for text in self.socket:
                message = json.loads(text)
                if message.get("type") == "view":
                    self.view = message
        except Exception:  # the device went away
            pass
        self.closed.set()

    def _ping(self):
        while not self.closed.is_set():
            try:
                self.socket.send(json.dumps({"ping": self.ms()}))
            except Exception:
                return
            time.sleep(PING_S)

    def press(self):
        self.socket.send(json.dumps({"press": self.view["window"], "at": self.ms()}))

    def vote_open(self):
        vote = self.view.get("vote")
        return bool(vote and vote.get("open"))

    def close(self):
        self.closed.set()
        self.socket.close()


if __name__ == "__main__":
    _tokens_told()
