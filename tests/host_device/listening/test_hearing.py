"""Intents from recogniser results, as vosk gives them: partial results that
grow and change, final results at pauses. The corpus is tests/data/hearing_ru.toml."""

import tomllib

import pytest
from num2words import num2words

from host_device.listening.hearing import (
    END_PAUSE_S,
    SETTLE_S,
    IntentTracker,
    PartialText,
    Word,
    can_grow,
    words_of,
)
from host_device.listening.intents import russian_patterns
from tests.helpers.paths import ROOT

CORPUS = tomllib.loads((ROOT / "tests" / "data" / "hearing_ru.toml").read_text("utf-8"))["case"]
WORD_S = 0.3  # each word takes 0.25 s, with 0.05 s between words
SHORT_PAUSE_S = 0.6
LONG_PAUSE_S = 1.5


def simulate(said: str, seats: int = 10, revise=None):
    """Feed a transcript to a tracker the way vosk would: a partial result
    with every 0.1 s block (the words heard so far), a final result at each
    pause. ``revise(words, i)`` may change a partial result's words, as a
    best path does before it settles. Returns [(heard, delivered_at)]."""
    tracker = IntentTracker(russian_patterns(), seats)
    out = []
    t = 0.0
    utterance: list[Word] = []
    blocks = 0

    def take(heard, now):
        out.extend((h, now) for h in heard)

    def block(now):
        nonlocal blocks
        blocks += 1
        partial = list(utterance) if revise is None else revise(list(utterance), blocks)
        take(tracker.partial_result(partial, now), now)

    for token in said.split():
        if token in ("|", "||"):
            now = t + 0.1
            take(tracker.final_result(utterance, now), now)
            utterance = []
            pause = SHORT_PAUSE_S if token == "|" else LONG_PAUSE_S
            for step in range(1, int(pause / 0.1) + 1):  # audio keeps coming: silence
                block(t + step * 0.1)
            t += pause
            continue
        utterance.append(Word(token, t, t + 0.25))
        for step in (0.1, 0.2, WORD_S):
            block(t + step)
        t += WORD_S
    for step in range(1, 6):  # half a second of silence while the window is still open
        block(t + step * 0.1)
    if utterance:  # vosk closes the utterance after that silence
        take(tracker.final_result(utterance, t + 0.6), t + 0.6)
    return out


@pytest.mark.parametrize("case", CORPUS, ids=[c["said"][:40] for c in CORPUS])
def test_corpus(case):
    heard = simulate(case["said"], case.get("seats", 10))
    assert [h.intent.to_dict() for h, _ in heard] == case["expect"]


@pytest.mark.parametrize("case", [c for c in CORPUS if c["expect"]], ids=lambda c: c["said"][:40])
def test_intents_are_delivered_within_half_a_second_of_their_last_word(case):
    for heard, delivered_at in simulate(case["said"], case.get("seats", 10)):
        if heard.intent.intent == "forbidden":
            continue  # heard in the pause after its utterance: below
        limit = END_PAUSE_S + 0.2 if heard.intent.intent == "end" else 0.5
        assert delivered_at - heard.at <= limit, heard


@pytest.mark.parametrize("n", range(1, 13))
def test_every_seat_number_one_to_twelve(n):
    heard = simulate(f"я выставляю игрока номер {num2words(n, lang='ru')} и всё", seats=12)
    assert [h.intent.to_dict() for h, _ in heard] == [{"intent": "nominate", "seat": n}]


def tracker(seats=10, agree=False):
    """The stability rules alone (``agree``: with the agreement of two partial results)."""
    return IntentTracker(russian_patterns(), seats, agree=agree)


def words(text, start=0.0):
    return [Word(w, start + i * WORD_S, start + i * WORD_S + 0.25) for i, w in enumerate(text.split())]


def test_a_number_that_may_still_grow_waits():
    t = tracker()
    w = words("я выставляю игрока номер один")
    assert t.partial_result(w, w[-1].end + 0.05) == []  # "один" may become "одиннадцать"
    assert t.tick(w[-1].end + SETTLE_S - 0.01) == []
    heard = t.tick(w[-1].end + SETTLE_S)
    assert [h.intent.seat for h in heard] == [1]


def test_a_partial_that_grows_into_another_number_delivers_only_that():
    t = tracker(seats=12)
    w = words("я выставляю игрока номер один")
    assert t.partial_result(w, w[-1].end + 0.1) == []
    grown = [*w[:-1], Word("одиннадцать", w[-1].start, w[-1].start + 0.6)]
    heard = t.partial_result(grown, grown[-1].end + 0.05)  # "одиннадцать" cannot grow further
    assert [h.intent.seat for h in heard] == [11]
    assert t.tick(grown[-1].end + 1) == []  # and "один" is never delivered


def test_a_number_that_cannot_grow_is_delivered_at_once():
    t = tracker()
    w = words("я выставляю игрока номер десять")
    heard = t.partial_result(w, w[-1].end + 0.01)
    assert [h.intent.seat for h in heard] == [10]
    assert heard[0].at == w[-1].end and heard[0].words == "я выставляю игрока номер десять"


def test_partials_that_change_before_the_number_still_deliver_once():
    t = tracker()
    assert t.partial_result(words("я выставлю"), 0.6) == []
    assert t.partial_result(words("я выставляю игрока"), 0.9) == []
    w = words("я выставляю игрока номер пять и")
    first = t.partial_result(w, w[-1].end)
    again = t.partial_result(w, w[-1].end + 0.1)
    final = t.final_result(w, w[-1].end + 0.2)
    assert [h.intent.seat for h in first] == [5] and again == [] and final == []


def test_a_final_result_settles_a_number_at_once():
    t = tracker()
    w = words("выставляю игрока номер шесть")
    assert t.partial_result(w, w[-1].end) == []
    assert [h.intent.seat for h in t.final_result(w, w[-1].end)] == [6]


def test_thanks_followed_by_words_does_not_end_the_speech():
    t = tracker()
    w = words("спасибо")
    t.final_result(w, 0.3)
    assert t.tick(0.25 + END_PAUSE_S - 0.1) == []
    t.partial_result(words("и ещё", 1.0), 1.6)
    assert t.tick(5.0) == []


def test_thanks_then_a_pause_ends_the_speech_once():
    t = tracker()
    w = words("вот и всё спасибо")
    t.final_result(w, w[-1].end + 0.5)
    heard = t.tick(w[-1].end + END_PAUSE_S)
    assert [h.intent.intent for h in heard] == ["end"] and heard[0].at == w[-1].end
    assert t.tick(w[-1].end + 3) == []


def test_a_new_segment_never_joins_words_across_an_announcement():
    t = tracker()
    t.final_result(words("я выставляю игрока номер"), 1.5)
    t.new_segment()  # the device spoke here
    assert t.final_result(words("семь", 3.0), 3.5) == []


def test_can_grow():
    assert can_grow("один") and can_grow("семь") and can_grow("пять") and can_grow("два")
    assert not can_grow("десять") and not can_grow("одиннадцать") and not can_grow("игрока")
    assert can_grow("1") and not can_grow("7")


def test_words_of_vosk_results_are_put_on_the_clock():
    partial = {
        "partial": "номер семь",
        "partial_result": [
            {"word": "номер", "start": 0.5, "end": 0.9, "conf": 1.0},
            {"word": "Семь", "start": 0.9, "end": 1.2, "conf": 0.8},
        ],
    }
    assert words_of(partial, 100.0) == [Word("номер", 100.5, 100.9, 1.0), Word("семь", 100.9, 101.2, 0.8)]
    assert words_of({"text": ""}, 0) == []


# ------------------------------------------------------------ partial text and agreement


def test_a_match_in_the_partial_words_waits_for_a_second_partial_that_agrees():
    t = tracker(agree=True)
    w = words("я выставляю игрока номер десять")
    assert t.partial_result(w, w[-1].end + 0.01) == []  # one partial: it may still change
    heard = t.partial_result(w, w[-1].end + 0.11)
    assert [h.intent.seat for h in heard] == [10]


def test_a_best_path_that_changes_every_block_delivers_nothing():
    t = tracker(agree=True)
    base = words("я выставляю игрока номер")
    for i in range(20):
        number = "десять" if i % 2 else "девять"
        heard = t.partial_result([*base, Word(number, 1.2, 1.45)], 1.5 + 0.1 * i)
        assert heard == []
    final = t.final_result([*base, Word("девять", 1.2, 1.45), Word("и", 1.5, 1.6)], 4.0)
    assert [h.intent.seat for h in final] == [9]  # only what the final result says


def test_no_intent_is_delivered_that_the_final_result_withdraws():
    """Over the corpus, a partial result that shows another number for one block now and then
    (as a best path does) never delivers it: every case gives exactly its expected intents."""

    def wobble(partial, block):
        if partial and block % 3 == 0 and partial[-1].text in ("семь", "один", "два", "пять", "десять"):
            return [*partial[:-1], Word("восемь", partial[-1].start, partial[-1].end)]
        return partial

    for case in CORPUS:
        heard = simulate(case["said"], case.get("seats", 10), revise=wobble)
        assert [h.intent.to_dict() for h, _ in heard] == case["expect"], case["said"]


def test_partial_text_stamps_each_word_when_it_first_appears_at_its_place():
    text = PartialText()
    assert [(w.text, w.end) for w in text.update("я выставляю", 1.0)] == [("я", 1.0), ("выставляю", 1.0)]
    assert [(w.text, w.end) for w in text.update("я выставляю игрока", 1.1)][2] == ("игрока", 1.1)
    words_now = text.update("я выставлю игрока номер", 1.2)  # a word changed: it and all after it are new
    assert [(w.text, w.end) for w in words_now] == [
        ("я", 1.0),
        ("выставлю", 1.2),
        ("игрока", 1.2),
        ("номер", 1.2),
    ]
    assert [w.text for w in text.update("Я  ВЫСТАВЛЮ", 1.3)] == ["я", "выставлю"]
    text.clear()
    assert text.update("", 1.4) == []


def utterance_ends(said):
    """The end of each utterance's last word in :func:`simulate`'s timing."""
    ends, t = [], 0.0
    for token in said.split():
        if token in ("|", "||"):
            ends.append(t - WORD_S + 0.25)
            t += SHORT_PAUSE_S if token == "|" else LONG_PAUSE_S
        else:
            t += WORD_S
    return [*ends, t - WORD_S + 0.25]


@pytest.mark.parametrize(
    "said",
    [
        "честно говоря я мирный житель",
        "я мирный честное слово | и выставляю игрока номер три ||",
        "клянусь | спасибо ||",
    ],
)
def test_a_forbidden_word_is_heard_in_the_pause_after_its_utterance_never_during_it(said):
    heard = [(h, at) for h, at in simulate(said) if h.intent.intent == "forbidden"]
    assert len(heard) == 1
    (_, delivered_at), first_end = heard[0], utterance_ends(said)[0]
    assert first_end < delivered_at <= first_end + 0.7  # the final result at the pause


def test_a_forbidden_word_the_recogniser_is_unsure_of_is_not_heard():
    sure = IntentTracker(russian_patterns(), 10, forbidden_conf=0.9)
    unsure = [Word("честно", 0.0, 0.3, conf=0.6), Word("говоря", 0.3, 0.6, conf=1.0)]
    assert sure.final_result(unsure, 1.2) == []
    assert [h.intent.word for h in sure.final_result([Word("честно", 2.0, 2.3, conf=0.95)], 3.0)] == [
        "честно"
    ]


def test_a_forbidden_word_again_within_a_few_seconds_is_one_later_another():
    tracker = IntentTracker(russian_patterns(), 10)
    said = [Word("честно", 0.0, 0.3), Word("честно", 1.0, 1.3), Word("говоря", 1.3, 1.6)]
    assert len(tracker.final_result(said, 2.0)) == 1
    assert len(tracker.final_result([Word("честное", 2.5, 2.9)], 3.5)) == 0  # 2.5 s after the first
    assert len(tracker.final_result([Word("честно", 3.2, 3.5)], 4.0)) == 1  # 3.2 s: another


def test_a_forbidden_word_ending_the_partial_words_asks_for_its_final_result_after_a_short_quiet():
    """The recogniser's own endpoint waits 0.5-1 s of silence; a forbidden word at the end of
    the partial words asks for the final result (its confidence) after EARLY_FINAL_S of quiet."""
    from host_device.listening.hearing import EARLY_FINAL_S

    t = tracker(agree=True)
    w = words("я мирный честно")
    end = w[-1].end
    assert t.partial_result(w, end + 0.1) == [] and not t.wants_final(end + 0.1)  # not agreed yet
    t.partial_result(w, end + 0.2)
    assert not t.wants_final(end + EARLY_FINAL_S - 0.01)
    assert t.wants_final(end + EARLY_FINAL_S)
    heard = t.final_result([Word(x.text, x.start, x.end, conf=0.9) for x in w], end + EARLY_FINAL_S)
    assert [h.intent.word for h in heard] == ["честно"] and not t.wants_final(end + 1.0)


@pytest.mark.parametrize(
    ("said", "why"),
    [
        ("честно говоря я мирный", "more words follow it: the remark waits for the pause anyway"),
        ("я выставляю игрока номер три", "no forbidden word"),
    ],
)
def test_no_early_final_result_without_a_forbidden_word_ending_the_partial_words(said, why):
    t = tracker()
    w = words(said)
    t.partial_result(w, w[-1].end + 0.1)
    assert not t.wants_final(w[-1].end + 1.0), why


def test_a_forbidden_word_said_again_soon_asks_for_no_early_final_result():
    t = tracker()
    first = words("честно")
    assert len(t.final_result(first, first[-1].end + 0.5)) == 1
    again = words("честно", start=1.0)  # within REPEAT_S of the first: the same foul
    t.partial_result(again, again[-1].end + 0.1)
    assert not t.wants_final(again[-1].end + 1.0)
