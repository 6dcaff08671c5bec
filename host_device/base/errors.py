"""The project's one root error type.

Every error the device raises on purpose derives from :class:`HostDeviceError`
and also from the builtin that fits it, so callers may catch either.
"""

from __future__ import annotations


class HostDeviceError(Exception):
    """Root of every error the project raises on purpose."""


class SoundFileError(HostDeviceError, ValueError):
    """A sound file that cannot be read or is not mono 16-bit WAV."""
