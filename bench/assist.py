"""Benchmark of assist mode's reactions, printing one JSON object (medians and
maxima in milliseconds, on this machine):

- key: the host's "next" from the key to the next speaker's phrase queued,
  the input committed to a store on this disk first;
- undo: the host's undo at the end of a whole game (~80 inputs: the record
  replayed, the store's inputs marked, the step restarted);
- screen: the host's screen rendered to text (rich), once per redraw.

    .venv/bin/python bench/assist.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def ms(samples: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(samples) * 1000, 3),
        "max_ms": round(max(samples) * 1000, 3),
        "n": len(samples),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()

    from engine import DealRoles, Game, Phase, Role
    from host_device.config import AssistSettings
    from host_device.runtime.assist import Assist, runtime_settings
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.screens.terminal import render
    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import builtin_durations, simulate
    from host_device.store import Store, record_runtime

    durations = builtin_durations()
    script = load_script(ROOT / "examples" / "classic-full-game.json")
    keys, undos, screens = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            store = Store(Path(tmp) / f"k{r}.sqlite3")
            settings = AssistSettings()
            rt = Runtime(Game("classic"), Scheduler(), durations, Settings(**runtime_settings(settings)))
            record_runtime(store.games, rt, "assist")
            assist = Assist(rt, settings, role_entry=False)
            rt.handle(DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (8, Role.MAFIA), (6, Role.SHERIFF))))
            while rt.game.phase is not Phase.VOTE_ANNOUNCE:
                t0 = time.perf_counter()
                assist.press("next")
                keys.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                render(assist)
                screens.append(time.perf_counter() - t0)
            store.close()

            store = Store(Path(tmp) / f"u{r}.sqlite3")
            _, rt = simulate(script, durations, mode="assist", store=store)
            target = rt.history.marks[-1]
            t0 = time.perf_counter()
            rt.undo_to(target)
            undos.append(time.perf_counter() - t0)
            store.close()
    print(json.dumps({"key_next": ms(keys), "undo_end_of_game": ms(undos), "screen_render": ms(screens)}))


if __name__ == "__main__":
    main()
