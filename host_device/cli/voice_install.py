"""``host-device voices install|list|use`` and ``voices build --voice piper:…``: the
Piper voices a box has (voices/installed.py) and which one speaks."""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

from host_device.base.download import sha256_of
from voices.catalogue import Catalogue, load_catalogue
from voices.errors import VoiceError
from voices.installed import BUILTIN, find, in_use, install, installed, pack_of, pins, ready_pack, use
from voices.pack import BuildReport
from voices.piper import build_piper, voice_info
from voices.render import DEFAULT_RATE, DEFAULT_VOICE

PIPER = "piper:"


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _sha256(text: str) -> str:
    if not re.fullmatch(r"[0-9a-fA-F]{64}", text):
        raise argparse.ArgumentTypeError(f"--sha256 {text}: нужны 64 шестнадцатеричные цифры")
    return text.lower()


def _catalogue(args: argparse.Namespace) -> Catalogue:
    return load_catalogue(Path(args.catalogue) if getattr(args, "catalogue", None) else None)


def build_with_piper(voice: str, to: str | None, catalogue: Catalogue) -> tuple[Path, BuildReport]:
    """``--voice piper:FILE.onnx`` (or piper:NAME, an installed voice): its pack into ``to``,
    by default the installed voice's own folder."""
    given = voice.removeprefix(PIPER)
    model = Path(given)
    if not given.endswith(".onnx"):
        model = find(given).model  # an installed voice, by its name
    info = voice_info(model)
    if not info.russian:
        _say(f"host-device: внимание: голос {info.name} не русский ({info.language or info.espeak})")
    ours = next((v for v in installed() if v.model.resolve() == model.resolve()), None)
    if to is None and ours is None:
        raise VoiceError(
            f"{model}: голос не установлен; куда собрать набор: --to ПАПКА "
            f"(или установите его: host-device voices install {shlex.quote(str(model))})"
        )
    directory = Path(to) if to else model.parent
    own = ours is not None and directory.resolve() == ours.directory.resolve()  # the voice's own folder
    sha256 = ours.sha256 if ours is not None else sha256_of(model)
    return directory, build_piper(directory, catalogue, model, sha256=sha256, own=own)


def cmd_install(args: argparse.Namespace) -> int:
    voice = install(args.source, force=args.force, sha256=args.sha256 or "", progress=_say)
    _say(f"собираю набор голоса {voice.name} (все фразы; на Raspberry Pi — минуты)")
    pack = pack_of(voice.name, _catalogue(args))
    use(voice.name)
    print(f"голос {voice.name} установлен ({len(pack.clips)} записей) и теперь говорит")
    print(f"вернуть встроенный: host-device voices use {BUILTIN}")
    return 0


def cmd_use(args: argparse.Namespace) -> int:
    pack = pack_of(args.name, _catalogue(args))  # its clips, rendered now where missing, not at the table
    use(args.name)
    print(f"говорит голос {args.name}: {pack.voice}, записей {len(pack.clips)}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args)
    now = in_use()
    print("голоса (* — говорит сейчас):")
    mark = "*" if now == BUILTIN else " "
    print(f"{mark} {BUILTIN:<24} встроенный: espeak-ng, голос {DEFAULT_VOICE}, {DEFAULT_RATE} слов в минуту")
    licences = pins()
    for voice in installed():
        mark = "*" if now == voice.name else " "
        size = voice.model.stat().st_size / 1e6
        licence = licences[voice.name].licence if voice.name in licences else "см. MODEL_CARD голоса"
        ready = ready_pack(voice.name, catalogue) is not None
        pack = "набор готов" if ready else f"набор соберёт: host-device voices use {shlex.quote(voice.name)}"
        info = voice.info
        print(
            f"{mark} {voice.name:<24} Piper, {info.language}, {info.quality}, {info.rate} Гц, "
            f"{size:.0f} МБ; лицензия данных: {licence}; {pack}"
        )
    more = [name for name in licences if name not in {v.name for v in installed()}]
    if more:
        print("можно установить (host-device voices install ИМЯ или ФАЙЛ.onnx):")
        for name in more:
            print(f"  {name:<24} {licences[name].licence}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "install",
        help="установить голос Piper: из файла (флешка) или, по сети, русский голос по имени",
    )
    p.add_argument(
        "source",
        metavar="ФАЙЛ.onnx|ИМЯ",
        help="файл голоса (ФАЙЛ.onnx.json — рядом), папка с ним или имя: ru_RU-dmitri-medium …",
    )
    p.add_argument("--force", action="store_true", help="установить и нерусский голос")
    p.add_argument(
        "--sha256",
        metavar="HEX",
        type=_sha256,
        help="ожидаемая sha256 файла голоса; для адреса http(s)://…/ИМЯ.onnx обязательна",
    )
    p.set_defaults(func=cmd_install)

    p = sub.add_parser("list", help="голоса: встроенный, установленные, какой говорит")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("use", help="каким голосом говорить (встроенный: «builtin»)")
    p.add_argument("name", metavar="ИМЯ", help="имя голоса (host-device voices list)")
    p.set_defaults(func=cmd_use)
