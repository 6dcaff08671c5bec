"""A table's pages with phones and a console, for tests: the publisher, and
the real server on loopback with the limits a test gives it."""

import contextlib
import functools
import queue

from engine import Game
from host_device.runtime.clock import Scheduler
from host_device.runtime.loop import Runtime
from host_device.runtime.settings import Settings
from host_device.screens.public import PublicStream
from host_device.screens.views import Console
from host_device.web.access import Access
from host_device.web.publisher import Private, Publisher
from voices.catalogue import russian


def private_publisher(phones=(3, 4)):
    """A host-mode table with phones at ``phones``: its publisher, the tokens and the runtime's inbox."""
    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
    inbox: queue.Queue = queue.Queue()
    access = Access.new(phones)
    console = Console(runtime, None, whole_table=False, typed=True)
    publisher = Publisher(PublicStream(runtime, russian().text), 1.0, Private(access, console, inbox))
    return publisher, access, inbox


@contextlib.contextmanager
def on_loopback(*limits, phones=(3, 4)):
    """The server listening on 127.0.0.1 (with ``limits``, if given): yields its port, the tokens, the inbox."""
    from host_device.web.server import WebServer

    publisher, access, inbox = private_publisher(phones)
    server = WebServer(publisher, "127.0.0.1", 0, *limits)
    _, port = server.start()
    try:
        yield port, access, inbox
    finally:
        server.stop()


def drained(inbox):
    items = []
    while not inbox.empty():
        items.append(inbox.get_nowait())
    return items


@functools.cache
def _full_game_inputs():
    """The example full game's inputs (simulated once a run)."""
    import tempfile
    from pathlib import Path

    from host_device.scripts.script import load_script
    from host_device.scripts.simulate import simulate
    from host_device.store import Store
    from tests.helpers.paths import ROOT

    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "g.db")
        simulate(load_script(ROOT / "examples" / "classic-full-game.json"), lambda k, s: 1.0, store=store)
        inputs = tuple(inp for _, _, inp in store.games.inputs(1))
        store.close()
    return inputs


def console_at(moment=None, assist=False, typed=True, whole_table=False):
    """A table's pages with the example full game (classic) played until ``moment(game)``
    holds (None: not begun): its publisher and inbox, the console host mode's
    (``assist``: a human host's)."""
    from host_device.runtime.assist import Assist

    runtime = Runtime(Game("classic"), Scheduler(), lambda key, slots: 1.0, Settings())
    if moment is not None:
        game = Game("classic")
        for inp in _full_game_inputs():
            if moment(game):
                break
            game.handle(inp)
        assert moment(game), "the example game never came to that moment"
        runtime.adopt(game)
    inbox: queue.Queue = queue.Queue()
    helper = Assist(runtime, role_entry=True) if assist else None
    console = Console(runtime, helper, whole_table=whole_table, typed=typed)
    publisher = Publisher(PublicStream(runtime, russian().text), 1.0, Private(Access.new(()), console, inbox))
    return publisher, inbox
