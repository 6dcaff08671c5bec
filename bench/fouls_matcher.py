"""Benchmark of the forbidden-word matcher on text (issue 45, docs/fouls.md),
printing one JSON object:

- ``corpus``: the fouls corpus (tests/data/fouls_corpus_ru.toml: clean speeches
  crowded with look-alikes, every form the rules name, mixed ones) through the
  live tracker, each sentence a final result: false remarks (a word named that
  the speech does not name; target 0), missed ones (target 0), and the day
  speeches of tests/data/day_speeches_ru.txt (false remarks; target 0);
- ``final_result_us``: what the tracker costs per final result (the matching of
  every pattern, lemmas included, over the utterance and the words kept before
  it), median and max over the corpus's sentences, after a first pass that fills
  the lemma cache as a game's first minutes would; and ``cold_us``, the same
  on an empty lemma cache (every word parsed by pymorphy3);
- ``load_s`` and ``rss_mb``: loading the patterns and the analyser, and the
  process's memory after it.

With ``--cpu SHARE`` it runs itself a second time under ../shared/tools/slow-cpu
SHARE (a Pi 4 core: 0.25) and prints both legs, side by side in one run:

    .venv/bin/python bench/fouls_matcher.py --cpu 0.25
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def leg() -> dict[str, object]:
    start = time.perf_counter()
    from host_device.listening.hearing import IntentTracker, Word
    from host_device.listening.intents import _SENTENCE_END, lemmas, russian_patterns, spoken_times, tokenise

    patterns = russian_patterns()
    patterns.parse("честно", 10)  # the analyser's dictionaries are loaded on first use
    load_s = time.perf_counter() - start
    corpus = tomllib.loads((ROOT / "tests/data/fouls_corpus_ru.toml").read_text("utf-8"))["speech"]
    day = [
        line
        for line in (ROOT / "tests/data/day_speeches_ru.txt").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def run(text: str, costs: list[float]) -> list[str]:
        tracker = IntentTracker(patterns, 10)
        times = iter(spoken_times(text))
        heard: list[str] = []
        for sentence in _SENTENCE_END.split(text):
            words = [Word(t, (s := next(times)), s + 0.3, 0.9) for t in tokenise(sentence)]
            if not words:
                continue
            t0 = time.perf_counter()
            got = tracker.final_result(words, words[-1].end + 0.5)
            costs.append((time.perf_counter() - t0) * 1e6)
            heard += [h.intent.word or "" for h in got if h.intent.intent == "forbidden"]
        return heard

    lemmas.cache_clear()
    cold: list[float] = []
    for speech in corpus:
        run(speech["text"], cold)
    warm: list[float] = []
    false = missed = 0
    for speech in corpus:
        heard = run(speech["text"], warm)
        false += sum(1 for w in heard if w not in speech["words"])
        missed += sum(1 for w in speech["words"] if w not in heard)
    day_false = sum(len(run(text, [])) for text in day)
    return {
        "corpus": {
            "speeches": len(corpus),
            "clean": sum(s["kind"] == "clean" for s in corpus),
            "fouls_named": sum(len(s["words"]) for s in corpus),
            "false_remarks": false,
            "missed": missed,
            "day_speeches": len(day),
            "day_speeches_false_remarks": day_false,
        },
        "final_result_us": {
            "n": len(warm),
            "median": round(statistics.median(warm), 1),
            "p99": round(sorted(warm)[int(len(warm) * 0.99)], 1),
            "max": round(max(warm), 1),
        },
        "cold_us": {"median": round(statistics.median(cold), 1), "max": round(max(cold), 1)},
        "load_s": round(load_s, 3),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main() -> None:
    if "--leg" in sys.argv:
        print(json.dumps(leg()))
        return
    out: dict[str, object] = {"unthrottled": leg()}
    if "--cpu" in sys.argv:
        share = sys.argv[sys.argv.index("--cpu") + 1]
        tool = ROOT.parent / "shared" / "tools" / "slow-cpu"
        done = subprocess.run(
            [str(tool), share, sys.executable, __file__, "--leg"], capture_output=True, text=True, check=True
        )
        out[f"throttled_{share}"] = json.loads(done.stdout)
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
