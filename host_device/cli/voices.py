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
from host_device.cli.arguments import number_in
from voices.catalogue import Catalogue, load_catalogue
from voices.errors import SlotError, VoiceError
from voices.pack import build_builtin, builtin_pack_dir, ensure_builtin, inspect_pack, load_pack
from voices.render import DEFAULT_RATE, DEFAULT_VOICE

EXIT_INCOMPLETE = 1


def _catalogue(args: argparse.Namespace) -> Catalogue:
    return load_catalogue(Path(args.catalogue) if getattr(args, "catalogue", None) else None)


def cmd_build(args: argparse.Namespace) -> int:
    directory = Path(args.to) if args.to else builtin_pack_dir()
    report = build_builtin(directory, _catalogue(args), args.voice, args.rate)
    print(
        f"{directory}: записей озвучено {len(report.rendered)}, без изменений {len(report.kept)}, "
        f"удалено {len(report.removed)}, за {report.seconds:.1f} с"
    )
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    report, pack = inspect_pack(Path(args.dir), _catalogue(args))
    print(f"{args.dir}: {pack.name}, {pack.language}, {pack.sample_rate} Гц, записей {len(pack.clips)}")
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


def cmd_list(args: argparse.Namespace) -> int:
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
    pack = load_pack(Path(args.pack), catalogue, complete=False) if args.pack else builtin
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
    p = commands.add_parser("devices", help="list the sound devices (microphones and speakers)")
    p.set_defaults(func=cmd_devices)

    voices = commands.add_parser("voices", help="voice packs: build, record, check, list")
    sub = voices.add_subparsers(dest="voices_command", required=True, metavar="ACTION")

    p = sub.add_parser("build", help="render the whole catalogue with espeak-ng (skips unchanged clips)")
    p.add_argument("--to", metavar="DIR", help=f"the pack directory (default: {builtin_pack_dir()})")
    p.add_argument("--voice", default=DEFAULT_VOICE, help=f"espeak-ng voice id (default {DEFAULT_VOICE})")
    p.add_argument(
        "--rate",
        type=number_in(50, 500, "--rate"),
        default=DEFAULT_RATE,
        help=f"words per minute (default {DEFAULT_RATE})",
    )
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("record", help="record a pack in a person's voice, clip by clip")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--device", help="microphone and speaker (name or index; default: the system's)")
    p.add_argument("--only", nargs="*", metavar="KEY", help="record only these clips")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("check", help="missing, extra, broken clips (exit 1 if incomplete)")
    p.add_argument("dir", metavar="DIR")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("list", help="every phrase key and its text")
    p.add_argument(
        "--markdown", action="store_true", help="a table with what each phrase says (docs/voices.md)"
    )
    p.set_defaults(func=cmd_list)

    for p in sub.choices.values():
        p.add_argument("--catalogue", metavar="FILE.toml", help=argparse.SUPPRESS)

    p = commands.add_parser("say", help="say a phrase (or write the exact audio with --to)")
    p.add_argument("key", metavar="KEY")
    p.add_argument(
        "slots", nargs="*", metavar="name=value", help="slot values: seat=7 seats=5,8 role=don ..."
    )
    p.add_argument("--pack", metavar="DIR", help="a voice pack (default: the built-in one)")
    p.add_argument("--to", metavar="FILE.wav", help="write the audio instead of playing it")
    p.add_argument("--text", action="store_true", help="print the exact text instead of saying it")
    p.add_argument("--device", help="the speaker (name or index)")
    p.add_argument("--catalogue", metavar="FILE.toml", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_say)
