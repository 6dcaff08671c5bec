"""The fouls corpus (tests/data/fouls_corpus_ru.toml, issue 45): table speeches
written for the purpose, clean ones crowded with look-alikes («клянчить»,
«господа», «черта», «восемьдесят процентов»), every form the rules name in
varied inflections and places, and mixed ones. Each speech names the fouls it
must draw, in order; it goes through what a script plays and simulates with
(`IntentPatterns.parse`), through the live tracker fed as a recogniser would
feed it, and a day of them through `simulate` itself: all three must give
exactly those words."""

import tomllib
from collections import Counter

import pytest

from host_device.listening.hearing import IntentTracker, Word
from host_device.listening.intents import (
    _SENTENCE_END,
    SPOKEN_WORD_S,
    russian_patterns,
    spoken_times,
    tokenise,
)
from host_device.scripts.script import parse_script
from host_device.scripts.simulate import simulate
from tests.helpers.paths import ROOT

CORPUS = tomllib.loads((ROOT / "tests" / "data" / "fouls_corpus_ru.toml").read_text("utf-8"))["speech"]
WORD_LENGTH_S = 0.3  # of SPOKEN_WORD_S a word: the rest is the gap to the next


def ids(speech):
    return speech["text"][:50]


def parsed(text):
    return [i.word for i in russian_patterns().parse(text, 10) if i.intent == "forbidden"]


def live(text):
    """The words the live tracker gives for ``text`` said at a speech's pace: a partial result
    after each word, a final result (each word's confidence 0.9) at each sentence's end."""
    tracker = IntentTracker(russian_patterns(), 10)
    times = iter(spoken_times(text))
    given = []
    for sentence in _SENTENCE_END.split(text):
        utterance = []
        for token in tokenise(sentence):
            start = next(times)
            utterance.append(Word(token, start, start + WORD_LENGTH_S, conf=0.9))
            given += tracker.partial_result(list(utterance), start + SPOKEN_WORD_S)
        if utterance:
            given += tracker.final_result(utterance, utterance[-1].end + 0.5)
    return [h.intent.word for h in given if h.intent.intent == "forbidden"]


def test_the_corpus_is_as_large_as_the_issue_asks():
    kinds = Counter(s["kind"] for s in CORPUS)
    assert kinds["clean"] >= 200 and kinds["forms"] >= 150 and kinds["mixed"] > 0 and len(CORPUS) >= 400
    assert len({s["text"] for s in CORPUS}) == len(CORPUS)
    # every word a remark may name, but the rarest per cents, is in it at least twice
    named = Counter(w for s in CORPUS for w in s["words"])
    words = [w for w in russian_patterns().forbidden_words() if "процент" not in w]
    assert all(named[w] >= 2 for w in words), [w for w in words if named[w] < 2]


@pytest.mark.parametrize("speech", CORPUS, ids=ids)
def test_a_script_hears_exactly_the_fouls_each_speech_names(speech):
    assert parsed(speech["text"]) == speech["words"]


@pytest.mark.parametrize("speech", CORPUS, ids=ids)
def test_the_live_tracker_hears_the_same(speech):
    assert live(speech["text"]) == speech["words"]


def test_a_day_of_mixed_speeches_through_simulate_reports_the_same_words():
    mixed = [s for s in CORPUS if s["kind"] == "mixed"][:10]
    speeches = {str(seat): s["text"] for seat, s in enumerate(mixed, start=1)}
    script = parse_script(
        {"roles": {"3": "don", "5": "mafia", "8": "mafia", "6": "sheriff"}, "days": [{"speeches": speeches}]}
    )
    result, _ = simulate(script, lambda key, slots: 1.5)
    reported = [(f["seat"], f["word"]) for f in result["forbidden"] if f["day"] == 1]
    assert reported == [(seat, w) for seat, s in enumerate(mixed, start=1) for w in s["words"]]
