"""The stream overlay (``[stream] enabled = true``): what a broadcast shows
over the table's video, for OBS's Browser Source — ``/overlay`` (1920×1080),
``/overlay/seats`` (1920×260, a strip of the seats), ``/overlay/line``
(1920×100, one line), each reading ``/api/overlay``; all behind the stream's
own token (:class:`host_device.web.access.Access`), read-only.

The feed is *delayed*: on the runtime's thread every change is taken as a
frame, stamped on the wall clock the scheduler follows; a frame is served
only once ``delay_s`` has passed since its stamp (the stream lags the table
by its own delay, so the overlay lags as much). A frame holds the public
state (:func:`host_device.screens.public.public_state`), the players' names
from the seating, the day's counted votes voter by voter, the night's result
and, only with ``roles = "delayed"``, the secrets: each seat's role, the
checks, the shots and the best move. Nothing of a frame reaches any other
page or socket: it is served here alone."""

from __future__ import annotations

import json
import threading
from collections import deque
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from engine import Game, Phase
from engine.outputs import BestMoveMade, CheckMade, ShotTaken, VoteCounted
from engine.steps import DAY
from host_device.config import StreamSettings
from host_device.runtime.clock import REAL, Clock
from host_device.screens.public import PublicStream, public_state
from host_device.web.pages import NO_STORE, page, refused

SIZES = {"": "full", "seats": "seats", "line": "line"}  # /overlay/<size>: 1920×1080, 1920×260, 1920×100
OFF = "Оверлей трансляции выключен: включите его в настройках ([stream] enabled = true)"
FORBIDDEN = "Нет доступа: откройте оверлей по ссылке с токеном трансляции, которую напечатал host-device run"
NIGHT_END_PHASES = frozenset({Phase.MORNING, Phase.LAST_WORD})


class OverlayFeed:
    """The overlay's frames, taken on the runtime's thread, served ``delay_s`` later (any thread)."""

    def __init__(
        self, stream: PublicStream, settings: StreamSettings, clock: Clock = REAL, speed: float = 1.0
    ) -> None:
        self.stream = stream
        self.settings = settings
        self.clock = clock
        self.speed = speed
        self.frames: deque[tuple[float, str, float | None, float | None]] = deque()
        self.lock = threading.Lock()
        self._due = False
        # the record's inputs handled so far, the game they were handled by, its outputs, the last input
        self._replayed: tuple[int, Game | None, list[Any], Any] = (0, None, [], None)
        rt = stream.runtime
        stream.listeners.append(lambda event: self.changed())
        rt.recorders.append(lambda entry: self.changed())
        rt.observers.append(lambda outputs: self.changed())
        self.take()

    def changed(self) -> None:
        """The runtime is changing something: a frame is taken once it has finished (its next turn)."""
        if not self._due:
            self._due = True
            sched = self.stream.runtime.sched
            sched.at(sched.now, self.take)

    def take(self) -> None:
        """On the runtime's thread: the live frame, stamped now (kept only if it differs from the last)."""
        self._due = False
        rt = self.stream.runtime
        state = self.live()
        left = rt.time_left()
        deadline = None
        if left is not None and rt.timer is not None and not rt.sched.paused:
            start, seconds, _ = rt.timer
            deadline = self.clock.now() + (start + seconds - rt.sched.now) / self.speed
        text = json.dumps(state, ensure_ascii=False, sort_keys=True)
        now = self.clock.now()
        with self.lock:
            if self.frames and self.frames[-1][1:] == (text, left, deadline):
                return
            self.frames.append((now, text, left, deadline))
            self._prune(now)

    def _prune(self, now: float) -> None:
        """Frames already past the delay are dropped, all but the last of them (the one served)."""
        cutoff = now - self.settings.delay_s
        while len(self.frames) > 1 and self.frames[1][0] <= cutoff:
            self.frames.popleft()

    def served(self) -> str:
        """What ``/api/overlay`` answers now: the last frame at least ``delay_s`` old (its timer's
        time left as it stood ``delay_s`` ago), or that the overlay is waiting for the delay."""
        now = self.clock.now()
        then = now - self.settings.delay_s
        with self.lock:
            self._prune(now)
            frame = self.frames[0] if self.frames and self.frames[0][0] <= then else None
        head = {"delay_s": self.settings.delay_s, "roles": self.settings.roles}
        if frame is None:
            return json.dumps({**head, "waiting": True}, ensure_ascii=False)
        _, text, left, deadline = frame
        if left is not None and deadline is not None:
            left = min(left, max(0.0, (deadline - then) * self.speed))
        time_left = None if left is None else round(left, 1)
        return f'{text[:-1]}, "time_left": {json.dumps(time_left)}, "head": {json.dumps(head)}}}'

    def outputs(self) -> list[Any]:
        """The game's outputs from its record: the new inputs handled on from where it stood (an
        undo, which rebuilds the record, replays it from the start)."""
        record = self.stream.runtime.game.record
        done, game, outputs, last = self._replayed
        if game is None or done > len(record) or (done and record[done - 1] is not last):
            done, game, outputs = 0, Game(self.stream.runtime.game.preset), []
        for inp in record[done:]:
            outputs.extend(game.handle(inp))
        self._replayed = (len(record), game, outputs, record[-1] if record else None)
        return outputs

    def live(self) -> dict[str, Any]:
        """The frame as it stands now (the runtime's thread)."""
        rt = self.stream.runtime
        s = rt.game.state
        state = public_state(self.stream)
        state.pop("time_left", None)
        names = self.stream.seating.names()
        for row in state["seats"]:
            if str(row["seat"]) in names:
                row["name"] = names[str(row["seat"])]
        outputs = self.outputs()
        state["votes"] = counted_votes(outputs, s.day) if s.phase in DAY else []
        state["night_end"] = night_end(self.stream) if s.phase in NIGHT_END_PHASES else None
        if self.settings.secrets:
            state["secrets"] = secrets_of(rt.game, outputs)
        return state


def counted_votes(outputs: list[Any], day: int) -> list[dict[str, Any]]:
    """The day's counted votes, in order: each voter's candidate (public: the table saw the presses)."""
    rounds = []
    for output in outputs:
        if isinstance(output, VoteCounted) and output.day == day:
            voters = {str(voter): candidate for candidate, seats in output.voters for voter in seats}
            rounds.append({"kind": output.kind, "counts": [list(c) for c in output.counts], "voters": voters})
    return rounds


def night_end(stream: PublicStream) -> dict[str, Any] | None:
    """The night just ended (its morning, and its victim's last word): who was killed in it, if
    anyone; None on the first day (no night of shooting before it)."""
    night = stream.runtime.game.state.day - 1
    if night < 1:
        return None
    left = stream.departures()
    killed = sorted(seat for seat, how in left.items() if how.get("night") == night and how["how"] == "shot")
    return {"night": night, "killed": killed}


def secrets_of(game: Game, outputs: list[Any]) -> dict[str, Any]:
    """The game's secrets so far: each seat's role, the checks, the shots, the best move."""
    s = game.state
    secret: dict[str, Any] = {
        "roles": {str(seat): s.role(seat).value for seat in range(1, s.seats + 1)},
        "checks": [],
        "shots": [],
        "best_move": None,
    }
    for output in outputs:
        if isinstance(output, CheckMade):
            secret["checks"].append(
                {"night": output.night, "by": output.by.value, "seat": output.target, "black": output.result}
            )
        elif isinstance(output, ShotTaken):
            secret["shots"].append({"night": output.night, "by": output.seat, "seat": output.target})
        elif isinstance(output, BestMoveMade):
            secret["best_move"] = {"seat": output.seat, "seats": list(output.seats)}
    return secret


def overlay_feed(publisher: Any) -> OverlayFeed | None:
    """The publisher's game's overlay feed, if ``[stream]`` is on (only ``run`` has one: its token)."""
    private = publisher.private
    if private is None or not private.stream.enabled:
        return None
    return OverlayFeed(publisher.stream, private.stream, publisher.clock, publisher.speed)


def addresses(base: str, token: str, settings: StreamSettings) -> list[str]:
    """The lines ``run`` prints for the organiser: the overlay's three addresses, its delay, its roles."""
    roles = "роли, проверки и выстрелы — после задержки" if settings.secrets else "роли скрыты до конца игры"
    return [
        f"Оверлей трансляции (OBS, 1920×1080): {base}/overlay?t={token}",
        f"  полоса мест 1920×260: {base}/overlay/seats?t={token}",
        f"  строка 1920×100: {base}/overlay/line?t={token}",
        f"  задержка {settings.delay_s:g} с; {roles}",
    ]


def feed_of(request: Request) -> OverlayFeed | None:
    feed: OverlayFeed | None = getattr(request.app.state, "overlay", None)
    return feed


def _refusal(request: Request) -> Response | None:
    feed = feed_of(request)
    private = request.app.state.publisher.private
    if feed is None or private is None:
        return refused(OFF, 404)
    if not private.access.is_stream(request.query_params.get("t")):
        return refused(FORBIDDEN)
    return None


async def overlay_page(request: Request) -> Response:
    """``/overlay``, ``/overlay/seats``, ``/overlay/line``: the same page, laid out by its address."""
    if request.path_params.get("size", "") not in SIZES:
        return refused("Нет такого оверлея: /overlay, /overlay/seats или /overlay/line", 404)
    return _refusal(request) or page("overlay.html")


async def overlay_state(request: Request) -> Response:
    why = _refusal(request)
    if why is not None:
        return why
    feed = feed_of(request)
    assert feed is not None
    return Response(feed.served(), media_type="application/json; charset=utf-8", headers=NO_STORE)
