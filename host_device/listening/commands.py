"""``host-device model install|check`` and ``host-device listen``."""

from __future__ import annotations

import argparse
import json
import logging
import queue
import sys
import time
from pathlib import Path
from typing import Any

from host_device.arguments import seat_count
from host_device.intents import IntentPatterns, russian_patterns
from host_device.listening.speech_model import SpeechModel, default_model_path, dir_size, find_model, install

log = logging.getLogger(__name__)


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def vocabulary_report(model: SpeechModel, patterns: IntentPatterns) -> tuple[list[str], list[str]]:
    """(known, unknown) pattern words; a word counts as known in its ё-spelling too."""
    known: list[str] = []
    unknown: list[str] = []
    for word in sorted(patterns.vocabulary()):
        variants = [word] + [word[:i] + "ё" + word[i + 1 :] for i, ch in enumerate(word) if ch == "е"]
        (known if any(model.knows(v) for v in variants) else unknown).append(word)
    return known, unknown


def warn_unknown_words(model: SpeechModel, patterns: IntentPatterns) -> list[str]:
    _, unknown = vocabulary_report(model, patterns)
    if unknown:
        log.warning("the speech model lacks these words, which can never be heard: %s", ", ".join(unknown))
    return unknown


def cmd_model_install(args: argparse.Namespace) -> int:
    target = Path(args.to) if args.to else default_model_path()
    source = Path(args.source) if args.source else None
    path = install(source, target, url=args.url, check=SpeechModel, progress=_say)
    print(f"installed the speech model in {path} ({dir_size(path) / 1e6:.0f} MB)")
    return 0


def cmd_model_check(args: argparse.Namespace) -> int:
    path = find_model(Path(args.model) if args.model else None)
    model = SpeechModel(path)
    known, unknown = vocabulary_report(model, russian_patterns())
    print(f"model: {path}")
    print(f"size: {dir_size(path) / 1e6:.1f} MB")
    print(f"pattern words known ({len(known)}): {', '.join(known)}")
    print(f"pattern words unknown ({len(unknown)}): {', '.join(unknown) or '-'}")
    return 0


def cmd_listen(args: argparse.Namespace) -> int:
    from hardware.microphone import SoundDeviceMicrophone, WavMicrophone
    from host_device.listening.listener import Listener

    # times: seconds into the file; a bad file is named before the model's slow load
    wav = WavMicrophone(Path(args.wav), lambda: 0.0, realtime=False) if args.wav else None
    model = SpeechModel(find_model(Path(args.model) if args.model else None))
    patterns = russian_patterns()
    warn_unknown_words(model, patterns)
    out: queue.Queue[Any] = queue.Queue()
    if wav is not None:
        microphone: Any = wav
        listener = Listener(
            model,
            microphone,
            patterns,
            args.seats,
            out,
            time.monotonic,
            behind_s=None,
            partials=args.partials,
        )
        listener.open_window()
        microphone.start()
        listener.drain()
        listener.close_window()
        _print_all(out)
        return 0
    microphone = SoundDeviceMicrophone(time.monotonic, device=args.device)
    listener = Listener(model, microphone, patterns, args.seats, out, time.monotonic, partials=args.partials)
    listener.open_window()
    listener.start()
    _say("listening; Ctrl-C to stop")
    try:
        while True:
            try:
                print(json.dumps(out.get(timeout=0.2).to_dict(), ensure_ascii=False), flush=True)
            except queue.Empty:
                continue
    except KeyboardInterrupt:
        pass
    finally:
        listener.close_window()
        listener.stop()
        _print_all(out)
    return 0


def _print_all(out: queue.Queue[Any]) -> None:
    while not out.empty():
        print(json.dumps(out.get_nowait().to_dict(), ensure_ascii=False), flush=True)


def add_commands(commands: Any) -> None:
    model = commands.add_parser("model", help="the speech model: install, check")
    sub = model.add_subparsers(dest="model_command", required=True, metavar="ACTION")
    p = sub.add_parser(
        "install", help="install vosk-model-small-ru-0.22 (download, or --from a zip or directory)"
    )
    p.add_argument("--from", dest="source", metavar="ZIP_OR_DIR", help="a local archive or model directory")
    p.add_argument("--to", metavar="DIR", help=f"where to install (default: {default_model_path()})")
    p.add_argument("--url", help="download from this address instead of the pinned one")
    p.set_defaults(func=cmd_model_install)
    p = sub.add_parser("check", help="the model's path, size, and which pattern words it knows")
    p.add_argument("--model", metavar="DIR")
    p.set_defaults(func=cmd_model_check)

    p = commands.add_parser("listen", help="print what is heard (text and intents) as JSON lines")
    p.add_argument("--model", metavar="DIR", help="the speech model (default: the installed one)")
    p.add_argument("--wav", metavar="FILE.wav", help="listen to a file instead of the microphone")
    p.add_argument("--seats", type=seat_count, default=10, help="seats at the table (default 10)")
    p.add_argument("--device", help="the microphone (name or index)")
    p.add_argument("--partials", action="store_true", help="print partial results too")
    p.set_defaults(func=cmd_listen)
