"""``run``'s options for tests of the session: the mock panel, a WAV for the microphone, fast."""

from pathlib import Path

from host_device.session.options import GameOptions
from tests.helpers.sound import MIC_WAV

PATHS = ("store", "wav", "model", "config")


def args(**overrides):
    """``GameOptions`` as ``run`` would build them (paths may be given as text; ``no_ambience``
    as the flag is spelled)."""
    base = dict(
        mode="host",
        preset="classic",
        deal="device",
        seed=7,
        panel="mock",
        audio="file",
        wav=MIC_WAV,
        speed=2000.0,
        days=1,
        new=True,
    )
    base.update(overrides)
    if "no_ambience" in base:
        base["ambience"] = not base.pop("no_ambience")
    for name in PATHS:
        if isinstance(base.get(name), str):
            base[name] = Path(base[name])
    return GameOptions(**base)


class StillWall:
    """A wall clock that stands still: every input is handled at the game's now."""

    def now(self):
        return 0.0


def table_inputs(runtime, **overrides):
    """The session's Inputs as host mode's ``run`` has them (no assist, no keyboard, nothing
    printed), with ``overrides``."""
    from host_device.session.inputs import Inputs

    settings = dict(
        clock=StillWall(),
        assist=None,
        keyboard=False,
        power_off=False,
        typed_speech=False,
        show_typed=False,
        verbose=False,
        notice=lambda text, russian: None,
        leave=lambda: None,
        print_line=lambda line: None,
    )
    settings.update(overrides)
    return Inputs(runtime, **settings)
