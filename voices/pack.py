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
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from host_device.base.errors import SoundFileError
from host_device.base.files import write_text
from host_device.base.paths import data_dir
from host_device.base.sound import Samples, read_wav, write_wav
from voices.audio import PROCESSING, prepare, resample
from voices.catalogue import Catalogue
from voices.errors import PackError

if TYPE_CHECKING:
    from voices.render import Synthesiser

MANIFEST = "manifest.json"
BUILTIN_NAME = "builtin"


def builtin_pack_dir() -> Path:
    return data_dir() / "voices" / BUILTIN_NAME


class Renderer(Protocol):
    def render(self, text: str) -> tuple[Samples, int]: ...


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


def _read_manifest(directory: Path) -> dict[str, Any]:
    path = directory / MANIFEST
    if not path.exists():
        raise PackError(
            f"{directory}: not a voice pack (no {MANIFEST}); build one with: host-device voices build"
        )
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        for key in ("name", "language", "sample_rate", "clips"):
            data[key]
        if not isinstance(data["clips"], dict) or not isinstance(data["sample_rate"], int):
            raise TypeError("clips must be an object and sample_rate a number")
    except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise PackError(f"{path}: not a valid manifest ({exc})") from None
    except OSError as exc:
        raise PackError(f"{path}: cannot read the manifest: {exc.strerror or exc}") from None
    return data


def _load_clips(directory: Path, manifest: dict[str, Any], report: PackReport) -> dict[str, Samples]:
    clips: dict[str, Samples] = {}
    for key, entry in manifest["clips"].items():
        try:
            samples, rate = read_wav(directory / entry["file"])
        except SoundFileError as exc:
            report.broken.append(f"{key}: {str(exc).split(': ', 1)[-1]}")
            continue
        except (KeyError, TypeError):
            report.broken.append(f"{key}: no file in the manifest")
            continue
        if rate != manifest["sample_rate"]:
            report.broken.append(f"{key}: {rate} Hz, the pack is {manifest['sample_rate']} Hz")
        elif len(samples) == 0:
            report.broken.append(f"{key}: empty")
        else:
            clips[key] = samples
    return clips


def inspect_pack(directory: Path, catalogue: Catalogue) -> tuple[PackReport, Pack]:
    manifest = _read_manifest(directory)
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
) -> BuildReport:
    """Render every clip of the catalogue into the pack, skipping clips whose
    text (and source: voice and rate, and how clips are processed) have not
    changed; nothing is written when nothing changed. ``spoken``: the text the
    renderer is given instead, for those clips (catalogue.py's [spoken]);
    ``rate``: the pack's sample rate (else its first clip's). A write that
    fails (a read-only or full disk) is a :class:`PackError` naming the
    folder and the cause."""
    source = {**(source or {}), "processing": PROCESSING}
    try:
        return _build(directory, catalogue, renderer, name, source, progress, spoken or {}, rate)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise PackError(
            f"{directory}: cannot write the voice pack: {exc.strerror or exc}{where}; "
            "it needs a folder this user can write, on a disk with room"
        ) from None


def _build(
    directory: Path,
    catalogue: Catalogue,
    renderer: Renderer,
    name: str,
    source: dict[str, Any],
    progress: Callable[[str], None] | None,
    spoken: dict[str, str],
    rate: int | None,
) -> BuildReport:
    start = time.monotonic()
    try:
        old = _read_manifest(directory)
    except PackError:
        old = {"clips": {}, "source": None, "sample_rate": None}
    same_source = old.get("source") == source and rate in (None, old.get("sample_rate"))
    clips: dict[str, dict[str, str]] = {}
    rendered, kept = [], []
    rate = rate or old.get("sample_rate")
    for key, text in catalogue.clips().items():
        entry = old["clips"].get(key)
        file = f"clips/{key}.wav"
        wanted = {"file": file, "text": text} | ({"said": spoken[key]} if key in spoken else {})
        if same_source and entry == wanted and (directory / file).exists():
            clips[key] = entry
            kept.append(key)
            continue
        samples, rate = _render(renderer, key, spoken.get(key, text), rate)
        write_wav(directory / file, samples, rate)
        clips[key] = wanted
        rendered.append(key)
        if progress:
            progress(key)
    removed = sorted(set(old["clips"]) - set(clips))
    for key in removed:
        (directory / f"clips/{key}.wav").unlink(missing_ok=True)
    manifest = {
        "name": name,
        "language": catalogue.language,
        "sample_rate": rate,
        "source": source,
        "clips": clips,
    }
    if manifest != old:  # nothing changed: nothing written (the data folder may be read-only)
        write_text(directory / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
    return BuildReport(rendered, kept, removed, time.monotonic() - start)


def build_builtin(
    directory: Path,
    catalogue: Catalogue,
    voice: str,
    rate: int,
    *,
    synthesiser: Callable[[str, int], Synthesiser] | None = None,
) -> BuildReport:
    """Render the catalogue with espeak-ng (``synthesiser(voice, rate)``, a
    :class:`~voices.render.Synthesiser` unless given) and say once, on stderr,
    which way the clips were rendered."""
    from voices.render import Synthesiser

    synth = (synthesiser or Synthesiser)(voice, rate)
    try:
        report = build_pack(
            directory, catalogue, synth, source={"kind": "espeak-ng", "voice": voice, "rate": rate}
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

    report = build_builtin(directory, catalogue, DEFAULT_VOICE, DEFAULT_RATE)
    if report.rendered:
        built = len(report.rendered)
        print(f"встроенный голосовой пакет собран в {directory} (клипов: {built})", file=sys.stderr)
    return load_pack(directory, catalogue)
