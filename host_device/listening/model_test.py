"""``host-device model test DIR``: how well the installed speech model hears
a club's own room and microphone, from a folder of recordings.

DIR holds WAV files and ``expected.tsv``: one line a file, the file name, a
tab, and the intents it should give in order, separated by ``;`` —
``nominate 7``, ``withdraw 2``, ``end``, or nothing for a sentence with no
nomination (``#`` starts a comment). Each file goes through the recogniser
and the IntentTracker exactly as a speech does at the table (0.1 s blocks,
partial results as text, the same delivery rules), and the intents heard are
compared with the expected ones in order: right, wrong (heard, not said),
missed (said, not heard). For each nomination heard, the latency is the time
from the end of its number word (the final result's time) to its delivery,
the block's decoding included.
"""

from __future__ import annotations

import json
import shlex
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host_device.base.errors import HostDeviceError
from host_device.base.files import read_text
from host_device.base.text import shorten
from host_device.listening.hearing import FORBIDDEN_CONF, Heard, IntentTracker, PartialText, Word, words_of
from host_device.listening.intents import Intent, IntentPatterns
from host_device.listening.numbers import normalise

BLOCK_S = 0.1
RATE = 16000
BLOCK = int(RATE * BLOCK_S) * 2
EXPECTED = "expected.tsv"
MAX_EXPECTED_BYTES = 1_000_000  # the expected answers of a recorded folder
MAX_FILES = 1000


class ModelTestError(HostDeviceError, ValueError):
    pass


def decode(
    rec: Any,
    audio: bytes,
    patterns: IntentPatterns,
    seats: int,
    partial_words: bool = False,
    fed_before: float = 0.0,
    forbidden_conf: float = FORBIDDEN_CONF,
) -> tuple[list[tuple[Heard, float]], list[Word], float]:
    """One window of 16 kHz audio through a recogniser and a tracker, as the
    listener runs them: (each intent with the audio time it was delivered,
    the decoding of its block included; the final words; decoding seconds).
    Times count from the start of ``audio``; vosk's own count all the audio
    the recogniser has taken (``fed_before`` seconds before this)."""
    tracker = IntentTracker(patterns, seats, agree=not partial_words, forbidden_conf=forbidden_conf)
    text = PartialText()
    delivered: list[tuple[Heard, float]] = []
    finals: list[Word] = []
    decoding = 0.0
    for offset in range(0, len(audio) + BLOCK, BLOCK):
        chunk = audio[offset : offset + BLOCK]
        t0 = time.perf_counter()
        if chunk:
            final = bool(rec.AcceptWaveform(chunk))
            result = json.loads(rec.Result() if final else rec.PartialResult())
        else:
            final, result = True, json.loads(rec.FinalResult())
        spent = time.perf_counter() - t0
        now = min(offset + BLOCK, len(audio)) / 2 / RATE
        heard: list[Heard] = []
        if not final:
            words = (
                text.update(result.get("partial", ""), now)
                if not partial_words
                else words_of(result, -fed_before)
            )
            heard = tracker.partial_result(words, now)
            if tracker.wants_final(now):  # as the listener: a forbidden word, then quiet
                t0 = time.perf_counter()
                final, result = True, json.loads(rec.FinalResult())
                spent += time.perf_counter() - t0
        decoding += spent
        if final:
            words = words_of(result, -fed_before)
            finals += words
            text.clear()
            heard += tracker.final_result(words, now)
        delivered += [(h, now + spent) for h in heard]
    for h in tracker.tick(len(audio) / 2 / RATE + 3600):  # nothing more will come
        delivered.append((h, len(audio) / 2 / RATE))
    return delivered, finals, decoding


def latency(heard: Heard, at: float, finals: list[Word]) -> float | None:
    """From the end of the heard words' last word, as the final result times it, to the delivery."""
    last = normalise(heard.words.split()[-1]) if heard.words else ""
    ends = [w.end for w in finals if w.text == last and w.end <= at + BLOCK_S]
    return round(at - max(ends), 3) if ends else None


def read_expected(folder: Path) -> list[tuple[str, list[dict[str, Any]]]]:
    path = folder / EXPECTED
    try:
        lines = read_text(path, MAX_EXPECTED_BYTES).splitlines()
    except FileNotFoundError:
        raise ModelTestError(
            f"{path}: нет такого файла; его запишет `host-device model record {shlex.quote(str(folder))}`"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelTestError(f"{path}: не удалось прочитать: {exc}") from None
    cases = []
    for number, line in enumerate(lines, start=1):
        line = line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        name, _, said = line.partition("\t")
        if not name.endswith(".wav") or "/" in name:
            raise ModelTestError(
                f"{path}:{number}: {shorten(name, 40)!r}: "
                "сначала имя WAV-файла из этой папки, потом табуляция"
            )
        intents = []
        for item in filter(None, (part.strip() for part in said.split(";"))):
            kind, _, seat = item.partition(" ")
            if kind not in ("nominate", "withdraw", "end") or (
                seat and not (seat.isascii() and seat.isdigit())
            ):
                raise ModelTestError(
                    f"{path}:{number}: {shorten(item, 40)!r}: "
                    "намерения — 'nominate N', 'withdraw N' или 'end'"
                )
            intents.append({"intent": kind, **({"seat": int(seat)} if seat else {})})
        cases.append((name, intents))
        if len(cases) > MAX_FILES:
            raise ModelTestError(f"{path}: больше {MAX_FILES} файлов (предел)")
    if not cases:
        raise ModelTestError(f"{path}: не указано ни одного файла")
    return cases


def aligned(expected: list[dict[str, Any]], heard: list[dict[str, Any]]) -> int:
    """How many intents were heard right, in order (the longest common subsequence)."""
    table = [[0] * (len(heard) + 1) for _ in range(len(expected) + 1)]
    for i, e in enumerate(expected):
        for j, h in enumerate(heard):
            table[i + 1][j + 1] = table[i][j] + 1 if e == h else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


@dataclass
class FileResult:
    name: str
    expected: list[dict[str, Any]]
    heard: list[dict[str, Any]]
    right: int
    latencies: list[float] = field(default_factory=list)
    audio_s: float = 0.0
    decoding_s: float = 0.0

    @property
    def wrong(self) -> int:
        return len(self.heard) - self.right

    @property
    def missed(self) -> int:
        return len(self.expected) - self.right


def run_test(model: Any, folder: Path, patterns: IntentPatterns, seats: int) -> list[FileResult]:
    from hardware.microphone import to_rate
    from host_device.base.sound import read_wav

    results = []
    rec = model.recogniser()
    fed = 0.0
    for name, expected in read_expected(folder):
        try:
            samples, rate = read_wav(folder / name)
        except HostDeviceError as exc:
            raise ModelTestError(f"{folder / EXPECTED}: {name}: {exc}") from None
        audio = to_rate(samples, rate)
        rec.Reset()
        delivered, finals, decoding = decode(rec, audio, patterns, seats, fed_before=fed)
        fed += len(audio) / 2 / RATE
        heard = [h.intent.to_dict() for h, _ in delivered if h.intent.intent != "forbidden"]
        found = [
            latency(h, at, finals)
            for h, at in delivered
            if h.intent.intent in ("nominate", "withdraw") and h.intent.to_dict() in expected
        ]
        results.append(
            FileResult(
                name,
                expected,
                heard,
                aligned(expected, heard),
                [x for x in found if x is not None],
                len(audio) / 2 / RATE,
                decoding,
            )
        )
    return results


def describe(intents: list[dict[str, Any]]) -> str:
    return "; ".join(Intent(**i).intent + (f" {i['seat']}" if "seat" in i else "") for i in intents) or "—"


def summary(results: list[FileResult]) -> dict[str, Any]:
    lat = [x for r in results for x in r.latencies]
    audio = sum(r.audio_s for r in results)
    return {
        "files": len(results),
        "right": sum(r.right for r in results),
        "wrong": sum(r.wrong for r in results),
        "missed": sum(r.missed for r in results),
        "latency_median_s": round(statistics.median(lat), 3) if lat else None,
        "latency_max_s": max(lat) if lat else None,
        "real_time_factor": round(sum(r.decoding_s for r in results) / audio, 4) if audio else None,
    }


# ---------------------------------------------------------------- recording a test folder


def phrases_for(seats: int) -> list[tuple[str, str]]:
    """(what to say, the intents expected): every seat number, withdrawals, the end
    words, and sentences that nominate nobody (the patterns must stay silent)."""
    from num2words import num2words

    def said(n: int) -> str:
        return str(num2words(n, lang="ru"))

    phrases = [(f"Я выставляю игрока номер {said(n)}.", f"nominate {n}") for n in range(1, seats + 1)]
    phrases += [
        (f"Я снимаю игрока номер {said(3)}.", "withdraw 3"),
        (f"Я отзываю игрока номер {said(8)} с голосования.", "withdraw 8"),
        (f"Я выставляю на голосование игрока номер {said(seats)}. Спасибо.", f"nominate {seats}; end"),
        ("Спасибо.", "end"),
        ("Пас.", "end"),
        (f"Я предлагаю выставить игрока номер {said(5)}.", ""),
        (f"Игрок номер {said(7)} весь день молчал, я ему не верю.", ""),
        (f"Спасибо всем, я думаю, что {said(4)}й — мирный житель.", ""),
    ]
    return phrases


def record_folder(
    folder: Path,
    microphone: Any,
    seats: int,
    ask: Any = input,
    say: Any = print,
    max_seconds: float = 15.0,
) -> int:
    """Prompt a person through the test phrases; each take is written as a
    16 kHz WAV and ``expected.tsv`` is rewritten after every take, so a second
    run records only what is missing. Returns how many were recorded."""
    import numpy as np

    from hardware.microphone import to_rate
    from host_device.base.files import write_text
    from host_device.base.sound import write_wav
    from host_device.sound.recording import take_until_enter

    folder.mkdir(parents=True, exist_ok=True)
    phrases = phrases_for(seats)
    rows = {f"{i:02d}.wav": (text, expected) for i, (text, expected) in enumerate(phrases, start=1)}
    recorded = 0
    for number, (name, (text, _)) in enumerate(rows.items(), start=1):
        if (folder / name).exists():
            continue
        say(f"[{number}/{len(rows)}] скажите: «{text}»")
        answer = ask("Enter — записать, s — пропустить, q — закончить > ").strip().lower()
        if answer == "q":
            break
        if answer == "s":
            continue
        samples, rate = take_until_enter(microphone, ask, "запись… Enter — стоп > ", max_seconds)
        audio = np.frombuffer(to_rate(samples, rate), dtype="<i2").astype(np.int16)
        write_wav(folder / name, audio, RATE)
        recorded += 1
        listed = [f"{n}\t{e}  # {t}" for n, (t, e) in rows.items() if (folder / n).exists()]
        write_text(folder / EXPECTED, "\n".join(listed) + "\n")
    say(
        f"записано: {recorded}, в {folder}; "
        f"проверить модель: host-device model test {shlex.quote(str(folder))}"
    )
    return recorded
