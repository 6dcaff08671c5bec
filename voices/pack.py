"""Voice packs: a directory with a manifest and one WAV clip per catalogue clip.

    PACK/manifest.json   {"name", "language", "sample_rate", "source", "clips": {key: {"file", "text"}}}
    PACK/clips/KEY.wav   mono 16-bit, trimmed, loudness-normalised, faded

The source says which voice made the pack (espeak-ng, Piper, a person); a clip
rendered from other text than its catalogue text (a neural voice's stress
marks, catalogue.py's [spoken]) keeps that text as "said". A pack is checked
whole when it is loaded, never in the middle of a game.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from host_device.base.errors import SoundFileError
from host_device.base.files import write_text
from host_device.base.paths import data_dir
from host_device.base.sound import MAX_RATE, MIN_RATE, Samples, read_wav, write_wav
from host_device.base.text import shorten
from voices.audio import PROCESSING, prepare, resample
from voices.catalogue import Catalogue
from voices.errors import PackError
from voices.folder import (
    CLIPS,
    MAX_CLIP_SECONDS,
    clip_fault,
    file_fault,
    folder_is_empty,
    name_fault,
    read_json,
    said,
)

if TYPE_CHECKING:
    from voices.render import Synthesiser

MANIFEST = "manifest.json"
MANIFEST_BYTES = 1 << 21  # the built-in pack's is ~40 KB
BUILTIN_NAME = "builtin"


def builtin_pack_dir() -> Path:
    return data_dir() / "voices" / BUILTIN_NAME


class Renderer(Protocol):
    def render(self, text: str) -> tuple[Samples, int]: ...


class OpenedRenderer(Renderer, Protocol):
    """A voice engine a build opened for itself (Piper, RHVoice): it says how it renders, and is closed."""

    @property
    def way(self) -> str: ...

    def close(self) -> None: ...


@dataclass
class Pack:
    directory: Path
    name: str
    language: str
    sample_rate: int
    clips: dict[str, Samples]
    texts: dict[str, str]
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def voice(self) -> str:
        """Which voice made the pack, in a few Russian words."""
        return voice_of(self.source)


def voice_of(source: dict[str, Any] | None) -> str:
    source = source or {}
    if source.get("kind") == "espeak-ng":
        return f"espeak-ng (голос {source.get('voice')}, {source.get('rate')} слов в минуту)"
    if source.get("kind") == "rhvoice":
        return f"RHVoice (голос {source.get('voice')}, {source.get('version')})"
    if source.get("kind") == "piper":
        return f"Piper (голос {source.get('voice')})"
    if source.get("kind") == "recorded":
        return "записан человеком"
    return "неизвестно чей"


@dataclass
class PackReport:
    directory: Path
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # text in the manifest differs from the catalogue
    broken: list[str] = field(default_factory=list)  # "key: why"

    @property
    def complete(self) -> bool:
        return not (self.missing or self.broken)

    def lines(self) -> list[str]:
        out = []
        for label, items in (
            ("missing", self.missing),
            ("broken", self.broken),
            ("changed text", self.changed),
            ("extra", self.extra),
        ):
            if items:
                out.append(f"{label} ({len(items)}): {', '.join(items)}")
        return out


def read_manifest(directory: Path) -> dict[str, Any]:
    """The pack's manifest: a regular file of at most MANIFEST_BYTES, parsed within
    limits, every key a file's name and every clip's file in clips/; else a PackError."""
    path = directory / MANIFEST
    if not path.exists():
        raise PackError(
            f"{directory}: not a voice pack (no {MANIFEST}); build one with: host-device voices build"
        )
    try:
        data = read_json(path, MANIFEST_BYTES)
        if not isinstance(data, dict):
            raise TypeError("not an object")
        for key in ("name", "language", "sample_rate", "clips"):
            data[key]
        if not isinstance(data["clips"], dict) or type(data["sample_rate"]) is not int:
            raise TypeError("clips must be an object and sample_rate a number")
        if not MIN_RATE <= data["sample_rate"] <= MAX_RATE:
            raise TypeError(f"sample_rate {shorten(data['sample_rate'], 20)}")
    except (KeyError, TypeError, ValueError) as exc:  # ValueError: not JSON, not UTF-8, nested too deep
        raise PackError(f"{path}: not a valid manifest ({shorten(exc, 200)})") from None
    except OSError as exc:
        raise PackError(f"{path}: cannot read the manifest: {exc.strerror or exc}") from None
    _check_names(path, data["clips"])
    return data


def _check_names(path: Path, clips: dict[str, Any]) -> None:
    """Every key a file's name and every clip's file in the pack's clips/: a manifest that
    names a path outside its folder (``../``, ``/etc/…``) is refused whole."""
    for key, entry in clips.items():
        why = name_fault(key)
        if why is None and isinstance(entry, dict) and "file" in entry:
            where = file_fault(entry["file"])
            why = f"файл {said(entry['file'])}: {where}" if where else None
        if why is not None:
            raise PackError(
                f"{path}: запись {said(key)}: {why}; набор называет лишь файлы своей папки clips/, "
                "этот не читается"
            )


def _load_clips(directory: Path, manifest: dict[str, Any], report: PackReport) -> dict[str, Samples]:
    clips: dict[str, Samples] = {}
    for key, entry in manifest["clips"].items():
        if not isinstance(entry, dict) or "file" not in entry:
            report.broken.append(f"{key}: no file in the manifest")
            continue
        fault = clip_fault(directory, entry["file"])  # never a FIFO, a device or a file outside
        if fault is not None:
            report.broken.append(f"{key}: {fault}")
            continue
        try:
            samples, rate = read_wav(directory / entry["file"], max_seconds=MAX_CLIP_SECONDS)
        except SoundFileError as exc:
            report.broken.append(f"{key}: {str(exc).split(': ', 1)[-1]}")
            continue
        if rate != manifest["sample_rate"]:
            report.broken.append(f"{key}: {rate} Hz, the pack is {manifest['sample_rate']} Hz")
        elif len(samples) == 0:
            report.broken.append(f"{key}: empty")
        else:
            clips[key] = samples
    return clips


def inspect_pack(directory: Path, catalogue: Catalogue) -> tuple[PackReport, Pack]:
    manifest = read_manifest(directory)
    report = PackReport(directory)
    clips = _load_clips(directory, manifest, report)
    wanted = catalogue.clips()
    texts = {k: str(e.get("text", "")) for k, e in manifest["clips"].items() if isinstance(e, dict)}
    report.missing = [k for k in wanted if k not in manifest["clips"]]
    report.extra = sorted(k for k in manifest["clips"] if k not in wanted)
    report.changed = [k for k in wanted if k in texts and texts[k] != wanted[k]]
    source: dict[str, Any] = manifest["source"] if isinstance(manifest.get("source"), dict) else {}
    pack = Pack(
        directory,
        str(manifest["name"]),
        str(manifest["language"]),
        manifest["sample_rate"],
        clips,
        texts,
        source,
    )
    return report, pack


def load_pack(directory: Path, catalogue: Catalogue, *, complete: bool = True) -> Pack:
    """Load a pack and check it against the catalogue; a broken clip, or a
    missing one when ``complete``, is a :class:`PackError` naming them."""
    report, pack = inspect_pack(directory, catalogue)
    if report.broken or (complete and report.missing):
        raise PackError(f"voice pack {directory} is not usable: " + "; ".join(report.lines()))
    return pack


@dataclass
class BuildReport:
    rendered: list[str]
    kept: list[str]
    removed: list[str]
    seconds: float


def _render(renderer: Renderer, key: str, text: str, rate: int | None) -> tuple[Samples, int]:
    """One clip, prepared, at the pack's rate (the first clip's, when the pack has none yet);
    a clip rendered as silence is refused, naming it."""
    raw, clip_rate = renderer.render(text)
    rate = rate or clip_rate
    samples = prepare(resample(raw, clip_rate, rate), rate)
    if not len(samples):
        raise PackError(
            f"clip {key!r} ({text!r}) rendered as silence; "
            "check that espeak-ng speaks (espeak-ng -v ru 'проверка')"
        )
    return samples, rate


def build_pack(
    directory: Path,
    catalogue: Catalogue,
    renderer: Renderer,
    *,
    name: str = BUILTIN_NAME,
    source: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    spoken: dict[str, str] | None = None,
    rate: int | None = None,
    own: bool = False,
) -> BuildReport:
    """Render every clip of the catalogue into the pack, skipping clips whose
    text (and source: voice and rate, and how clips are processed) have not
    changed; nothing is written when nothing changed. ``spoken``: the text the
    renderer is given instead, for those clips (catalogue.py's [spoken]);
    ``rate``: the pack's sample rate (else its first clip's). The folder must
    be missing, empty or a pack (:func:`_old_manifest`); ``own``: the box's own
    folder in the data folder, rebuilt over whatever is there. A write that
    fails (a read-only or full disk) is a :class:`PackError` naming the
    folder and the cause."""
    source = {**(source or {}), "processing": PROCESSING}
    try:
        return _build(directory, catalogue, renderer, name, source, progress, spoken or {}, rate, own)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise PackError(
            f"{directory}: cannot write the voice pack: {exc.strerror or exc}{where}; "
            "it needs a folder this user can write, on a disk with room"
        ) from None


def _old_manifest(directory: Path, own: bool) -> dict[str, Any] | None:
    """The pack already in ``directory``, None where there is none yet. A folder that is
    not a pack (a manifest.json of something else, or other files and no manifest) is
    refused, nothing written into it, unless it is the box's own (``own``): there a
    manifest that does not read is built over, and nothing it names is deleted."""
    if directory.exists() and not directory.is_dir():
        raise PackError(f"{directory}: это файл, а не папка; набор собирается в папку")
    clips = directory / CLIPS
    if clips.is_symlink() or (clips.exists() and not clips.is_dir()):
        raise PackError(f"{clips}: не папка набора (ссылка или файл); набор туда не пишется")
    if not directory.exists():
        return None
    if os.path.lexists(directory / MANIFEST):
        try:
            return read_manifest(directory)
        except PackError as exc:
            if own:
                return None
            raise PackError(
                f"{exc}; папка {directory} — не голосовой набор и не перезаписывается: "
                "соберите набор в пустую или новую папку"
            ) from None
    if own or folder_is_empty(directory):
        return None
    raise PackError(
        f"{directory}: папка не пуста, и в ней нет {MANIFEST}: это не голосовой набор; "
        "набор собирается в пустую или новую папку"
    )


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _build(
    directory: Path,
    catalogue: Catalogue,
    renderer: Renderer,
    name: str,
    source: dict[str, Any],
    progress: Callable[[str], None] | None,
    spoken: dict[str, str],
    rate: int | None,
    own: bool,
) -> BuildReport:
    start = time.monotonic()
    wanted_clips = catalogue.clips()
    bad = next(((k, why) for k in wanted_clips if (why := name_fault(k))), None)
    if bad is not None:
        raise PackError(f"ключ {said(bad[0])} каталога не годится в имя файла ({bad[1]})")
    found = _old_manifest(directory, own)
    old = found or {"clips": {}, "source": None, "sample_rate": None}
    same_source = old.get("source") == source and rate in (None, old.get("sample_rate"))
    clips: dict[str, dict[str, str]] = {}
    rendered: list[str] = []
    kept: list[str] = []
    rate = rate or old.get("sample_rate")
    language = catalogue.language
    for key, text in wanted_clips.items():
        entry = old["clips"].get(key)
        file = f"{CLIPS}/{key}.wav"
        wanted = {"file": file, "text": text} | ({"said": spoken[key]} if key in spoken else {})
        if same_source and entry == wanted and _is_file(directory / file):
            clips[key] = entry
            kept.append(key)
            continue
        samples, rate = _render(renderer, key, spoken.get(key, text), rate)
        if found is None and not rendered:  # the folder is claimed as a pack before a clip is in it
            directory.mkdir(parents=True, exist_ok=True)
            claim = {"name": name, "language": language, "sample_rate": rate, "source": source, "clips": {}}
            write_text(directory / MANIFEST, json.dumps(claim, ensure_ascii=False, indent=1))
        write_wav(directory / file, samples, rate)
        clips[key] = wanted
        rendered.append(key)
        if progress:
            progress(key)
    removed = sorted(set(old["clips"]) - set(clips))
    for key in removed:  # keys that read_manifest found to be file names: in the pack's clips/
        (directory / CLIPS / f"{key}.wav").unlink(missing_ok=True)
    manifest = {
        "name": name,
        "language": language,
        "sample_rate": rate,
        "source": source,
        "clips": clips,
    }
    if manifest != old:  # nothing changed: nothing written (the data folder may be read-only)
        directory.mkdir(parents=True, exist_ok=True)
        write_text(directory / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
    return BuildReport(rendered, kept, removed, time.monotonic() - start)


def build_builtin(
    directory: Path,
    catalogue: Catalogue,
    voice: str,
    rate: int,
    *,
    synthesiser: Callable[[str, int], Synthesiser] | None = None,
    own: bool = False,
) -> BuildReport:
    """Render the catalogue with espeak-ng (``synthesiser(voice, rate)``, a
    :class:`~voices.render.Synthesiser` unless given) and say once, on stderr,
    which way the clips were rendered."""
    from voices.render import Synthesiser

    synth = (synthesiser or Synthesiser)(voice, rate)
    try:
        report = build_pack(
            directory,
            catalogue,
            synth,
            source={"kind": "espeak-ng", "voice": voice, "rate": rate},
            own=own,
        )
    finally:
        synth.close()
    if report.rendered:
        print(f"голосовой пакет {directory}: {synth.way}", file=sys.stderr)  # once a build, not once a clip
    return report


def ensure_builtin(catalogue: Catalogue) -> Pack:
    """The built-in pack, built first if it is not there or out of date
    (nothing is written when it is up to date: the data folder may be read-only)."""
    home = data_dir()
    if home.exists() and not home.is_dir():
        raise PackError(f"{home}: the data folder is a file, not a folder; set HOST_DEVICE_DATA to a folder")
    directory = builtin_pack_dir()
    from voices.render import DEFAULT_RATE, DEFAULT_VOICE

    report = build_builtin(directory, catalogue, DEFAULT_VOICE, DEFAULT_RATE, own=True)
    if report.rendered:
        built = len(report.rendered)
        print(f"встроенный голосовой пакет собран в {directory} (клипов: {built})", file=sys.stderr)
    return load_pack(directory, catalogue)


def build_with(
    directory: Path,
    catalogue: Catalogue,
    synth: OpenedRenderer,
    *,
    name: str,
    source: dict[str, Any],
    rate: int,
    own: bool = False,
) -> BuildReport:
    """:func:`build_pack` of the catalogue (each clip from its [spoken] text where it has one) by an
    engine this build opened: closed after it whatever happens, and how its clips were rendered said
    once on stderr when any was."""
    try:
        report = build_pack(
            directory, catalogue, synth, name=name, source=source, spoken=catalogue.spoken, rate=rate, own=own
        )
    finally:
        synth.close()
    if report.rendered:
        print(f"голосовой пакет {directory}: {synth.way}", file=sys.stderr)
    return report
