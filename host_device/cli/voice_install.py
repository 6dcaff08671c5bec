"""``host-device voices install|list|use`` and ``voices build --voice piper:…|rhvoice:…``: the
voices a box has (voices/installed.py: espeak-ng's, RHVoice's, Piper's), which one speaks and why."""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

from host_device.base.download import sha256_of
from voices import rhvoice
from voices.catalogue import Catalogue, load_catalogue
from voices.errors import VoiceError
from voices.installed import (
    BUILTIN,
    CHOSEN,
    chosen,
    default_voice,
    describe,
    find,
    in_use,
    installed,
    pack_of,
    pins,
    ready_pack,
    use,
    voices_dir,
)
from voices.pack import BuildReport
from voices.piper import build_piper, voice_info
from voices.piper_install import install

PIPER = "piper:"
RHVOICE = "rhvoice:"


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


def build_with_rhvoice(voice: str, to: str | None, catalogue: Catalogue) -> tuple[Path, BuildReport]:
    """``--voice rhvoice:NAME``: its pack into ``to``, by default the box's own folder of that voice."""
    name = voice.removeprefix(RHVOICE)
    home = rhvoice.find()
    if home is None:
        raise VoiceError(f"{voice}: {rhvoice.missing()}")
    own = to is None
    directory = Path(to) if to else voices_dir() / (rhvoice.PREFIX + name)
    return directory, rhvoice.build_rhvoice(directory, catalogue, name, home, own=own)


def cmd_install(args: argparse.Namespace) -> int:
    before = in_use()
    voice = install(args.source, force=args.force, sha256=args.sha256 or "", progress=_say)
    _say(f"собираю набор голоса {voice.name} (все фразы; на Raspberry Pi — минуты)")
    pack = pack_of(voice.name, _catalogue(args))
    use(voice.name)
    print(f"голос {voice.name} установлен ({len(pack.clips)} записей) и теперь говорит")
    if before != voice.name:
        print(f"вернуть прежний: host-device voices use {shlex.quote(before)}")
    return 0


def cmd_use(args: argparse.Namespace) -> int:
    pack = pack_of(args.name, _catalogue(args))  # its clips, rendered now where missing, not at the table
    use(args.name)
    print(f"говорит {describe(args.name)}; набор: {pack.voice}, записей {len(pack.clips)}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args)
    now = in_use()
    print("голоса (* — говорит сейчас):")

    def line(name: str, what: str) -> None:
        ready = ready_pack(name, catalogue) is not None
        pack = "набор готов" if ready else f"набор соберёт: host-device voices use {shlex.quote(name)}"
        print(f"{'*' if name == now else ' '} {name:<24} {what}; {pack}")

    home = rhvoice.find()
    if home is not None:
        for name in home.voices():
            line(rhvoice.PREFIX + name, f"RHVoice ({home.gender(name)}); {home.licence(name)}")
    line(BUILTIN, "espeak-ng, есть всегда; говорит, где нет RHVoice")
    licences = pins()
    for voice in installed():
        size = voice.model.stat().st_size / 1e6
        licence = licences[voice.name].licence if voice.name in licences else "см. MODEL_CARD голоса"
        info = voice.info
        line(
            voice.name,
            f"Piper, {info.language}, {info.quality}, {info.rate} Гц, {size:.0f} МБ; "
            f"лицензия данных: {licence}",
        )
    more = [name for name in licences if name not in {v.name for v in installed()}]
    if more:
        print("можно установить (host-device voices install ИМЯ или ФАЙЛ.onnx):")
        for name in more:
            print(f"  {name:<24} {licences[name].licence}")
    print(f"говорит {describe(now)} — {CHOSEN if chosen() else default_voice()[1]}")
    if home is None and chosen():
        print(f"RHVoice: {rhvoice.missing()}")
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

    p = sub.add_parser("list", help="голоса: RHVoice, espeak-ng, Piper; их лицензии; какой говорит и почему")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser(
        "use",
        help="каким голосом говорить: голос RHVoice (rhvoice-aleksandr-hq, rhvoice-anna …), "
        "espeak-ng (builtin) или голос Piper (его имя)",
    )
    p.add_argument("name", metavar="ИМЯ", help="имя голоса (host-device voices list)")
    p.set_defaults(func=cmd_use)
