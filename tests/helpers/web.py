"""A table's pages with phones and a console, for tests: the publisher, and
the real server on loopback with the limits a test gives it."""

import contextlib
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
