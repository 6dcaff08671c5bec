"""``host-device voices record``: a person records a voice pack, clip by clip.

For each clip the text is shown; Enter starts the recording, Enter stops it
(or it stops after MAX_SECONDS). The take is trimmed and normalised like a
rendered clip, played back, and kept or redone. The manifest is written after
every kept clip, so stopping half way loses nothing.
"""

from __future__ import annotations

import json
import shlex
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.microphone import Microphone, SoundDeviceMicrophone, take
from hardware.speaker import Playback, Speaker
from host_device.base.files import write_text
from host_device.base.sound import write_wav
from voices.audio import prepare, resample
from voices.catalogue import Catalogue
from voices.pack import MANIFEST, read_manifest

PACK_RATE = 22050
MAX_SECONDS = 10.0


def _manifest(directory: Path) -> dict[str, Any]:
    """The pack's manifest, read as every pack's is (size-capped, a regular file, names inside the
    folder: a FIFO, /dev/zero or deep nesting is one line); a folder with none starts a new one."""
    if (directory / MANIFEST).exists() or (directory / MANIFEST).is_symlink():
        return read_manifest(directory)
    return {
        "name": directory.name,
        "language": "ru",
        "sample_rate": PACK_RATE,
        "source": {"kind": "recorded"},
        "clips": {},
    }


def _save_manifest(directory: Path, manifest: dict[str, Any]) -> None:
    write_text(directory / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))


def take_until_enter(
    microphone: Microphone, ask: Callable[[str], str], prompt: str, max_seconds: float
) -> tuple[Any, int]:
    """Record from ``microphone`` until the person presses Enter (or ``max_seconds`` pass)."""
    stop = threading.Event()

    def wait_for_enter() -> None:
        ask(prompt)
        stop.set()

    waiter = threading.Thread(target=wait_for_enter, daemon=True)
    waiter.start()
    samples, rate = take(microphone, stop, max_seconds)
    stop.set()
    waiter.join(timeout=max_seconds)
    return samples, rate


def record_session(
    directory: Path,
    catalogue: Catalogue,
    microphone: Microphone,
    speaker: Speaker,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    only: list[str] | None = None,
) -> int:
    """Walk through the clips (the missing ones, or ``only``); returns how many were kept."""
    directory.mkdir(parents=True, exist_ok=True)
    manifest = _manifest(directory)
    rate = int(manifest["sample_rate"])
    clips = catalogue.clips()
    todo = [k for k in (only or clips) if only or k not in manifest["clips"]]
    unknown = [k for k in todo if k not in clips]
    if unknown:
        say(f"no such clip: {', '.join(unknown)} (see: host-device voices phrases)")
        return 0
    kept = 0
    for number, key in enumerate(todo, start=1):
        say(f"[{number}/{len(todo)}] {key}: «{clips[key]}»")
        while True:
            answer = ask("Enter: record, s: skip, q: quit > ").strip().lower()
            if answer == "q":
                return kept
            if answer == "s":
                break
            samples, mic_rate = take_until_enter(microphone, ask, "recording... Enter: stop > ", MAX_SECONDS)
            clip = prepare(resample(samples, mic_rate, rate), rate)
            if len(clip) == 0:
                say("nothing was heard; again")
                continue
            playback = Playback(clip, rate, label=key)
            speaker.play(playback)
            playback.wait(playback.seconds + 2)
            if ask("k: keep, r: redo > ").strip().lower() != "k":
                continue
            file = f"clips/{key}.wav"
            write_wav(directory / file, clip, rate)
            manifest["clips"][key] = {"file": file, "text": clips[key]}
            _save_manifest(directory, manifest)
            kept += 1
            break
    say(
        f"{kept} clips kept in {directory}; "
        f"check the pack with: host-device voices check {shlex.quote(str(directory))}"
    )
    return kept


def record_pack(
    directory: Path, catalogue: Catalogue, device: str | None = None, only: list[str] | None = None
) -> int:
    from hardware.speaker import SoundDeviceSpeaker

    dev: int | str | None = int(device) if device and device.isdigit() else device
    speaker = SoundDeviceSpeaker(_manifest(directory)["sample_rate"], time.monotonic, device=dev)
    try:
        microphone = SoundDeviceMicrophone(time.monotonic, device=dev, rate=PACK_RATE)
        record_session(directory, catalogue, microphone, speaker, input, print, only)
    finally:
        speaker.close()
    return 0
