"""The address the device's pages listen on (``--web [HOST:]PORT``, the
config's ``[web].listen``), read from its text. Low in the house: the
command line, the config and the web server all read it here."""

from __future__ import annotations

from engine.errors import HostDeviceError


class WebError(HostDeviceError):
    """A ``--web`` address that is no address, or a server that cannot listen on it."""


def parse_address(text: str) -> tuple[str, int]:
    """``8000`` (every interface: the table's Wi-Fi) or ``HOST:PORT``."""
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise WebError(f"--web {text!r}: give a port (8000) or HOST:PORT (127.0.0.1:8000)")
    return host or "0.0.0.0", number
