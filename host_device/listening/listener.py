"""The listening path: microphone blocks -> vosk -> intents, on its own thread.

The decoding thread takes blocks from the microphone's queue (so capture
never waits for it), feeds the recogniser of the open listening window, and
puts what it hears on the runtime's queue: transcripts, intents, and a
warning when it falls behind real time.

At the table the model is a :class:`~host_device.listening.decoder.DecoderProcess`:
the decoding runs in a process of its own, and this thread only moves
blocks to it and results back. When that process dies, the listener says so
(:class:`HearingLost`), starts a new one and says that (:class:`HearingBack`),
or, when it cannot, :class:`HearingGone`; the game goes on meanwhile.

Everything of the recogniser — making it, resetting it, feeding it,
finishing an utterance — happens on that thread: the runtime's
:meth:`Listener.open_window` and :meth:`Listener.close_window` only leave a
note for it, so the scheduler's thread never waits on vosk. One recogniser
serves every window; it is reset between windows, so words of two speakers
never join.

While the device speaks (and for GATE_TAIL_S after), audio is discarded: the
current utterance is closed, the recogniser reset, and words before and
after the announcement never join, so "Игрок номер семь, ваша минута" is
never heard as a nomination.
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass
from typing import Any, Protocol

from engine.steps import Listen
from hardware.events import Clock
from hardware.microphone import AudioBlock, Microphone
from hardware.speaker import Playback
from host_device.base.errors import HostDeviceError
from host_device.listening.decoder import DecoderProcess, RecogniserLost
from host_device.listening.hearing import FORBIDDEN_CONF, Heard, IntentTracker, PartialText, words_of
from host_device.listening.intents import IntentPatterns
from host_device.listening.speech_model import SpeechModel

GATE_TAIL_S = 0.3  # the room's echo and the speaker's own tail
DROP_AFTER_S = 60.0  # a recogniser's front end holds every frame: dropped at the first pause after this
BEHIND_S = 1.0  # decoding this far behind the audio is reported
VOICE_EVERY_S = 0.5  # at most one Voice this often
FORGET_AFTER_S = 60.0  # the gate forgets a playback whose tail ended this long before the latest time it saw


@dataclass(frozen=True)
class Transcript:
    text: str
    final: bool
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "final": self.final, "at": round(self.at, 3)}


@dataclass(frozen=True)
class Voice:
    """Words heard in the open window: the recogniser took a new word from
    the speaker at ``at`` (a new word of a partial or final result; at most
    one a VOICE_EVERY_S). What the runtime watches after «Время!»."""

    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"voice": round(self.at, 3)}


@dataclass(frozen=True)
class ListeningBehind:
    lag_s: float
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"behind_s": round(self.lag_s, 3), "at": round(self.at, 3)}


@dataclass(frozen=True)
class HearingLost:
    """The decoding process ended; a new one is being started."""

    reason: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"hearing": "lost", "reason": self.reason, "at": round(self.at, 3)}


@dataclass(frozen=True)
class HearingBack:
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"hearing": "back", "at": round(self.at, 3)}


@dataclass(frozen=True)
class HearingGone:
    """No decoding process could be started again: the listener has stopped."""

    reason: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"hearing": "gone", "reason": self.reason, "at": round(self.at, 3)}


ListenEvent = Heard | Transcript | Voice | ListeningBehind | HearingLost | HearingBack | HearingGone


class Sink(Protocol):
    """Where the listener puts what it hears (the session's inbox, a test's queue)."""

    def put(self, item: ListenEvent, /) -> None: ...


RESTART_TRIES = 3  # a decoder that cannot be started this many times in a row is given up
RESTART_WAIT_S = 1.0
LOSS_WINDOW_S = 300.0  # a decoder lost more than RESTART_TRIES times in this long is given up


class Gate:
    """The times the device itself is heard: each playback from its start to
    its end (still open while it plays) plus a tail.

    It forgets by itself: a playback whose end and tail lie more than
    FORGET_AFTER_S before the latest time it has seen (a block asked about,
    a playback's own times) is dropped whenever one is added or a block is
    asked about, so an evening of phrases leaves the last minute's, not
    thousands scanned on every microphone block. The margin is far more
    than the listener runs behind the microphone (it says so past BEHIND_S);
    a block a minute late is too late to count anyway. A playback still
    playing is never forgotten."""

    def __init__(self, tail_s: float = GATE_TAIL_S) -> None:
        self.tail_s = tail_s
        self._playbacks: list[Playback] = []
        self._latest = float("-inf")  # the latest clock time the gate has seen
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many playbacks the gate still holds."""
        with self._lock:
            return len(self._playbacks)

    def add(self, playback: Playback) -> None:
        with self._lock:
            self._playbacks.append(playback)
            self._forget(max((p.ended for p in self._playbacks if p.ended is not None), default=self._latest))

    def covers(self, start: float, end: float) -> bool:
        with self._lock:
            self._forget(start)
            for p in self._playbacks:
                begin = p.started if p.started is not None else p.handed_at
                if begin is None:
                    if p.ended is not None:
                        continue  # stopped before it was handed to the speaker: it never sounded
                    return True  # handed to the speaker, not yet playing: the device is about to speak
                finish = float("inf") if p.ended is None else p.ended + self.tail_s
                if start < finish and end > begin:
                    return True
            return False

    def _forget(self, seen: float) -> None:
        self._latest = max(self._latest, seen)
        horizon = self._latest - FORGET_AFTER_S
        if any(p.ended is not None and p.ended + self.tail_s < horizon for p in self._playbacks):
            kept = [p for p in self._playbacks if p.ended is None or p.ended + self.tail_s >= horizon]
            self._playbacks = kept


class Listener:
    def __init__(
        self,
        model: SpeechModel | DecoderProcess,
        microphone: Microphone,
        patterns: IntentPatterns,
        seats: int,
        out: Sink,
        clock: Clock,
        gate: Gate | None = None,
        behind_s: float | None = BEHIND_S,
        partials: bool = False,
        partial_words: bool = False,
        forbidden_conf: float = FORBIDDEN_CONF,
    ) -> None:
        self.model = model
        self.microphone = microphone
        self.patterns = patterns
        self.seats = seats
        self.out = out
        self.clock = clock
        self.gate = gate if gate is not None else Gate()  # an empty Gate is falsy (it has a length)
        self.behind_s = behind_s
        self.partials = partials
        self.partial_words = partial_words  # word times in partials: slower (see SpeechModel.recogniser)
        self.forbidden_conf = forbidden_conf
        self._voice_at = float("-inf")  # the last Voice reported
        self._words = 0  # words of the utterance's latest result (a new one is a Voice)
        self.rate = microphone.rate
        self.fed_bytes = 0  # audio the recogniser has taken (for tests and benchmarks)
        self.recognisers = 0  # recognisers made: one for the listener's life
        self._lock = threading.Lock()
        self._notes: queue.SimpleQueue[Listen | None] = queue.SimpleQueue()  # open (what for) / close
        self._rec: Any = None
        self._text = PartialText()
        self._tracker: IntentTracker | None = None  # a window is open while it has a tracker
        self._offset: float | None = None  # clock time of the recogniser's audio second 0, this utterance
        self._fed_s = 0.0  # audio the recogniser has taken in its life: its word times count from there
        self._since_drop_s = 0.0  # audio in its front end (it keeps every frame until it is finalized)
        self._behind = False
        self._losses: list[float] = []  # when the decoder was lost (a crash loop is given up)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- windows

    def open_window(self, listens: Listen = Listen.SPEECH) -> None:
        """Start listening for what the step listens for (a speech, a turn of
        the city's nomination round, a justification, the last word that has
        a best move: each with its patterns). Any thread, at once: the
        listening thread opens it before the next block."""
        self._note(listens)

    def close_window(self) -> None:
        """Stop listening; what was said up to now is heard to the end (on the listening thread)."""
        self._note(None)

    def _note(self, what: Listen | None) -> None:
        self._notes.put(what)
        if self._thread is None:  # no thread (a file read by drain): carried out here
            self._take_notes()

    def _take_notes(self) -> None:
        while True:
            try:
                what = self._notes.get_nowait()
            except queue.Empty:
                return
            with self._lock:
                self._end_window()
                if what is not None:
                    self._start_window(what)

    def _recogniser(self) -> Any:
        if self._rec is None:
            self._rec = self.model.recogniser(self.rate, partial_words=self.partial_words)
            self.recognisers += 1
        return self._rec

    def _start_window(self, listens: Listen) -> None:
        self._recogniser()
        self._tracker = IntentTracker(
            self.patterns.heard_in(listens), self.seats, forbidden_conf=self.forbidden_conf
        )
        self._text.clear()
        self._offset, self._words = None, 0

    def _end_window(self) -> None:
        if self._tracker is None:
            return
        self._close_utterance()  # the next window starts clean: nothing of this speaker carries over
        self._tracker = None

    # ---------------------------------------------------------------- the thread

    def start(self) -> None:
        self._stop.clear()
        self.microphone.start()
        self._thread = threading.Thread(target=self._run, name="listener", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self.microphone.stop()
        try:
            self._take_notes()
        except HostDeviceError:  # the decoder is gone: what it held is lost, the listener stops all the same
            self._tracker = None
        rec, self._rec = self._rec, None
        if rec is not None and hasattr(rec, "close"):  # a decoder's recogniser: freed there
            rec.close()

    def _run(self) -> None:
        try:
            with self._lock:
                self._recogniser()  # made here, off the caller's thread
        except HostDeviceError as exc:  # RecogniserLost, or an error the decoder answered
            if not self._recover(exc):
                return
        while not self._stop.is_set():
            try:
                self._take_notes()
                try:
                    block = self.microphone.blocks.get(timeout=0.05)
                except queue.Empty:
                    continue
                self._take_notes()
                self.feed(block)
            except HostDeviceError as exc:  # RecogniserLost, or an error the decoder answered
                if not self._recover(exc):
                    return

    def _recover(self, lost: HostDeviceError) -> bool:
        """A new decoding process after the old one died: the utterance in
        progress is lost, the window stays open. False when none could start."""
        if self._stop.is_set():
            return False  # the listener is stopping: the decoder went with it
        now = self.clock()
        self._losses = [t for t in self._losses if now - t < LOSS_WINDOW_S] + [now]
        if len(self._losses) > RESTART_TRIES:  # it dies again and again: a crash loop is given up
            self.out.put(HearingGone(f"lost {len(self._losses)} times in {LOSS_WINDOW_S:.0f} s: {lost}", now))
            return False
        self.out.put(HearingLost(str(lost), now))
        with self._lock:
            self._rec = None
            self._offset, self._fed_s, self._since_drop_s = None, 0.0, 0.0
            self._text.clear()
            if self._tracker is not None:
                self._tracker.new_segment()
        reason = str(lost)
        for attempt in range(RESTART_TRIES):
            if attempt and self._stop.wait(RESTART_WAIT_S * attempt):
                return False
            try:
                assert isinstance(self.model, DecoderProcess)  # the only model whose decoder can be lost
                self.model.restart()
                with self._lock:
                    self._recogniser()
            except (RecogniserLost, HostDeviceError, OSError) as exc:
                reason = str(exc)
                continue
            self._skip_waiting_blocks()  # said while no one decoded: too late to count
            self.out.put(HearingBack(self.clock()))
            return True
        self.out.put(HearingGone(reason, self.clock()))
        return False

    def _skip_waiting_blocks(self) -> None:
        while True:
            try:
                self.microphone.blocks.get_nowait()
            except queue.Empty:
                return

    def drain(self) -> None:
        """Feed every block waiting on the microphone's queue (tests, WAV files)."""
        self._take_notes()
        while True:
            try:
                block = self.microphone.blocks.get_nowait()
            except queue.Empty:
                return
            self.feed(block)

    def feed(self, block: AudioBlock) -> None:
        seconds = len(block.samples) / 2 / self.rate
        with self._lock:
            if self._tracker is None:
                return  # no listening window: the audio is not for us
            if self.gate.covers(block.at, block.at + seconds):
                if self._offset is not None:  # close the utterance before the device spoke
                    self._close_utterance()
                    self._tracker.new_segment()
                    self._text.clear()
                    self._offset, self._words = None, 0
                return
            if self._offset is None:  # vosk's times count all the audio the recogniser has taken
                self._offset = block.at - self._fed_s
            self._fed_s += seconds
            self._since_drop_s += seconds
            self.fed_bytes += len(block.samples)
            now = self._offset + self._fed_s
            if self._rec.AcceptWaveform(block.samples):
                if self._since_drop_s >= DROP_AFTER_S:  # "finalized": its next audio starts a new front end
                    result = json.loads(self._rec.FinalResult())
                    self._since_drop_s = 0.0
                else:
                    result = json.loads(self._rec.Result())
                self._emit_final(result, now)
            else:
                result = json.loads(self._rec.PartialResult())
                if self.partial_words:
                    words = words_of(result, self._offset)
                else:
                    words = self._text.update(result.get("partial", ""), now)
                if self.partials and result.get("partial"):
                    self.out.put(Transcript(result["partial"], False, now))
                self._voice(len(words), now)
                self._put(self._tracker.partial_result(words, now))
                if self._tracker.wants_final(now):  # a forbidden word, then quiet: its final result now
                    self._emit_final(json.loads(self._rec.FinalResult()), now)
                    self._since_drop_s = 0.0  # finalized: its next audio starts a new front end
        self._check_lag(block, seconds)

    def _close_utterance(self) -> None:
        """Hear the utterance to its end and start the recogniser afresh: reset,
        or finalized (its front end dropped) once it holds DROP_AFTER_S of audio."""
        finished = self._finish_utterance()
        if finished and self._since_drop_s >= DROP_AFTER_S:
            self._since_drop_s = 0.0  # finalized stays: its next audio starts a new front end
        elif self._rec is not None:
            self._rec.Reset()

    def _finish_utterance(self) -> bool:
        if self._rec is None or self._tracker is None or self._offset is None:
            return False
        result = json.loads(self._rec.FinalResult())
        now = self._offset + self._fed_s
        self._emit_final(result, now)
        self._put(self._tracker.tick(now + 3600))  # nothing more will come: everything is settled
        return True

    def _emit_final(self, result: dict[str, Any], now: float) -> None:
        assert self._tracker is not None and self._offset is not None
        self._text.clear()
        words = words_of(result, self._offset)
        self._voice(len(words), now)
        self._words = 0  # the next utterance's words are new
        if result.get("text"):
            self.out.put(Transcript(result["text"], True, words[-1].end if words else now))
        self._put(self._tracker.final_result(words, now))

    def _voice(self, words: int, now: float) -> None:
        """A Voice when the utterance has more words than its result before."""
        more, self._words = words > self._words, words
        if more and now - self._voice_at >= VOICE_EVERY_S:
            self._voice_at = now
            self.out.put(Voice(now))

    def _put(self, heard: list[Heard]) -> None:
        for item in heard:
            self.out.put(item)

    def _check_lag(self, block: AudioBlock, seconds: float) -> None:
        if self.behind_s is None:
            return
        lag = self.clock() - (block.at + seconds)
        if lag > self.behind_s and not self._behind:
            self._behind = True
            self.out.put(ListeningBehind(lag, self.clock()))
        elif lag < self.behind_s / 2:
            self._behind = False
