"""``run``'s arguments for tests of the session: the mock panel, a WAV for the microphone, fast."""

import argparse

from tests.helpers.sound import MIC_WAV


def args(**overrides):
    base = dict(
        mode="host",
        preset="classic",
        deal="device",
        seed=7,
        panel="mock",
        audio="file",
        wav=str(MIC_WAV),
        model=None,
        config=None,
        speed=2000.0,
        days=1,
        verbose=False,
        store=None,
        resume=None,
        new=True,
    )
    base.update(overrides)
    return argparse.Namespace(**base)


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
