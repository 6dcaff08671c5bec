"""The recogniser in a process of its own, so that decoding never shares the
scheduler's interpreter.

At the table, vosk's decoding and the Python work around it ran on the
listening thread of the process that keeps the timers: on a Pi-class CPU
the scheduler waited for the interpreter, and «Время!» came up to 20 ms late.
Here the model lives in a child process (``python -m
host_device.listening.decoder MODEL``) at a lower CPU priority, fed audio
blocks over a pipe; :class:`DecoderProcess` and :class:`RemoteRecogniser`
offer the same calls as ``SpeechModel`` and vosk's recogniser
(``AcceptWaveform``, ``PartialResult``, ``Result``, ``FinalResult``,
``Reset``), so the listener is the same code in and out of process.

A block's partial result comes back with its acceptance (one round trip a
block); a final result is asked for when the listener wants it. The model is
loaded once, in the child only. A child that dies makes the next call raise
:class:`RecogniserLost`; :meth:`DecoderProcess.restart` starts a new one
(the listener does so, and says it once).

Frames, both ways: one byte (the call, or ``o``/``e`` for an answer), four
bytes of the recogniser's number, four of the payload's length, the payload.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from host_device.base.errors import HostDeviceError
from host_device.base.stopping import deaf_to_stops

HEADER = struct.Struct("<cII")
CALL_TIMEOUT_S = 60.0  # a call not answered in this long (a hung or stopped child) is a lost decoder
START_TIMEOUT_S = 300.0  # loading the model (a Pi from an SD card is slow)
# the decoder yields the CPU to the process that keeps the timers; not SCHED_IDLE, nor nice 19,
# which starve it whenever something else is busy (seen: 15 s without an answer under a test run)
NICE = 10
READY = b"ready"


class RecogniserLost(HostDeviceError, ConnectionError):
    """The decoding process ended (killed, crashed, out of memory)."""


class DecoderStartError(HostDeviceError, RuntimeError):
    """The decoding process could not start: the message is its one line."""


def _send(pipe: BinaryIO, op: bytes, ident: int, payload: bytes) -> None:
    pipe.write(HEADER.pack(op, ident, len(payload)) + payload)
    pipe.flush()


def _receive(pipe: BinaryIO) -> tuple[bytes, int, bytes] | None:
    head = pipe.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    op, ident, size = HEADER.unpack(head)
    payload = pipe.read(size) if size else b""
    if len(payload) < size:
        return None
    return op, ident, payload


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd: int, size: int, deadline: float) -> bytes | None:
    """``size`` bytes from ``fd``; None at its end; TimeoutError past ``deadline`` (monotonic)."""
    chunks, got = [], 0
    while got < size:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(fd, size - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _answer_from(fd: int, seconds: float) -> tuple[bytes, int, bytes] | None:
    """One frame from the child within ``seconds``; None when the pipe ended."""
    deadline = time.monotonic() + seconds
    head = _read_exactly(fd, HEADER.size, deadline)
    if head is None:
        return None
    op, ident, size = HEADER.unpack(head)
    payload = _read_exactly(fd, size, deadline) if size else b""
    return None if payload is None else (op, ident, payload)


class DecoderProcess:
    """The speech model in a child process: ``knows``, ``unknown_words`` and
    ``recogniser`` as on :class:`~host_device.listening.speech_model.SpeechModel`."""

    def __init__(self, path: Path, nice: int = NICE, launcher: Sequence[str] = ()) -> None:
        """``launcher``: a command the child is started through (``taskset -c 1``, a CPU quota of
        its own in bench/listen_latency.py); the decoder's own pid is the one it reports."""
        from host_device.listening.speech_model import find_model

        self.path = find_model(path)  # a missing model is named before a process is started
        self.nice = nice
        self.launcher = list(launcher)
        self._pid: int | None = None
        self.starts = 0  # processes started: 1 plus the restarts
        self._lock = threading.RLock()  # restart ends and starts under it
        self._proc: subprocess.Popen[bytes] | None = None
        self._start()

    # ---------------------------------------------------------------- the process

    def _start(self) -> None:
        child = [sys.executable, "-m", "host_device.listening.decoder", str(self.path), str(self.nice)]
        command = [*self.launcher, *child]
        root = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PYTHONPATH": path}
        self._proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            bufsize=0,  # raw pipes: select() sees what is there, nothing waits in a buffer
            start_new_session=True,  # a group of its own: killed whole, the launcher's children too
        )
        self.starts += 1
        assert self._proc.stdout is not None
        try:
            answer = _answer_from(self._proc.stdout.fileno(), START_TIMEOUT_S)
        except TimeoutError:
            self._end(kill=True)
            late = f"the decoding process did not load the model in {START_TIMEOUT_S:.0f} s"
            raise DecoderStartError(late) from None
        if answer is None or answer[0] != b"o":
            from host_device.listening.speech_model import ModelMissing

            ended = "the decoding process ended at its start"
            message = answer[2].decode("utf-8", "replace") if answer else ended
            self._end()
            raise (ModelMissing if answer and answer[0] == b"m" else DecoderStartError)(message)
        try:
            self._pid = int(answer[2].removeprefix(READY))  # "ready" and the decoder's pid
        except ValueError:
            self._end(kill=True)
            said = f"процесс распознавания при запуске ответил {answer[2][:40]!r}, а не «ready» и свой номер"
            raise DecoderStartError(said) from None

    @property
    def pid(self) -> int | None:
        """The decoding process's own (under a launcher, not the launcher's)."""
        return self._pid  # None until it has said ready, and again once it has ended

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def restart(self) -> None:
        """A new child (the old one is ended first); DecoderStartError when it cannot start."""
        with self._lock:
            self._end()
            self._start()

    def close(self) -> None:
        with self._lock:
            self._end()

    def _end(self, kill: bool = False) -> None:
        """Close its pipes (a decoder that reads them ends by itself); kill its whole process
        group when asked or when it has not ended in 2 s (a hung decoder under a launcher that
        waits for it: killing the launcher alone would leave the model in memory)."""
        proc, self._proc, self._pid = self._proc, None, None
        if proc is None:
            return
        if kill:
            _kill_group(proc)
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            proc.wait()

    def rss_mb(self) -> float:
        """The child's resident memory (for the benchmarks)."""
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except (OSError, TypeError):
            pass
        return float("nan")

    def call(self, op: bytes, ident: int = 0, payload: bytes = b"") -> bytes:
        with self._lock:
            proc = self._proc
            if proc is None or proc.stdin is None or proc.stdout is None:
                raise RecogniserLost("процесс распознавания не запущен")
            try:
                _write_all(proc.stdin.fileno(), HEADER.pack(op, ident, len(payload)) + payload)
                answer = _answer_from(proc.stdout.fileno(), CALL_TIMEOUT_S)
            except TimeoutError:
                self._end(kill=True)
                late = f"процесс распознавания не ответил за {CALL_TIMEOUT_S:.0f} с"
                raise RecogniserLost(late) from None
            except (BrokenPipeError, OSError, ValueError):
                answer = None
            if answer is None:
                try:
                    code: int | None = proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    code = None
                raise RecogniserLost(f"процесс распознавания завершился (код {code})")
            if answer[0] == b"e":
                raise HostDeviceError(answer[2].decode("utf-8", "replace"))
            return answer[2]

    # ---------------------------------------------------------------- SpeechModel's calls

    def knows(self, word: str) -> bool:
        return self.call(b"K", 0, word.encode("utf-8")) == b"1"

    def unknown_words(self, words: Iterable[str]) -> list[str]:
        return sorted({w for w in words if not self.knows(w)})

    def recogniser(
        self, rate: int = 16000, grammar: list[str] | None = None, partial_words: bool = False
    ) -> RemoteRecogniser:
        spec = json.dumps({"rate": rate, "grammar": grammar, "partial_words": partial_words})
        ident = int(self.call(b"N", 0, spec.encode("utf-8")))
        return RemoteRecogniser(self, ident)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # the group is the child's own (start_new_session)


class RemoteRecogniser:
    """vosk's recogniser calls, carried out in the decoding process."""

    def __init__(self, process: DecoderProcess, ident: int) -> None:
        self.process, self.ident = process, ident
        self._partial: str | None = None  # the partial result that came back with the last block

    def AcceptWaveform(self, samples: bytes) -> bool:  # vosk's names
        answer = self.process.call(b"A", self.ident, bytes(samples))
        if answer[:1] == b"1":
            self._partial = None
            return True
        self._partial = answer[1:].decode("utf-8")
        return False

    def PartialResult(self) -> str:
        if self._partial is not None:
            return self._partial
        return self.process.call(b"P", self.ident).decode("utf-8")

    def Result(self) -> str:
        return self.process.call(b"R", self.ident).decode("utf-8")

    def FinalResult(self) -> str:
        self._partial = None
        return self.process.call(b"F", self.ident).decode("utf-8")

    def Reset(self) -> None:
        self._partial = None
        self.process.call(b"Z", self.ident)

    def close(self) -> None:
        """Free it in the decoder (a box makes one a game); nothing when the decoder is gone."""
        with contextlib.suppress(HostDeviceError):
            self.process.call(b"X", self.ident)


# ---------------------------------------------------------------- the child


def serve(path: str, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """The child's loop: load the model, say ready (or the one line why not), answer calls."""
    from host_device.listening.speech_model import ModelMissing, SpeechModel

    try:
        model = SpeechModel(Path(path))
    except ModelMissing as exc:
        _send(stdout, b"m", 0, str(exc).encode("utf-8"))
        return 2
    except Exception as exc:  # a library that cannot load (one line already), memory, anything
        text = str(exc) if isinstance(exc, HostDeviceError) else f"the speech model did not load: {exc!r}"
        _send(stdout, b"e", 0, text.encode("utf-8"))
        return 2
    _send(stdout, b"o", 0, READY + str(os.getpid()).encode())
    recognisers: dict[int, Any] = {}
    while True:
        request = _receive(stdin)
        if request is None:
            return 0  # the parent closed the pipe
        op, ident, payload = request
        try:
            answer = _answer(model, recognisers, op, ident, payload)
        except Exception as exc:  # one bad call is answered, the decoder goes on
            _send(stdout, b"e", ident, f"decoder: {type(exc).__name__}: {exc}".encode())
            continue
        _send(stdout, b"o", ident, answer)


def _answer(model: Any, recognisers: dict[int, Any], op: bytes, ident: int, payload: bytes) -> bytes:
    if op == b"A":
        rec = recognisers[ident]
        if rec.AcceptWaveform(payload):
            return b"1"
        return b"0" + str(rec.PartialResult()).encode("utf-8")
    if op == b"P":
        return str(recognisers[ident].PartialResult()).encode("utf-8")
    if op == b"R":
        return str(recognisers[ident].Result()).encode("utf-8")
    if op == b"F":
        return str(recognisers[ident].FinalResult()).encode("utf-8")
    if op == b"Z":
        recognisers[ident].Reset()
        return b""
    if op == b"X":
        recognisers.pop(ident, None)
        return b""
    if op == b"K":
        return b"1" if model.knows(payload.decode("utf-8")) else b"0"
    if op == b"N":
        spec = json.loads(payload)
        number = max(recognisers, default=0) + 1
        recognisers[number] = model.recogniser(spec["rate"], spec["grammar"], spec["partial_words"])
        return str(number).encode()
    raise ValueError(f"unknown call {op!r}")


def main(argv: list[str]) -> int:
    deaf_to_stops()  # the parent's to act on: it closes the pipe
    if len(argv) > 1:
        with contextlib.suppress(OSError, ValueError):
            os.nice(int(argv[1]))
    # the frames go out on a copy of fd 1; fd 1 itself goes where stderr goes, so that a stray
    # print of a library can never put bytes between two frames
    frames = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    return serve(argv[0], sys.stdin.buffer, frames)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
