"""The phrase catalogue (voices/data/ru.toml): every key the engine and the
runtime need has text, renders with its slots, and plans into pack clips."""

import dataclasses
import random
import re

import pytest

from engine import Advance, DealRoles, Foul, Game, Phase, get_preset
from engine.outputs import Say
from host_device.scripts.play import Play
from host_device.scripts.script import load_script
from tests.helpers.paths import ROOT
from voices.catalogue import PAUSE_COMMA_MS, PAUSE_STOP_MS, PAUSE_WORD_MS, Catalogue, Clip, Pause
from voices.errors import CatalogueError, SlotError, UnknownPhrase

RUNTIME_KEYS = [
    "call",
    "ten_seconds",
    "time_up",
    "ready",
    "paused",
    "resumed",
    "undo",
    "game_resumed",
    "microphone_missing",
    "hearing_lost",
    "hearing_back",
    "model_missing",
    "store_full",
    "store_unusable",
    "sound_check",
    "press_your_button",
    "mafia_press",
    "count_again",
]


def engine_says(seed_count=60):
    """Every Say effect of many random games of both presets, and of the
    example and scenario scripts (which reach the rarer steps)."""
    says = {}
    for seed in range(seed_count):
        rng = random.Random(seed)
        preset = get_preset("classic" if seed % 2 else "event")
        seats = rng.sample(range(1, preset.seats + 1), preset.seats)
        roles, at = [], 0
        for role, count in preset.roles:
            roles += [(s, role) for s in seats[at : at + count]]
            at += count
        game = Game(preset)
        outputs = game.handle(DealRoles(roles=tuple(roles)))
        for _ in range(600):
            for item in outputs:
                if isinstance(item, Say):
                    says.setdefault(item.phrase, item)
            if game.phase is Phase.GAME_OVER:
                break
            legal = [i for i in game.legal_inputs() if not isinstance(i, Foul) or rng.random() < 0.05]
            outputs = game.handle(rng.choice([Advance()] * 4 + legal))
    for script in [*ROOT.glob("examples/*.json"), *ROOT.glob("tests/scenarios/*.json")]:
        runner = Play(load_script(script))
        runner.run()
        game = Game(runner.game.preset)
        for inp in runner.game.record:
            for item in game.handle(inp):
                if isinstance(item, Say):
                    says.setdefault(item.phrase, item)
    return says


def test_every_phrase_named_in_the_engine_source_is_in_the_catalogue(catalogue):
    source = "".join(path.read_text("utf-8") for path in sorted((ROOT / "engine").glob("*.py")))
    named = set(re.findall(r'phrase="(\w+)"', source))
    named |= set(re.findall(r'_in_words\(\w+, "(\w+)"', source))  # the preset's own words for a key
    named |= set(re.findall(r'self\.say\("(\w+)"', source))
    named |= {f"no_vote_{reason}" for reason in re.findall(r'self\.no_vote\("(\w+)"\)', source)}
    named |= {"speech", "tie_speech", "last_word"}  # give_floor says the phase's name
    named -= {"no_vote_no_candidates"}  # announced before, as no_candidates
    assert named and named <= set(catalogue.names()), named - set(catalogue.names())


@pytest.fixture(scope="module")
def says():
    return engine_says()


@pytest.mark.slow  # the says fixture plays 60 random games
def test_random_games_reach_every_kind_of_announcement(says):
    assert {
        "vote_count",
        "tie",
        "all_leave_question",
        "killed",
        "reveal_role",
        "winner",
        "disqualified",
        "silenced",
        "speech_skipped",
        "last_word",
        "tie_speech",
        "no_vote_cancelled",
    } <= set(says)


@pytest.mark.slow  # the says fixture plays 60 random games
def test_every_engine_phrase_has_text_and_renders(catalogue, says):
    for key, say in says.items():
        slots = {f.name: getattr(say, f.name) for f in dataclasses.fields(say) if f.name != "phrase"}
        text = catalogue.text(key, slots)
        assert text and "{" not in text, key
        assert [i for i in catalogue.plan(key, slots) if isinstance(i, Clip)], key


@pytest.mark.parametrize("key", RUNTIME_KEYS)
def test_runtime_phrases_exist(catalogue, key):
    slots = {"seat": 3, "role": "don"}
    assert catalogue.text(key, {k: v for k, v in slots.items() if k in catalogue.phrase(key).slots})


@pytest.mark.parametrize(
    ("key", "slots", "text"),
    [
        ("speech", {"seat": 7, "seconds": 60}, "Игрок номер семь, ваша минута."),
        ("speech", {"seat": 1, "seconds": 30}, "Игрок номер один, ваши тридцать секунд."),
        ("killed", {"seat": 10}, "Ночью убит игрок номер десять."),
        ("vote_question", {"seat": 4}, "Кто за то, чтобы игрок номер четыре покинул игру?"),
        ("vote_count", {"seat": 5, "count": 1}, "За игрока номер пять — один голос."),
        ("vote_count", {"seat": 5, "count": 2}, "За игрока номер пять — два голоса."),
        ("vote_count", {"seat": 3, "count": 6}, "За игрока номер три — шесть голосов."),
        ("foul", {"seat": 4, "count": 3}, "Игрок номер четыре, третье замечание."),
        ("candidates", {"seats": (8,)}, "На голосование выставлен игрок номер восемь."),
        ("candidates", {"seats": (3, 5)}, "На голосование выставлены игроки номер три и пять."),
        (
            "candidates",
            {"seats": (5, 8, 12)},
            "На голосование выставлены игроки номер пять, восемь и двенадцать.",
        ),
        ("tie", {"seats": (5, 8)}, "Голоса разделились поровну. Автокатастрофа: игроки номер пять и восемь."),
        ("winner", {"team": "red"}, "Победа мирных жителей!"),
        ("winner", {"team": "black"}, "Победа мафии!"),
        ("agreement", {"seconds": 60}, "У мафии минута на договорку."),
        ("role_wakes", {"role": "sheriff"}, "Просыпается Шериф."),
        ("role_sleeps", {"role": "don"}, "Дон засыпает."),
        ("role_sleeps", {"role": "sheriff"}, "Шериф засыпает."),
        ("press_your_button", {"role": "don"}, "Дон, нажмите свою кнопку."),
        ("last_word", {"seat": 6, "seconds": 60}, "Игрок номер шесть, у вас минута на последнее слово."),
        ("morning", {}, "Доброе утро!"),
        ("no_vote_single_candidate_day_one", {}, "В первый день единственная кандидатура не голосуется."),
        ("game_starts", {}, "Начинаем игру."),
        ("time_up", {}, "Время!"),
        ("all_leave_question", {"seats": (3, 4)}, "Кто за то, чтобы все голосуемые покинули игру?"),
        ("best_move", {}, "Лучший ход."),
        ("best_move_accepted", {"seats": (3, 5, 8)}, "Лучший ход: три, пять и восемь. Принято."),
    ],
)
def test_texts(catalogue, key, slots, text):
    assert catalogue.text(key, slots) == text


def test_the_rule_texts_own_wording(catalogue):
    for key, words in [
        ("night_falls", "Наступает ночь"),
        ("mafia_wakes", "Просыпается мафия"),
        ("mafia_sleeps", "Мафия засыпает"),
        ("hunt", "Мафия выходит на охоту"),
        ("accepted", "Принято"),
        ("thank_you", "Спасибо"),
    ]:
        assert words in catalogue.phrase(key).template


def test_plan_splits_text_and_slots_with_pauses(catalogue):
    plan = catalogue.plan("speech", {"seat": 7, "seconds": 60})
    assert plan == [
        Clip("speech#0", "Игрок номер"),
        Pause(PAUSE_WORD_MS),
        Clip("seat=7", "семь"),
        Pause(PAUSE_COMMA_MS),
        Clip("yours=60", "ваша минута"),
    ]
    plan = Catalogue({"x": "Игрок {seat}. Ещё раз {seat}."}).plan("x", {"seat": 2})
    assert plan[3] == Pause(PAUSE_STOP_MS) and plan[-2] == Pause(PAUSE_WORD_MS)


def test_a_seat_list_is_said_as_numbers_with_commas_and_and_before_the_last(catalogue):
    plan = catalogue.plan("candidates", {"seats": (3, 9, 11)})
    keys = [i.key for i in plan if isinstance(i, Clip)]
    assert keys == ["candidates#0", "seat=3", "seat=9", "word=and", "seat=11"]
    assert plan[plan.index(Clip("seat=9", "девять")) - 1] == Pause(PAUSE_COMMA_MS)
    assert plan[-2] == Pause(PAUSE_WORD_MS) and plan[-4] == Pause(PAUSE_WORD_MS)
    assert catalogue.clips()["word=and"] == "и"


def test_a_list_of_one_seat_takes_the_phrase_s_one_text(catalogue):
    plan = catalogue.plan("candidates", {"seats": (8,)})
    assert [i.key for i in plan if isinstance(i, Clip)] == ["candidates.one#0", "seat=8"]
    assert catalogue.clips()["candidates.one#0"] == "На голосование выставлен игрок номер"


def test_clip_keys_of_text_and_of_slot_values_never_collide(catalogue):
    clips = catalogue.clips()
    assert "foul#0" in clips and "foul=3" in clips
    assert all(("#" in k) != ("=" in k) for k in clips)
    assert all(text.strip() for text in clips.values())


def test_every_clip_of_every_plan_is_in_the_clip_list(catalogue, says):
    clips = catalogue.clips()
    for key, say in says.items():
        slots = {f.name: getattr(say, f.name) for f in dataclasses.fields(say) if f.name != "phrase"}
        for item in catalogue.plan(key, slots):
            if isinstance(item, Clip):
                assert clips[item.key] == item.text


def test_unknown_key_names_the_closest_keys(catalogue):
    with pytest.raises(UnknownPhrase, match=r"unknown phrase key 'speach'; did you mean speech"):
        catalogue.plan("speach")
    with pytest.raises(UnknownPhrase, match=r"^unknown phrase key 'zzz'$"):
        catalogue.plan("zzz")


def test_missing_slot_names_the_key_and_the_slot(catalogue):
    with pytest.raises(SlotError, match=r"phrase 'killed' needs the slot 'seat'"):
        catalogue.plan("killed", {})


@pytest.mark.parametrize(
    ("slots", "message"),
    [({"seat": 17}, "seat=17 cannot be said; it can be 1..16"), ({"seat": "x"}, "seat='x' cannot be said")],
)
def test_values_without_words_are_refused(catalogue, slots, message):
    with pytest.raises(SlotError, match=message):
        catalogue.plan("killed", slots)
    with pytest.raises(SlotError, match="role='king' cannot be said; it can be civilian, sheriff"):
        catalogue.plan("role_wakes", {"role": "king"})


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[phrases\n", "not valid TOML"),
        ("[meta]\nlanguage='ru'\n", "no \\[phrases\\] table"),
        ("[phrases]\na = 3\n", "phrase 'a' must be a string"),
        ("[phrases]\na = { one = 'x' }\n", "phrase 'a' must be a string or \\{ one = "),
        ("[phrases]\na = 'Игрок {player}'\n", "phrase 'a': unknown slot \\{player\\}"),
        ("[phrases]\na = 'Игрок {seat:loud}'\n", "phrase 'a': unknown form 'loud'"),
    ],
)
def test_bad_catalogue_files_are_named(toml, message):
    with pytest.raises(CatalogueError, match=message):
        Catalogue.from_toml(toml, "x.toml")
