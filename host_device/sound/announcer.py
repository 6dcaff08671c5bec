"""The announcer: says a catalogue phrase from a voice pack through a speaker.

``say`` composes the phrase from the pack's clips (cached), hands it to the
speaker and returns at once with a :class:`Playback` whose times the speaker
fills in. A clip that a recorded pack lacks comes from the fallback (the
built-in pack), with one logged warning per clip.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from hardware.speaker import Playback, Speaker
from host_device.base.sound import Samples
from voices.audio import join, resample, silence, tone
from voices.catalogue import Catalogue, Clip
from voices.errors import PackError
from voices.pack import Pack

log = logging.getLogger(__name__)


class Announcer:
    def __init__(
        self, catalogue: Catalogue, pack: Pack, speaker: Speaker | None = None, fallback: Pack | None = None
    ) -> None:
        self.catalogue = catalogue
        self.pack = pack
        self.fallback = fallback
        self.speaker = speaker
        self.rate = pack.sample_rate
        self._cache: dict[tuple[str, tuple[tuple[str, Any], ...]], Samples] = {}
        self._warned: set[str] = set()
        self._tone = tone(self.rate)

    def compose(self, key: str, slots: Mapping[str, Any] | None = None) -> Samples:
        """The exact audio of a phrase (raises for an unknown key or a missing slot)."""
        slots = {k: v for k, v in (slots or {}).items() if v is not None and v != ()}
        cache_key = (
            key,
            tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in slots.items())),
        )
        cached = self._cache.get(cache_key)
        if cached is not None:
            return cached
        parts = [
            self._clip(item) if isinstance(item, Clip) else silence(item.ms, self.rate)
            for item in self.catalogue.plan(key, slots)
        ]
        audio = join(parts)
        self._cache[cache_key] = audio
        return audio

    def _clip(self, clip: Clip) -> Samples:
        samples = self.pack.clips.get(clip.key)
        if samples is not None:
            return samples
        if self.fallback is not None and clip.key in self.fallback.clips:
            if clip.key not in self._warned:
                self._warned.add(clip.key)
                log.warning("в наборе голоса %s нет фразы %s: встроенный голос", self.pack.name, clip.key)
            return resample(self.fallback.clips[clip.key], self.fallback.sample_rate, self.rate)
        raise PackError(f"voice pack {self.pack.name} lacks clip {clip.key!r} ({clip.text!r}); no fallback")

    def duration(self, key: str, slots: Mapping[str, Any] | None = None) -> float:
        """How long a phrase lasts, in seconds (the runtime queues phrases on it)."""
        return len(self.compose(key, slots)) / self.rate

    def say(self, key: str, **slots: Any) -> Playback:
        """Start saying a phrase; returns at once."""
        return self._play(Playback(self.compose(key, slots), self.rate, label=key))

    def beep(self) -> Playback:
        """The ten-second warning tone."""
        return self._play(Playback(self._tone, self.rate, label="tone"))

    def _play(self, playback: Playback) -> Playback:
        if self.speaker is None:
            raise PackError("this announcer has no speaker (it only composes audio)")
        self.speaker.play(playback)
        return playback

    def stop(self) -> None:
        if self.speaker is not None:
            self.speaker.stop()
