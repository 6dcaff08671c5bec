"""The runtime: feeds the engine with what the table does and carries out
what the engine asks, on one schedule (virtual or real time).

:class:`Runtime` is its parts mixed over the loop around the engine: what
the engine asks, carried out (:mod:`.effects`: the phrase queue, timers,
LEDs, each step's windows and night calls), the engine's inputs
(:mod:`.engine_inputs`: checked, recorded first, applied), what the table
does (:mod:`.table`), undo (:mod:`.undo`) and the host's free timers
(:mod:`.free_timers`). What it does is written to a timeline
(:mod:`.timeline`).

Host mode and assist mode differ only in :class:`.settings.Settings`: which
steps the device ends by itself (``auto``: host mode all of them; assist
mode the vote windows and the night on buttons, if the host wants them),
whether the table ends a speech (the speaker's button, «спасибо»), and
whether a heard nomination waits for the host's confirmation (``confirm``).
Assist mode adds free timers and undo (:meth:`Runtime.undo_to`).
"""

from __future__ import annotations

from host_device.runtime.free_timers import FreeTimers
from host_device.runtime.table import TableInputs
from host_device.runtime.undo import Undo


class Runtime(TableInputs, Undo, FreeTimers):
    """One game hosted: ``Runtime(game, scheduler, duration, settings)``."""
