"""Errors of the voice layer (all under the project's root error)."""

from __future__ import annotations

from host_device.base.errors import HostDeviceError


class VoiceError(HostDeviceError):
    """Root of the voice layer's errors."""


class CatalogueError(VoiceError, ValueError):
    """A phrase catalogue that cannot be used."""


class UnknownPhrase(VoiceError, LookupError):
    def __init__(self, key: str, close: list[str]) -> None:
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        super().__init__(f"unknown phrase key {key!r}{hint}")

    def __str__(self) -> str:
        return str(self.args[0])


class SlotError(VoiceError, ValueError):
    """A slot that is missing, or a value that has no words."""


class PackError(VoiceError, ValueError):
    """A voice pack that is missing, incomplete or corrupt."""


class AudioUnavailable(VoiceError, RuntimeError):
    """A system library for sound is missing (the message names the package)."""
