"""``host-device voices ...`` and ``host-device say``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from engine.presets import MAX_SEATS
from host_device.base.errors import os_reason
from host_device.base.text import shorten
from host_device.cli import voice_install
from host_device.cli.arguments import number_in
from voices.catalogue import Catalogue, load_catalogue
from voices.errors import SlotError, VoiceError
from voices.pack import build_builtin, builtin_pack_dir, ensure_builtin, inspect_pack, load_pack
from voices.render import DEFAULT_RATE, DEFAULT_VOICE

EXIT_INCOMPLETE = 1


def _catalogue(args: argparse.Namespace) -> Catalogue:
    return load_catalogue(Path(args.catalogue) if getattr(args, "catalogue", None) else None)


def cmd_build(args: argparse.Namespace) -> int:
    if args.voice.startswith(voice_install.PIPER):
        directory, report = voice_install.build_with_piper(args.voice, args.to, _catalogue(args))
    elif args.voice.startswith(voice_install.RHVOICE):
        directory, report = voice_install.build_with_rhvoice(args.voice, args.to, _catalogue(args))
    else:
        directory = Path(args.to) if args.to else builtin_pack_dir()
        own = not args.to  # the data folder's pack; a folder named with --to must be empty or a pack
        report = build_builtin(directory, _catalogue(args), args.voice, args.rate, own=own)
    print(
        f"{directory}: записей озвучено {len(report.rendered)}, без изменений {len(report.kept)}, "
        f"удалено {len(report.removed)}, за {report.seconds:.1f} с"
    )
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    report, pack = inspect_pack(Path(args.dir), _catalogue(args))
    print(f"{args.dir}: {pack.name}, {pack.language}, {pack.sample_rate} Гц, записей {len(pack.clips)}")
    print(f"голос: {pack.voice}")
    for line in report.lines():
        print(line)
    if report.complete:
        print("голос полный")
        return 0
    return EXIT_INCOMPLETE


EXAMPLE_SLOTS: dict[str, Any] = {
    "seat": 7,
    "seats": (3, 5, 8),
    "count": 3,
    "seconds": 60,
    "role": "don",
    "team": "red",
    "word": "честно",
}


def phrase_table(catalogue: Catalogue) -> str:
    """Every phrase as a Markdown table: key, template, what it says with example slots."""
    rows = ["| key | text | said, e.g. |", "|---|---|---|"]
    for key in catalogue.names():
        phrase = catalogue.phrase(key)
        slots = {k: v for k, v in EXAMPLE_SLOTS.items() if k in phrase.slots}
        said = [catalogue.text(key, slots)]
        template = phrase.template
        if phrase.one is not None:
            template = f"one: {phrase.one.template}<br>many: {phrase.template}"
            said.insert(0, catalogue.text(key, {**slots, "seats": slots["seats"][-1:]}))
        rows.append(f"| `{key}` | {template} | {'<br>'.join(said)} |")
    return "\n".join(rows) + "\n"


def cmd_phrases(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args)
    if args.markdown:
        print(phrase_table(catalogue), end="")
        return 0
    for key in catalogue.names():
        print(f"{key}\t{catalogue.phrase(key).template}")
    return 0


def _value(text: str) -> int | str:
    """A number written with the digits 0-9 is a number; anything else is a word."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else text[:40]


def parse_slots(pairs: list[str]) -> dict[str, Any]:
    slots: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SlotError(
                f"{shorten(pair, 40)!r}: значения задаются как имя=значение, например seat=7 или seats=5,8"
            )
        if name == "seats":
            values = value.split(",")
            if len(values) > MAX_SEATS:
                raise SlotError(f"seats=…: значений {len(values)}; можно не больше {MAX_SEATS}")
            slots[name] = tuple(_value(v) for v in values)
        else:
            slots[name] = _value(value)
    return slots


def cmd_say(args: argparse.Namespace) -> int:
    from hardware.speaker import Playback, SoundDeviceSpeaker
    from host_device.base.sound import write_wav
    from host_device.sound.announcer import Announcer
    from voices.installed import voice_in_use

    catalogue = _catalogue(args)
    slots = parse_slots(args.slots)
    catalogue.plan(args.key, slots)  # a bad key or slot fails before any audio work
    unknown = sorted(set(slots) - set(catalogue.phrase(args.key).slots))
    if unknown:
        wanted = ", ".join(catalogue.phrase(args.key).slots) or "none"
        raise SlotError(f"у фразы {args.key!r} нет значения {unknown[0]!r}; её значения: {wanted}")
    if args.text:
        print(catalogue.text(args.key, slots))
        return 0
    builtin = ensure_builtin(catalogue)
    pack = load_pack(Path(args.pack), catalogue, complete=False) if args.pack else voice_in_use(catalogue)
    announcer = Announcer(catalogue, pack, fallback=builtin)
    audio = announcer.compose(args.key, slots)
    if args.to:
        try:
            write_wav(Path(args.to), audio, pack.sample_rate)
        except OSError as exc:
            raise VoiceError(f"{args.to}: не удалось записать звук: {os_reason(exc)}") from None
        print(f"{args.to}: {len(audio) / pack.sample_rate:.2f} с, {pack.sample_rate} Гц")
        return 0
    speaker = SoundDeviceSpeaker(pack.sample_rate, time.monotonic, device=args.device)
    try:
        playback = Playback(audio, pack.sample_rate, label=args.key)
        speaker.play(playback)
        playback.wait(playback.seconds + 5)
    finally:
        speaker.close()
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    from host_device.sound.recording import record_pack

    return record_pack(Path(args.dir), _catalogue(args), device=args.device, only=args.only)


def cmd_devices(args: argparse.Namespace) -> int:
    from hardware.speaker import NO_DEVICES, device_list, import_sounddevice

    listed = device_list(import_sounddevice())
    if not listed:
        print(f"host-device: {NO_DEVICES}; без звука: --audio null", file=sys.stderr)
        return 1
    print(listed)
    return 0


def add_commands(commands: Any) -> None:
    p = commands.add_parser("devices", help="звуковые устройства (микрофоны и динамики)")
    p.set_defaults(func=cmd_devices)

    voices = commands.add_parser(
        "voices", help="голоса: установить, выбрать; наборы: собрать, записать, проверить; фразы"
    )
    sub = voices.add_subparsers(dest="voices_command", required=True, metavar="ДЕЙСТВИЕ")

    p = sub.add_parser(
        "build", help="озвучить все фразы голосом espeak-ng, RHVoice или Piper (неизменённые не трогает)"
    )
    p.add_argument(
        "--to",
        metavar="ПАПКА",
        help="папка набора (по умолчанию: voices/builtin в папке данных; для RHVoice и Piper — папка голоса)",
    )
    p.add_argument(
        "--voice",
        default=DEFAULT_VOICE,
        metavar="ГОЛОС",
        help=f"голос espeak-ng (по умолчанию {DEFAULT_VOICE}), голос RHVoice: «rhvoice:ИМЯ» (например "
        "«rhvoice:aleksandr-hq») или Piper: piper:ФАЙЛ.onnx, piper:ИМЯ",
    )
    p.add_argument(
        "--rate",
        type=number_in(50, 500, "--rate"),
        default=DEFAULT_RATE,
        metavar="N",
        help=f"слов в минуту, для espeak-ng (по умолчанию {DEFAULT_RATE})",
    )
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("record", help="записать набор голосом человека, кусок за куском")
    p.add_argument("dir", metavar="ПАПКА", help="папка набора (повторный запуск дописывает недостающее)")
    p.add_argument(
        "--device",
        metavar="УСТРОЙСТВО",
        help="микрофон и динамик (имя или номер: host-device devices; по умолчанию — системные)",
    )
    p.add_argument("--only", nargs="*", metavar="КЛЮЧ", help="записать только эти куски")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("check", help="недостающие, лишние, испорченные куски (код 1, если набор неполон)")
    p.add_argument("dir", metavar="ПАПКА", help="папка набора")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("phrases", help="каждый ключ фразы и её текст")
    p.add_argument(
        "--markdown", action="store_true", help="таблица того, что говорит каждая фраза (docs/voices.md)"
    )
    p.set_defaults(func=cmd_phrases)
    voice_install.add_commands(sub)

    for p in sub.choices.values():
        p.add_argument("--catalogue", metavar="FILE.toml", help=argparse.SUPPRESS)

    p = commands.add_parser("say", help="сказать фразу (или записать её звук в файл: --to)")
    p.add_argument("key", metavar="КЛЮЧ", help="ключ фразы (host-device voices phrases)")
    p.add_argument(
        "slots", nargs="*", metavar="имя=значение", help="значения пропусков: seat=7 seats=5,8 role=don …"
    )
    p.add_argument("--pack", metavar="ПАПКА", help="набор голоса (по умолчанию: тот голос, что говорит)")
    p.add_argument("--to", metavar="ФАЙЛ.wav", help="записать звук в файл, а не играть его")
    p.add_argument("--text", action="store_true", help="напечатать точный текст вместо того, чтобы сказать")
    p.add_argument("--device", metavar="УСТРОЙСТВО", help="динамик (имя или номер: host-device devices)")
    p.add_argument("--catalogue", metavar="FILE.toml", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_say)
