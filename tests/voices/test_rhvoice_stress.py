"""Russian stress as RHVoice says it, verified by RHVoice itself, not assumed.

RHVoice prints no phonemes (its C library and RHVoice-test have no such output), but it reads the
catalogue's own stress mark («+» before the stressed vowel: RHVoice.conf's stress_marker, which
voices/rhvoice.py sets) and it is deterministic: the same labels give the same samples. So a word
is stressed where the list (tests/data/stress_ru.toml) says when its clip, rendered exactly as the
RHVoice pack renders it, gives the very same samples with the list's mark added to that word. A
different mark gives other samples (checked below), so the equality says which vowel RHVoice
stresses. A few words RHVoice transcribes whole from a dictionary («сегодня» [сиво́дня], «модель»
[модэ́ль], «чтобы» [што́бы]): a mark would replace that pronunciation, so their stress is read from
that dictionary instead (tests/helpers/rhvoice.py reads its .fst files as the library does). What
is left to the ear: how it sounds, and whether RHVoice says «чтобы» unstressed in a phrase (its
clitics, which no output shows).
"""

import re

import pytest

from tests.helpers.rhvoice import dictionary_stress
from tests.voices.test_stress import oracle, vowels, who_says, wrong_stresses
from voices.stress import MARK, VOWELS, stressed_vowel, unmarked

pytestmark = pytest.mark.slow  # about a thousand renders: 20 s or so on one core
_WORD = re.compile(r"[а-яё+]+", re.I)


def expected_stress(plain, who):
    words, homographs, _ = oracle()
    return homographs.get(plain, {}).get(who) or words.get(plain)


def marked_at(word, vowel):
    """``word`` with «+» before its ``vowel``-th vowel (0 for the first)."""
    at = [i for i, ch in enumerate(word) if ch in VOWELS][vowel]
    return word[:at] + MARK + word[at:]


def said_stress(text, span, render):
    """Which vowel of the word at ``span`` RHVoice stresses in ``text``: the one whose mark
    leaves the clip's samples as they are; None where no mark does."""
    word = text[span[0] : span[1]]
    for vowel in range(vowels(word)):
        if render(text[: span[0]] + marked_at(word, vowel) + text[span[1] :]) == render(text):
            return vowel
    return None


def rhvoice_faults(text, who, home, render):
    """Words of ``text`` (a clip as the RHVoice pack is given it) that RHVoice stresses otherwise
    than the list says, and words the list lacks. All the words a mark can check are checked at
    once (one render with every mark); word by word only where that differs."""
    faults, checked, with_marks = [], [], text
    for found in reversed(list(_WORD.finditer(text))):
        word, plain = found.group(), unmarked(found.group()).lower()
        if vowels(plain) < 2:
            continue
        expected = expected_stress(plain, who)
        if expected is None:
            faults.append(f"{plain}: not in the list")
        elif MARK in word:  # marked in [spoken]: RHVoice reads the mark (test_the_stress_mark_is_read)
            if stressed_vowel(word) != stressed_vowel(expected):
                faults.append(f"{plain} in {who}: marked {word}, the list says {expected}")
        elif (by_dictionary := dictionary_stress(home, plain)) is not None:
            if by_dictionary != stressed_vowel(expected):
                faults.append(
                    f"{plain} in {who}: RHVoice's dictionary stresses vowel {by_dictionary}, not {expected}"
                )
        else:
            checked.append((found.span(), expected))
            start, end = found.span()
            with_marks = with_marks[:start] + marked_at(word, stressed_vowel(expected)) + with_marks[end:]
    if checked and render(with_marks) != render(text):
        for span, expected in checked:
            said = said_stress(text, span, render)
            if said != stressed_vowel(expected):
                plain = text[span[0] : span[1]].lower()
                how = marked_at(plain, said) if said is not None else "no mark reproduces it"
                faults.append(f"{plain} in {who}: {expected} expected, RHVoice says {how}")
    return faults


def test_a_mark_on_another_vowel_changes_the_samples(rhvoice):
    """The check is not empty: RHVoice's own «пошло́» is the marked «пошл+о», «п+ошло» is not."""
    _, render = rhvoice
    text = "Время пошло."
    assert said_stress(text, (6, 11), render) == 1
    assert render("Время п+ошло.") != render(text) == render("Время пошл+о.")


def test_every_word_of_every_clip_is_stressed_as_the_list_says(catalogue, rhvoice):
    home, render = rhvoice
    faults = []
    for key, text in catalogue.clips().items():
        faults += rhvoice_faults(catalogue.spoken.get(key, text), who_says(key), home, render)
    assert faults == []


def test_each_spoken_text_fixes_its_clip_for_piper_or_for_rhvoice(catalogue, rhvoice, russian_phonemes):
    """Without its «+» marks every [spoken] clip is stressed wrong somewhere, by Piper's phonemizer
    (espeak-ng) or by RHVoice: the table holds fixes, not copies; with them both are right (this
    file's test above, tests/voices/test_stress.py's for Piper)."""
    home, render = rhvoice
    assert catalogue.spoken, "ru.toml's [spoken] fixes nothing"
    for key, marked in catalogue.spoken.items():
        text, who = unmarked(marked), who_says(key)
        assert wrong_stresses(text, who, russian_phonemes) or rhvoice_faults(text, who, home, render), key


def test_a_mark_never_replaces_a_pronunciation_from_rhvoices_dictionary(catalogue, rhvoice):
    """A [spoken] mark on a word RHVoice transcribes whole from a dictionary would make it spell
    the word out instead («сег+одня» with its г): where such a word is marked, its clip sounds
    exactly as without the mark (the dictionary stresses it so already)."""
    home, render = rhvoice
    marked = 0
    for key, text in catalogue.spoken.items():
        for found in _WORD.finditer(text):
            if MARK in found.group() and dictionary_stress(home, unmarked(found.group()).lower()) is not None:
                marked += 1
                plain = text[: found.start()] + unmarked(found.group()) + text[found.end() :]
                assert render(text) == render(plain), (key, found.group())
    assert marked >= 2  # «с+орок», «б+оженьки»: marked for Piper, in RHVoice's dictionary
    assert dictionary_stress(home, "сегодня") == 1 and render("сег+одня") != render("сегодня")
