"""Rendering a pack with a Piper voice (piper-tts: a neural voice in ONNX).

A Piper voice is two files: ``NAME.onnx`` (the network) and ``NAME.onnx.json``
(its settings: sample rate, the espeak-ng voice its phonemes come from, its
language). :class:`PiperSynthesiser` loads the voice on its first clip (a pack
that is up to date loads nothing), gives it the clip's text with the
catalogue's stress marks as piper-tts's phonemizer reads them
(voices/stress.py), and joins the sentences of a clip with the pause a full
stop gets between clips. A pack rendered so is held at PACK_RATE, like the
built-in one, so that the box can switch voices on one open speaker.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from host_device.base.errors import os_reason
from host_device.base.native import load_message
from host_device.base.sound import MAX_RATE, MIN_RATE, Samples
from host_device.base.text import one_line, shorten
from voices.audio import silence
from voices.catalogue import PAUSE_STOP_MS, Catalogue
from voices.errors import AudioUnavailable, VoiceError
from voices.folder import read_json, regular_fault
from voices.pack import BuildReport, build_with
from voices.stress import for_voice

PACK_RATE = 22050  # the built-in pack's rate (espeak-ng's): every pack of the box at one rate
SETTINGS_BYTES = 1 << 20  # a voice's .onnx.json: ~5 KB, a voice of many speakers tens of KB


@dataclass(frozen=True)
class VoiceInfo:
    """What a voice's .onnx.json says (read without loading the network)."""

    name: str  # the file's name without .onnx: ru_RU-dmitri-medium
    language: str  # ru_RU
    espeak: str  # the espeak-ng voice its phonemes come from: ru
    rate: int
    quality: str

    @property
    def russian(self) -> bool:
        return self.espeak.split("-")[0] == "ru" or self.language.split("_")[0] == "ru"


def settings_of(model: Path) -> Path:
    return model.with_name(model.name + ".json")


def voice_info(model: Path) -> VoiceInfo:
    """The voice's settings, or a VoiceError naming the file and what is wrong with it."""
    if model.suffix != ".onnx":
        raise VoiceError(f"{model}: голос Piper — файл .onnx (рядом с ним — .onnx.json)")
    if not model.exists():
        raise VoiceError(f"{model}: нет такого файла")
    if (why := regular_fault(model)) is not None:
        raise VoiceError(f"{model}: {why}; голос Piper — файл .onnx")
    settings = settings_of(model)
    try:
        data: dict[str, Any] = read_json(settings, SETTINGS_BYTES)  # never a FIFO, /dev/zero or deep nesting
        rate = int(data["audio"]["sample_rate"])
        if not MIN_RATE <= rate <= MAX_RATE:
            raise ValueError(f"audio.sample_rate {shorten(rate, 20)}")
        espeak = shorten(data.get("espeak", {}).get("voice", ""), 40)
        language = shorten(data.get("language", {}).get("code", ""), 40)
        data["phoneme_id_map"]  # a voice's settings, not any JSON
    except FileNotFoundError:
        raise VoiceError(f"{model}: нет {settings.name} рядом с ним; голосу Piper нужны оба файла") from None
    except OSError as exc:
        raise VoiceError(f"{settings}: не прочитать настройки голоса Piper: {os_reason(exc)}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        why = one_line(f"{type(exc).__name__}: {exc}", 200)
        raise VoiceError(f"{settings}: не настройки голоса Piper ({why})") from None
    quality = shorten(data.get("audio", {}).get("quality", ""), 40)
    return VoiceInfo(model.name.removesuffix(".onnx"), language, espeak, rate, quality)


class PiperSynthesiser:
    """Renders text to samples with one Piper voice, loaded on the first clip."""

    def __init__(self, model: Path) -> None:
        self.model = model
        self.info = voice_info(model)  # a bad file is named before the network is loaded
        self._voice: Any = None

    @property
    def way(self) -> str:
        return f"клипы озвучены Piper (голос {self.info.name}, {self.info.rate} Гц)"

    def _load(self) -> Any:
        if self._voice is None:
            try:
                from piper import PiperVoice
            except (ImportError, OSError) as exc:  # not installed, or onnxruntime that cannot load
                raise AudioUnavailable(load_message("piper", exc)) from None
            try:
                self._voice = PiperVoice.load(self.model)
            except Exception as exc:  # onnxruntime's own errors for a file that is no network
                why = one_line(str(exc), 200) or type(exc).__name__
                raise VoiceError(f"{self.model}: голос Piper не загрузился ({why})") from None
        return self._voice

    def render(self, text: str) -> tuple[Samples, int]:
        voice = self._load()
        parts: list[Samples] = []
        for chunk in voice.synthesize(for_voice(text)):  # one chunk a sentence
            if parts:
                parts.append(silence(PAUSE_STOP_MS, self.info.rate))
            parts.append(np.asarray(chunk.audio_int16_array, dtype=np.int16))
        if not parts:
            return np.zeros(0, dtype=np.int16), self.info.rate
        return np.concatenate(parts), self.info.rate

    def close(self) -> None:
        self._voice = None


def build_piper(
    directory: Path,
    catalogue: Catalogue,
    model: Path,
    *,
    sha256: str,
    name: str | None = None,
    own: bool = False,
) -> BuildReport:
    """Render the catalogue with a Piper voice into ``directory`` (clips whose text and voice
    have not changed are kept) and say once, on stderr, how the clips were rendered;
    ``own``: the installed voice's folder (build_pack's)."""
    synth = PiperSynthesiser(model)
    source = {"kind": "piper", "voice": synth.info.name, "sha256": sha256}
    return build_with(
        directory, catalogue, synth, name=name or synth.info.name, source=source, rate=PACK_RATE, own=own
    )
