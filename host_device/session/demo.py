"""``host-device demo``: a whole game hosted with simulated players.

The players are the scripted table of ``simulate`` (an example script by
default); the host is the real runtime on the real clock (or ``--speed``
times faster). What the table may know is printed as it happens: every
phrase, the speeches' nominations, the day's presses; nothing of the night's
presses or LEDs, which would show a role. At normal speed the phrases are
also played through the speaker. It ends with the result in Russian
(:func:`result_lines`); ``simulate`` gives the same game's JSON.
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any, TextIO

from engine import CITY, CLASSIC, EVENT, Game, Team
from hardware.speaker import AudioDeviceError, SoundDeviceSpeaker
from host_device.base.errors import HostDeviceError
from host_device.config import parse_address
from host_device.runtime.assist import Assist
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.screens.narration import Narration
from host_device.scripts.script import load_script
from host_device.scripts.simulate import (
    SCRIPTED_ASSIST,
    ScriptedHost,
    ScriptedTable,
    assist_settings,
)
from host_device.web.server import start_web
from voices.words import WINNER, preset_name

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEFAULT_SCRIPT = EXAMPLES / "classic-full-game.json"
PRESET_SCRIPTS = {
    CLASSIC.name: DEFAULT_SCRIPT,
    EVENT.name: EXAMPLES / "event-game.json",
    CITY.name: EXAMPLES / "city-game.json",
}


def demo(
    script_path: Path | None,
    speed: float,
    audio: str,
    out: TextIO,
    mode: str = "host",
    web: str | None = None,
    preset: str | None = None,
) -> dict[str, Any]:
    from host_device.sound.announcer import Announcer
    from voices.catalogue import russian
    from voices.installed import current

    if script_path is None:
        script_path = PRESET_SCRIPTS.get(preset or CLASSIC.name)
        if script_path is None:
            raise HostDeviceError(
                f"--preset {preset}: для этих правил нет примера игры; есть: {', '.join(PRESET_SCRIPTS)}"
            )
    script = load_script(script_path)
    if preset is not None and script.preset.name != preset:
        name = script.preset.name
        raise HostDeviceError(
            f"--preset {preset}: сценарий {script_path} — игра по правилам «{preset_name(name)}» "
            f"(--preset {name}); уберите --preset или дайте другой сценарий"
        )
    address = parse_address(web) if web else None  # a bad address is named before any sound is opened
    catalogue = russian()
    voice = current(catalogue)  # the voice chosen (voices use), else RHVoice where installed, else espeak-ng
    out.write(f"Г{voice.line()[1:]}\n")  # which voice speaks and why, the demo's first line
    pack = voice.pack
    speaker = None
    if audio == "device" and speed == 1.0:
        try:
            speaker = SoundDeviceSpeaker(pack.sample_rate, time.monotonic)
        except AudioDeviceError as exc:
            out.write(f"(без звука: {str(exc).splitlines()[0]}; демонстрация идёт молча)\n")
    announcer = Announcer(catalogue, pack, speaker)

    sched = Scheduler()
    settings = assist_settings(None) if mode == "assist" else None
    runtime = Runtime(Game(script.preset), sched, announcer.duration, settings)
    table = ScriptedTable(script, runtime)
    if mode == "assist":
        ScriptedHost(Assist(runtime, SCRIPTED_ASSIST, role_entry=False))

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    def play(key: str, slots: dict[str, Any]) -> None:
        if speaker is not None:
            announcer.say(key, **slots)

    Narration(runtime, catalogue.text, write, on_say=play)
    server = None
    try:
        if address is not None:
            server = start_web(address, runtime, catalogue.text, speed, write)
        out.write(f"Демонстрация: {script_path} (скорость ×{speed:g})\n")
        table.deal()
        sched.run_real(speed)
    finally:
        if speaker is not None:
            speaker.close()
        if server is not None:
            server.stop()
    result = table.result()
    out.write("".join(line + "\n" for line in result_lines(result, script_path)))
    return result


def result_lines(result: dict[str, Any], script_path: Path) -> list[str]:
    """The game's end as the demo prints it, in Russian: who won and in how
    many days; and how many of the script's moments the rules refused and
    how many forbidden words were said, with the command that lists them
    (``simulate`` gives the whole result as JSON)."""
    winner = result["winner"]
    if winner is None:
        lines = [f"Итог: сценарий кончился, игра не окончена (день {result['days']})"]
    else:
        lines = [f"Итог: {WINNER[Team(winner)].lower()}, дней: {result['days']}"]
    refused, forbidden = len(result["ignored"]), len(result["forbidden"])
    if refused or forbidden:
        lines.append(
            f"Сценарий: не принято правилами — {refused}, запрещённых слов — {forbidden} "
            f"(какие и почему: host-device simulate {shlex.quote(str(script_path))})"
        )
    return lines
