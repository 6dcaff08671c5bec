"""SIGINT raises KeyboardInterrupt within stopped_by_signals even when the process began with
it ignored (a process manager's, or a script's background job); the handler before comes back."""

import os
import signal

import pytest

from host_device.base.stopping import Stopped, stopped_by_signals


def test_sigint_stops_the_block_even_when_it_was_ignored():
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(KeyboardInterrupt), stopped_by_signals():
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10**6):
                pass
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # as it was before the block
    finally:
        signal.signal(signal.SIGINT, before)


def test_sigterm_and_sighup_are_stopped():
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with pytest.raises(Stopped, match=signal.Signals(signum).name), stopped_by_signals():
            os.kill(os.getpid(), signum)
            for _ in range(10**6):
                pass
