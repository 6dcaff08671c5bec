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
