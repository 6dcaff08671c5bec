"""Benchmark of the device's pages on loopback, printing one JSON object:

- press to LED: a press on a seat's phone page (its WebSocket) → the
  runtime's inbox → the speech ends → the LED event on the table page's
  stream, over 200 presses (median, max; targets 50 ms and 150 ms);
- «Время!» lateness: a half-second free timer run again and again while 12 seat
  pages and 3 table pages are connected and the presses go on (median, max
  of how late «Время!» is said against its moment; target 20 ms);
- memory: the RSS the server adds to the hosting process (its imports, its
  thread, 15 sockets; target 40 MB).

The host runs in a child process (the event rules: 12 seats), so that the
pages' clients do not count in its memory.

    .venv/bin/python bench/web.py [--presses 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

TIMER_S = 0.5  # the free timer whose «Время!» is timed (no tone before it: under warn_s)
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def rss_kb(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def serve() -> None:
    """The child: a game in its first day's speeches, served with every seat on a phone."""
    import queue

    from engine import Advance, Game, Phase, get_preset
    from hardware.events import Press
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.runtime.timeline import Said
    from host_device.screens.public import PublicStream
    from host_device.session.deal import deal
    from host_device.web.access import Access
    from voices.catalogue import russian

    preset = get_preset("event")
    sched = Scheduler()
    # phrases of 10 ms: at 15 presses a second, real phrases would queue far ahead of the timers
    runtime = Runtime(
        Game(preset), sched, lambda key, slots: 0.01, Settings(gap_s=0.01, own_press_grace_s=0.0)
    )  # no grace after 10-ms phrases
    runtime.handle(deal(preset, 1))
    while runtime.game.phase is not Phase.SPEECH:
        runtime.handle(Advance())
    keep = len(runtime.game.record)
    text = russian().text
    before = rss_kb()

    from host_device.screens.views import Console
    from host_device.web.publisher import Private, Publisher
    from host_device.web.server import WebServer

    inbox: queue.Queue[Any] = queue.Queue()
    private = Private(Access.new(range(1, preset.seats + 1)), Console(runtime, whole_table=True), inbox)
    publisher = Publisher(PublicStream(runtime, text), 1.0, private)
    server = WebServer(publisher, "127.0.0.1", 0)
    host, port = server.start()
    late_ms: list[float] = []
    due: list[float] = []
    clock: dict[str, float] = {}

    def tick() -> None:  # the scheduler's own start: its wall clock against its virtual one
        if not clock:
            clock.update(wall0=time.monotonic(), virt0=sched.now)

    def free_timer() -> None:
        runtime.free.start(TIMER_S)
        assert runtime.free.running is not None
        start, length = runtime.free.running
        due.append(start + length)

    def on_record(entry: Any) -> None:
        if isinstance(entry, Said) and entry.key == "time_up" and due and runtime.free.running is None:
            late_ms.append((time.monotonic() - (clock["wall0"] + due.pop() - clock["virt0"])) * 1000)
            sched.after(0.1, free_timer)

    runtime.recorders.append(on_record)
    free_timer()
    stopped = threading.Event()

    def on_input(item: Any) -> None:
        if isinstance(item, Press) and isinstance(item.key, int):
            runtime.press(item.key, at=sched.now - max(0.0, time.monotonic() - item.at))
            if runtime.game.phase is not Phase.SPEECH:  # the day's speeches are over: back to the first
                runtime.undo_to(keep)
        publisher.refresh()

    def wait_for_eof() -> None:
        sys.stdin.read()
        stopped.set()
        inbox.put(None)

    threading.Thread(target=wait_for_eof, daemon=True).start()
    print(
        json.dumps({"port": port, "host": host, "seats": private.access.seats, "rss_before_kb": before}),
        flush=True,
    )
    sched.after(24 * 3600, lambda: None)  # the loop stays up between events
    sched.run_real(inbox=inbox, on_input=on_input, stop=stopped.is_set, tick=tick)
    server.stop()
    print(json.dumps({"late_ms": late_ms}), flush=True)


async def drive(info: dict[str, Any], presses: int) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    base = f"ws://{info['host']}:{info['port']}"
    seats = {int(k): v for k, v in info["seats"].items()}
    phones = {seat: await connect(f"{base}/api/seat/{seat}?t={token}") for seat, token in seats.items()}
    tables = [await connect(f"{base}/api/events") for _ in range(3)]
    leds: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def drain(socket: Any, into: asyncio.Queue[dict[str, Any]] | None) -> None:
        async for text in socket:
            if into is not None:
                event = json.loads(text)
                if event.get("type") == "led":
                    into.put_nowait(event)

    async def ping(socket: Any) -> None:  # as a seat's page does: a phone silent for 2 s is closed
        while True:
            await socket.send(json.dumps({"ping": time.time() * 1000}))
            await asyncio.sleep(0.25)

    tasks = [asyncio.create_task(drain(s, None)) for s in phones.values()]
    tasks += [asyncio.create_task(ping(s)) for s in phones.values()]
    tasks.append(asyncio.create_task(drain(tables[0], leds)))
    tasks += [asyncio.create_task(drain(s, None)) for s in tables[1:]]
    speaker = 1  # the first day's first speaker (the event rules' day 1 opens with seat 1)
    latencies: list[float] = []
    for _ in range(presses):
        await asyncio.sleep(random.uniform(0.03, 0.08))
        while not leds.empty():  # what came before this press
            event = leds.get_nowait()
            if event["pattern"] == "on":
                speaker = event["seat"]
        t0 = time.perf_counter()
        await phones[speaker].send(json.dumps({"press": 0, "at": time.time() * 1000}))
        # the first LED after it: the speaker's going off, or (where the table never saw his lit:
        # the public stream tells an LED going off only then) the next speaker's coming on
        event = await asyncio.wait_for(leds.get(), 5)
        latencies.append((time.perf_counter() - t0) * 1000)
        while event["pattern"] != "on":  # the next speaker's LED comes on
            event = await asyncio.wait_for(leds.get(), 5)
        speaker = event["seat"]
    for task in tasks:
        task.cancel()
    return {
        "median_ms": round(statistics.median(latencies), 2),
        "max_ms": round(max(latencies), 2),
        "n": presses,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdin is not None
    info = json.loads(child.stdout.readline())
    press_to_led = asyncio.run(drive(info, args.presses))
    after = rss_kb(child.pid)
    child.stdin.close()
    late = json.loads(child.stdout.readline())["late_ms"]
    child.wait(10)
    print(
        json.dumps(
            {
                "benchmark": "web",
                "press_to_led": press_to_led,
                "time_up_late_with_15_pages": {
                    "median_ms": round(statistics.median(late), 2),
                    "max_ms": round(max(late), 2),
                    "n": len(late),
                },
                "server_rss_added_mb": round((after - info["rss_before_kb"]) / 1024, 1),
                "targets": {
                    "press_to_led_median_ms": 50,
                    "press_to_led_max_ms": 150,
                    "time_up_late_ms": 20,
                    "rss_added_mb": 40,
                },
            }
        )
    )


if __name__ == "__main__":
    main()
