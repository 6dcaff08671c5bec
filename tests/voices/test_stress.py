"""Russian stress for a Piper voice, checked without one (none can be downloaded here).

A Russian Piper voice reads phonemes that piper-tts makes with its espeak-ng
(the voice's espeak voice is "ru"); the voice itself only turns phonemes into
sound. So the test gives piper-tts's own phonemizer, set to Russian, exactly
the text a Piper pack is rendered from (voices/pack.py: the catalogue's clip,
or its [spoken] text with «+» marks as voices/stress.py writes them), and
checks where the primary stress falls in every word against
tests/data/stress_ru.toml, a list written and checked by reading. Whether the
voice then sounds the stress, and how the clips sound joined, is left to a
person's ear (docs/voices.md). RHVoice's stress is checked by RHVoice itself
(tests/voices/test_rhvoice_stress.py, which also holds each [spoken] text to
fixing something for one of the two).
"""

import re
import tomllib
from pathlib import Path

import pytest

from engine import Role
from voices.catalogue import Catalogue
from voices.errors import CatalogueError
from voices.forms import ROLE_WORDS, cardinal, ordinal
from voices.stress import ACUTE, VOWELS, check, for_voice, stressed_vowel, unmarked

ORACLE = Path(__file__).parents[1] / "data" / "stress_ru.toml"
IPA_VOWELS = set("aɑʌɐəeɛiɪɨyoɵuʊʉæ")
_WORD = re.compile(r"[а-яё+]+", re.I)
_PUNCTUATION = re.compile(r"[\s,.!?:;—«»]+")


def oracle():
    data = tomllib.loads(ORACLE.read_text(encoding="utf-8"))
    words = {unmarked(w): w for w in data["words"].split()}
    homographs: dict[str, dict[str, str]] = {}  # word -> the phrase (or form) saying it -> its stress
    for marked, whose in data["homographs"].items():
        homographs.setdefault(unmarked(marked), {}).update(dict.fromkeys(whose, marked))
    return words, homographs, data


def vowels(word):
    return sum(ch in VOWELS for ch in word)


def stresses(ipa):
    """Each phonemized word: (its vowels, which one is stressed, or None). In a sentence
    espeak-ng may give a word secondary stress (ˌ: «не могу»), which counts where it has no ˈ."""
    out = []
    for word in filter(None, _PUNCTUATION.split(ipa.replace('"', ""))):
        mark = word.find("ˈ") if "ˈ" in word else word.find("ˌ")
        before = sum(ch in IPA_VOWELS for ch in word[:mark]) if mark >= 0 else None
        out.append((sum(ch in IPA_VOWELS for ch in word), before))
    return out


def who_says(clip_key):
    """The phrase a text clip belongs to, or the form of a slot value's clip."""
    if "=" in clip_key:
        return clip_key.split("=")[0]
    return clip_key.split("#")[0].split(".")[0]


def wrong_stresses(text, who, phonemes):
    """Words of ``text`` (as a Piper voice is given it) stressed otherwise than the list says,
    and words the list lacks."""
    words, homographs, _ = oracle()
    said = [w for w in _WORD.findall(text)]
    got = stresses(phonemes(text))
    assert len(got) == len(said), f"{text!r}: {len(said)} words, {len(got)} phonemized: {phonemes(text)}"
    wrong = []
    for word, (ipa_vowels, stressed) in zip(said, got, strict=True):
        plain = unmarked(word).lower()
        if vowels(plain) < 2:
            continue
        expected = homographs.get(plain, {}).get(who) or words.get(plain)
        if expected is None:
            wrong.append(f"{plain}: not in {ORACLE.name} (the phonemizer says {stressed})")
        elif ipa_vowels != vowels(plain) or stressed != stressed_vowel(expected):
            wrong.append(f"{plain} in {who}: {expected} expected, phonemized {phonemes(word)}")
    return wrong


def test_the_list_is_well_formed(catalogue):
    words, homographs, data = oracle()
    listed = data["words"].split()
    assert len(listed) == len(set(listed)), "a word listed twice"
    for marked in [*listed, *data["homographs"]]:
        check(marked, ORACLE.name)
        assert vowels(marked) >= 2 and marked.count("+") == 1, marked
    assert not set(homographs) & set(words), "a homograph is listed among the words too"
    phrases = set(catalogue.phrases) | {"votes", "seat", "players", "foul", "duration", "yours"}
    assert {who for whose in homographs.values() for who in whose} <= phrases


def test_every_word_a_piper_voice_is_given_is_stressed_as_the_list_says(catalogue, russian_phonemes):
    wrong = []
    for key, text in catalogue.clips().items():
        wrong += wrong_stresses(catalogue.spoken.get(key, text), who_says(key), russian_phonemes)
    assert wrong == []


def test_numbers_up_to_16_and_the_roles_are_listed_and_stressed_right(russian_phonemes):
    """Cardinal and ordinal numbers to 16 in each gender, and every role, said alone:
    whatever phrase comes to say them."""
    words, _, _ = oracle()
    said = {cardinal(n, g) for n in range(1, 17) for g in ("m", "f")}
    said |= {ordinal(n, g) for n in range(1, 17) for g in ("masc", "femn", "neut")}
    said |= {ROLE_WORDS[role] for role in Role}
    wrong = []
    for text in sorted(said):
        wrong += wrong_stresses(text, "", russian_phonemes)
    assert wrong == []
    assert {"шер+иф", "посл+еднее", "сл+ово", "шестн+адцатый", "од+иннадцать"} <= set(words.values())


def test_marks_become_the_accent_the_phonemizer_reads():
    assert for_voice("Время пошл+о.") == f"Время пошло{ACUTE}."
    assert for_voice("Голос+а") == f"Голоса{ACUTE}" and unmarked("Голос+а") == "Голоса"
    assert stressed_vowel("переголосов+ание") == 5 and stressed_vowel("слово") is None


@pytest.mark.parametrize(
    ("spoken", "message"),
    [
        ({"timer": "Время пош+ло."}, "goes before the stressed vowel"),
        ({"timer": "Вр+ем+я пошло."}, "one stress a word"),
        ({"timer": "Время ушл+о."}, "is not 'Время пошло.'"),
        ({"timer": "Время пошл+о. {seat}"}, "clips differ"),
        ({"nope": "Время."}, "no such phrase or clip"),
        ({"seat=99": "с+емь"}, "no such phrase or clip"),
        ({"seat=7": "с+ем"}, "is not 'семь'"),
    ],
)
def test_a_bad_spoken_text_is_refused_naming_it(spoken, message):
    with pytest.raises(CatalogueError, match=message):
        Catalogue({"timer": "Время пошло.", "call": "{seat}"}, spoken=spoken)


def test_a_spoken_text_may_write_yo_and_mark_a_slot_value():
    catalogue = Catalogue(
        {"all": "Все остаются.", "call": "{seat}"}, spoken={"all": "Всё оста+ются.", "seat=7": "с+емь"}
    )
    assert catalogue.spoken == {"all#0": "Всё оста+ются.", "seat=7": "с+емь"}
