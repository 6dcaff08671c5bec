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

from host_device.base.text import one_line, shorten
from host_device.cli import flags
from host_device.listening.intents import load_patterns, russian_patterns
from host_device.listening.speech_model import (
    DEFAULT_MODEL,
    ModelCannotHear,
    SpeechModel,
    default_model_path,
    dir_size,
    find_model,
    install,
    pin,
)
from host_device.listening.vocabulary import cannot_hear, vocabulary_report, warn_unknown_words

log = logging.getLogger(__name__)


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def cmd_model_install(args: argparse.Namespace) -> int:
    target = Path(args.to) if args.to else default_model_path()
    source = Path(args.source) if args.source else None
    cannot: list[str] = []

    def trial(staged: Path) -> None:
        """A trial load: a model that does not load, or cannot hear the game, is not installed."""
        cannot[:] = cannot_hear(SpeechModel(staged))
        if cannot and not args.force:
            raise ModelCannotHear(
                f"{source or args.url or pin().url}: эта модель не слышит слов игры и не установлена "
                f"(русская модель: host-device model install; установить эту всё равно: --force); "
                f"не услышит: {shorten('; '.join(cannot), 150)}"
            )

    try:
        path = install(source, target, url=args.url, check=trial, progress=_say)
    except ModelCannotHear as exc:
        _say(f"host-device: ошибка: {one_line(str(exc))}")
        return 1
    print(f"модель речи установлена в {path} ({dir_size(path) / 1e6:.0f} МБ)")
    if cannot:
        _say(f"host-device: внимание: эта модель не слышит: {shorten('; '.join(cannot), 300)}")
    return 0


def cmd_model_check(args: argparse.Namespace) -> int:
    path = find_model(Path(args.model) if args.model else None)
    model = SpeechModel(path)
    known, unknown = vocabulary_report(model, russian_patterns())
    print(f"модель: {path}")
    print(f"размер: {dir_size(path) / 1e6:.1f} МБ")
    print(f"известные слова игры ({len(known)}): {', '.join(known)}")
    print(f"неизвестные слова ({len(unknown)}): {', '.join(unknown) or '-'}")
    cannot = cannot_hear(model)
    print(f"не услышит ({len(cannot)}): {'; '.join(cannot) or '-'}")
    if cannot:
        print("эта модель не годится для игры; русская: host-device model install")
        return 1
    return 0


def cmd_listen(args: argparse.Namespace) -> int:
    from hardware.microphone import WavMicrophone
    from host_device.listening.decoder import DecoderProcess

    # times: seconds into the file; a bad file is named before the model's slow load
    wav = WavMicrophone(Path(args.wav), lambda: 0.0, realtime=False) if args.wav else None
    model = DecoderProcess(find_model(Path(args.model) if args.model else None))  # as at the table
    try:
        return _listen(args, model, wav)
    finally:
        model.close()


def _listen(args: argparse.Namespace, model: Any, wav: Any) -> int:
    from hardware.microphone import SoundDeviceMicrophone
    from host_device.listening.listener import Listener

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
    _say("слушаю; Ctrl-C — стоп")
    try:
        while True:
            try:
                _print(out.get(timeout=0.2))
            except queue.Empty:
                continue
    finally:  # Ctrl-C, its only end: main says «остановлено» (130, as every command's)
        listener.close_window()
        listener.stop()
        _print_all(out)


def cmd_model_test(args: argparse.Namespace) -> int:
    from host_device.listening.model_test import describe, read_expected, run_test, summary

    folder = Path(args.dir)
    read_expected(folder)  # a bad folder is named before the model's slow load
    patterns = load_patterns(Path(args.patterns)) if args.patterns else russian_patterns()
    model = SpeechModel(find_model(Path(args.model) if args.model else None))
    results = run_test(model, folder, patterns, args.seats)
    total = summary(results)
    if args.json:
        files = [
            {
                "file": r.name,
                "expected": r.expected,
                "heard": r.heard,
                "right": r.right,
                "wrong": r.wrong,
                "missed": r.missed,
                "latency_s": r.latencies,
            }
            for r in results
        ]
        print(json.dumps({"model": str(model.path), **total, "files_detail": files}, ensure_ascii=False))
        return 0
    print(f"{'файл':<12} {'верно':>5} {'лишн.':>5} {'пропущ.':>7}  {'задержка, с':<12} услышано (ожидалось)")
    for r in results:
        lat = ", ".join(f"{x:.2f}" for x in r.latencies) or "—"
        print(
            f"{r.name:<12} {r.right:>5} {r.wrong:>5} {r.missed:>7}  {lat:<12} "
            f"{describe(r.heard)} ({describe(r.expected)})"
        )
    median = total["latency_median_s"]
    print(
        f"файлов {total['files']}: верно {total['right']}, лишних {total['wrong']}, "
        f"пропущено {total['missed']}; задержка: медиана {median if median is not None else '—'} с, "
        f"наибольшая {total['latency_max_s'] or '—'} с; доля реального времени {total['real_time_factor']}"
    )
    return 0


def cmd_model_record(args: argparse.Namespace) -> int:
    from hardware.factory import make_audio
    from host_device.config import load_config
    from host_device.listening.model_test import record_folder

    config = load_config(Path(args.config) if args.config else None)
    events: queue.Queue[Any] = queue.Queue()
    wav = Path(args.wav) if args.wav else None
    microphone, speaker = make_audio(args.audio, time.monotonic, events, 22050, config.microphone, None, wav)
    try:
        record_folder(Path(args.dir), microphone, args.seats)
    finally:
        speaker.close()
    return 0


def _print_all(out: queue.Queue[Any]) -> None:
    while not out.empty():
        _print(out.get_nowait())


def _print(item: Any) -> None:
    """One thing heard as a JSON line (the Voice the runtime watches after «Время!» is not printed)."""
    from host_device.listening.listener import Voice

    if not isinstance(item, Voice):
        print(json.dumps(item.to_dict(), ensure_ascii=False), flush=True)


def add_commands(commands: Any) -> None:
    model = commands.add_parser("model", help="модель распознавания речи: установка, проверка, запись, тест")
    sub = model.add_subparsers(dest="model_command", required=True, metavar="ДЕЙСТВИЕ")
    p = sub.add_parser(
        "install", help=f"установить модель {DEFAULT_MODEL} (скачать, или --from архив или папка)"
    )
    p.add_argument(
        "--from", dest="source", metavar="АРХИВ_ИЛИ_ПАПКА", help="архив .zip или папка модели на этой машине"
    )
    p.add_argument(
        "--to",
        metavar="ПАПКА",
        help="куда установить (по умолчанию: $HOST_DEVICE_MODEL, "
        f"иначе models/{DEFAULT_MODEL} в папке данных)",
    )
    p.add_argument("--url", metavar="URL", help="скачать с этого адреса вместо закреплённого")
    p.add_argument(
        "--force", action="store_true", help="установить модель, даже если она не слышит некоторых слов игры"
    )
    p.set_defaults(func=cmd_model_install)
    p = sub.add_parser(
        "check", help="путь модели, её размер, какие слова игры она знает; код 1, если каких-то не слышит"
    )
    flags.model(p)
    p.set_defaults(func=cmd_model_check)
    p = sub.add_parser("test", help="как модель слышит папку записей (файлы WAV и expected.tsv)")
    p.add_argument("dir", metavar="ПАПКА", help="папка записей (model record)")
    flags.model(p)
    flags.seats(p, default=12, help="мест за столом (по умолчанию 12)")
    p.add_argument("--patterns", metavar="ФАЙЛ.toml", help="другой файл шаблонов")
    p.add_argument("--json", action="store_true", help="один объект JSON вместо таблицы")
    p.set_defaults(func=cmd_model_test)
    p = sub.add_parser("record", help="записать проверочные фразы в папку, для model test")
    p.add_argument("dir", metavar="ПАПКА", help="куда записывать (повторный запуск дописывает недостающее)")
    flags.seats(p, default=12, help="мест за столом (по умолчанию 12)")
    p.add_argument(
        "--audio",
        default="device",
        choices=("device", "file"),
        help="device (по умолчанию): микрофон; file: слышно то, что в --wav",
    )
    p.add_argument("--wav", metavar="ФАЙЛ.wav", help="с --audio file: что слышит микрофон")
    p.add_argument("--config", metavar="ФАЙЛ.toml", help="микрофон из раздела [audio] этого файла")
    p.set_defaults(func=cmd_model_record)

    p = commands.add_parser("listen", help="печатать, что слышно (текст и намерения), строками JSON")
    flags.model(p)
    p.add_argument("--wav", metavar="ФАЙЛ.wav", help="слушать файл вместо микрофона")
    flags.seats(p)
    p.add_argument("--device", metavar="УСТРОЙСТВО", help="микрофон (имя или номер: host-device devices)")
    p.add_argument("--partials", action="store_true", help="печатать и промежуточные результаты")
    p.set_defaults(func=cmd_listen)
