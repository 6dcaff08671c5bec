"""Every phrase of the catalogue, rendered with every value its slots can
take, reads as a Russian host would say it: a capital at each sentence
start, numbers agreeing with their nouns (checked with pymorphy3's grammar,
not with the code that makes the forms), no word said twice, «и» before the
last seat of a list, «игрок» singular for one seat and plural for several."""

import itertools
import re

import pymorphy3
import pytest
from num2words import num2words

from tests.helpers.paths import ROOT
from voices.catalogue import Catalogue, russian
from voices.forms import FORMS

LISTS = [(1,), (16,), (3, 5), (1, 2, 3), (5, 8, 12), (2, 4, 6, 8)]
WORD = re.compile(r"[а-яёА-ЯЁ]+|[^\sа-яёА-ЯЁ]")
MORPH = pymorphy3.MorphAnalyzer()


def _numbers() -> dict[str, float]:
    words: dict[str, float] = {"полторы": 1.5, "полтора": 1.5}
    for n in range(0, 101):
        for gender in ("m", "f", "n"):
            for word in str(num2words(n, lang="ru", gender=gender)).split():
                words.setdefault(word, 0)
    for n in [*range(0, 21), *range(30, 101, 10)]:
        for gender in ("m", "f", "n"):
            words[str(num2words(n, lang="ru", gender=gender))] = n
    return words


NUMBERS = _numbers()


def renderings(catalogue: Catalogue):
    """(key, slots, text) for every phrase and every value of its slots."""
    for key, phrase in sorted(catalogue.phrases.items()):
        fields = sorted(set(phrase.slots) | set(phrase.one.slots if phrase.one else ()))
        domains = []
        for field in fields:
            form = next(p.form for p in phrase.parts if getattr(p, "field", None) == field)
            domains.append(LISTS if field == "seats" else FORMS[form].values())
        for values in itertools.product(*domains):
            slots = dict(zip(fields, values, strict=True))
            yield key, slots, catalogue.text(key, slots)


ALL = list(renderings(russian()))


def test_every_phrase_and_every_slot_value_is_rendered():
    keys = {key for key, _, _ in ALL}
    assert keys == set(russian().phrases)
    assert len(ALL) > 300  # seats 1..16, votes 0..16, each role and team, each timing, lists


def _sentence_starts(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"(?:^|[.!?»]\s+)[«(]?(\w)", text)]


def test_each_sentence_starts_with_a_capital():
    bad = [(key, text) for key, _, text in ALL if not all(c.isupper() for c in _sentence_starts(text))]
    assert not bad, bad[:5]


def _has(word: str, *grammemes: str) -> bool:
    return any(set(grammemes) <= set(p.tag.grammemes) for p in MORPH.parse(word))


def _required(n: float) -> tuple[str, str]:
    """The case and number a noun takes after the number n."""
    if n == 1.5:
        return "gent", "sing"
    whole = int(n)
    if whole % 100 in range(11, 15):
        return "gent", "plur"
    if whole % 10 == 1:
        return "nomn", "sing"
    if whole % 10 in (2, 3, 4):
        return "gent", "sing"
    return "gent", "plur"


def agreement_errors(text: str) -> list[str]:
    tokens = WORD.findall(text)
    errors = []
    i = 0
    while i < len(tokens):
        if tokens[i].lower() not in NUMBERS:
            i += 1
            continue
        j, value = i, 0.0
        while j < len(tokens) and tokens[j].lower() in NUMBERS:
            value += NUMBERS[tokens[j].lower()]
            j += 1
        last = tokens[j - 1].lower()
        noun = tokens[j] if j < len(tokens) else ""
        if noun and _has(noun, "NOUN") and noun.lower() not in ("и", "номер"):
            case, number = _required(value)
            if not _has(noun, case, number):
                errors.append(f"{' '.join(tokens[i:j])} {noun}: the noun must be {case},{number}")
            gender = next((g for g in ("masc", "femn", "neut") if _has(noun, "NOUN", g)), None)
            if last in ("один", "одна", "одно", "два", "две") and gender is not None:
                want = {"один": "masc", "одна": "femn", "одно": "neut", "два": "masc", "две": "femn"}[last]
                if want != gender and not (last == "два" and gender == "neut"):
                    errors.append(f"{last} {noun}: the number's gender must be the noun's ({gender})")
        i = j
    # ordinals ("третье замечание") agree in gender with their noun
    for word, noun in itertools.pairwise(tokens):
        if _has(word, "ADJF", "Anum") and word.lower() not in NUMBERS and _has(noun, "NOUN"):
            genders = {g for p in MORPH.parse(noun) for g in ("masc", "femn", "neut") if g in p.tag}
            if not any(_has(word, "ADJF", g) for g in genders):
                errors.append(f"{word} {noun}: the ordinal must agree with the noun")
    return errors


def test_numbers_agree_with_their_nouns():
    bad = [(key, text, err) for key, _, text in ALL for err in agreement_errors(text)]
    assert not bad, bad[:5]


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("Пять голос.", True),
        ("Два голосов.", True),
        ("Одна голос.", True),
        ("Двенадцать голоса.", True),
        ("Третий замечание.", True),
        ("Одна минута, пять голосов, двадцать одна секунда.", False),
    ],
)
def test_the_agreement_check_catches_wrong_forms(text, wrong):
    assert bool(agreement_errors(text)) is wrong


CONTENT = ("NOUN", "ADJF", "VERB", "INFN", "PRTS", "NPRO")
REPEATABLE = {"игрок", "номер", "и", "за", "кто", "то"}  # «игрок номер …» may be said of two seats


def doubled(text: str) -> list[str]:
    words = [w.lower() for w in re.findall(r"[а-яёА-ЯЁ]+", text)]
    out = [m.group(1).lower() for m in re.finditer(r"\b(\w+)\s+\1\b", text, re.I)]
    lemmas: dict[str, str] = {}
    for word in words:
        if word in NUMBERS:
            continue
        parse = MORPH.parse(word)[0]
        lemma = parse.normal_form
        if lemma in REPEATABLE or not any(g in parse.tag for g in CONTENT):
            continue
        if lemma in lemmas:
            out.append(f"{lemmas[lemma]}/{word}")
        lemmas[lemma] = word
    return out


def test_no_word_is_said_twice():
    bad = [(key, text, d) for key, _, text in ALL if (d := doubled(text))]
    assert not bad, bad[:5]


def test_the_doubling_check_catches_the_old_last_word():
    assert doubled("Игрок номер шесть, ваше последнее слово. Ваша минута.") == ["ваше/ваша"]
    assert doubled("Мафия засыпает засыпает.") == ["засыпает", "засыпает/засыпает"]
    assert doubled("За игрока номер три — три голоса.") == []


def test_a_list_has_and_before_its_last_seat():
    for key, slots, text in ALL:
        seats = slots.get("seats")
        if not seats or "{seats}" not in russian().phrase(key).template:
            continue
        words = [str(num2words(n, lang="ru")) for n in seats]
        said = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} и {words[-1]}"
        assert re.search(rf"\b{said}\.", text), (key, seats, text)


def test_player_is_singular_for_one_seat_and_plural_for_several():
    for key, slots, text in ALL:
        seats = slots.get("seats")
        match = re.search(r"(\w+) (игрок\w*) номер", text)
        if not seats or match is None:
            continue
        plural = len(seats) > 1
        assert _has(match.group(2), "plur") == plural, (key, seats, text)
        if _has(match.group(1), "PRTS"):  # «выставлен игрок», «выставлены игроки»
            assert _has(match.group(1), "PRTS", "plur") == plural, (key, seats, text)


def test_docs_list_every_phrase_as_the_command_prints_it(capsys):

    from host_device.cli.main import main

    assert main(["voices", "phrases", "--markdown"]) == 0
    table = capsys.readouterr().out
    assert table.count("\n") == len(russian().phrases) + 2
    assert "| `tie` | Голоса разделились поровну." in table
    docs = (ROOT / "docs" / "voices.md").read_text("utf-8")
    assert table in docs, "docs/voices.md: paste the output of `host-device voices phrases --markdown`"
