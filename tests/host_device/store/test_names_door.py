"""Every name and id that comes into a store from outside — a seating, the club's database,
``club pull``, a recovered store — passes the one door (host_device/base/names.py), as
``players add``'s do; a tournament's name too (issue 46 items 3 and 5)."""

import unicodedata
import uuid

import pytest

from host_device.cli.main import main
from host_device.store import Store
from host_device.store.faults import StoreError
from host_device.store.recover import recover
from tests.helpers.paths import ROOT

FULL = ROOT / "examples" / "classic-full-game.json"
HOSTILE = [
    "\x1b[2J\x1b[31mАня",
    "\x1b]0;чужой заголовок\x07Боря",
    "Вера\nhost-device: ошибка",
    "Гл\x00еб",
    "\u202eанД",
    "\u200bЕ\u200dва\ufeff",
]


def uid() -> str:
    return str(uuid.uuid4())


def clean(text: str) -> bool:
    return all(unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in text)


def one_line(exc: pytest.ExceptionInfo[StoreError], *said: str) -> str:
    text = str(exc.value)
    assert "\n" not in text and clean(text) and len(text) < 300, text
    for part in said:
        assert part in text, text
    return text


def test_imported_names_with_escapes_or_invisible_marks_are_kept_clean(store):
    rows = [(uid(), name, name, None, None) for name in HOSTILE]
    assert store.roster.import_players(rows, "файл рассадки s.json") == len(HOSTILE)
    kept = store.roster.players()
    assert len(kept) == len(HOSTILE) and all(clean(p.name) and clean(p.nickname or "") for p in kept)
    assert {p.name for p in kept} >= {"[2J [31mАня", "Гл еб", "анД", "Ева"}
    raw = [r[0] + (r[1] or "") for r in store.db.execute("SELECT name, nickname FROM players")]
    assert all(clean(text) for text in raw)  # kept clean, not only shown so


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ((uid(), "Аня\ud800", None, None, None), "не текст UTF-8"),
        ((uid(), "я" * 20_000, None, None, None), "длиннее 60 знаков"),
        ((uid(), "Аня", "я" * 61, None, None), "ник"),
        ((uid(), "\x1b\x07", None, None, None), "пустое"),
        (("../../../../etc/passwd", "Аня", None, None, None), "«../../../../etc/passwd»: не идентификатор"),
        ((uid(), "Аня", None, "../../x", None), "объединён с «../../x»"),
        (("x", "Аня"), "не строка списка игроков"),
    ],
)
def test_an_import_with_a_bad_row_is_one_line_naming_the_source_and_the_row_and_adds_nothing(
    store, row, said
):
    good = (uid(), "Боря", None, None, None)
    with pytest.raises(StoreError) as caught:
        store.roster.import_players([good, row], "файл рассадки s.json")
    one_line(caught, "файл рассадки s.json, строка 2", said)
    assert store.roster.players() == []  # all or nothing: the good row before it is not added either


def test_an_import_takes_an_id_in_capitals_as_the_same_player_and_a_row_twice_once(store):
    pid = uid()
    rows = [(pid.upper(), "Аня", None, None, None), (pid, "Аня", None, None, None)]
    assert store.roster.import_players(rows) == 1
    assert [p.id for p in store.roster.players()] == [pid]


def test_a_name_kept_before_the_door_is_shown_without_its_escapes(store):
    store.db.execute(
        "INSERT INTO players (id, name, nickname, added_at) VALUES (?, ?, ?, '2026')",
        (uid(), "\x1b]0;x\x07Аня", "\u202eник"),
    )
    store.db.commit()
    (player,) = store.roster.players()
    assert clean(player.label) and "]0;x" in player.name and player.nickname == "ник"


def test_a_tournament_name_with_an_escape_a_slash_or_an_rlo_is_refused_in_one_line(store):
    for name, said in (
        ("Кубок\x1b[2J\x07", "U+001B"),
        ("Кубок 2025/26", "«/»"),
        ("\u202eКубок", "U+202E"),
        ("К" * 20_000, "длиннее 60 знаков"),
    ):
        for make in (lambda n: store.tournaments.create(n, 3, 1, [], []), store.tournaments.named):
            with pytest.raises(StoreError) as caught:
                make(name)
            one_line(caught, "название турнира", said)
    assert store.tournaments.names() == []
    assert store.tournaments.named("  Осенний   кубок ") == store.tournaments.named("Осенний кубок")


def test_tournament_create_refuses_a_hostile_name_in_one_line(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    names = [f"Игрок {k:02}" for k in range(1, 11)]
    assert main(["players", "add", *names, "--store", str(path)]) == 0
    capsys.readouterr()
    for name in ("Кубок\x1b]0;x\x07", "Кубок 1/2", "\u202eКубок"):
        code = main(["tournament", "create", name, *names, "--rounds", "1", "--store", str(path)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and "название турнира" in err and clean(err.strip()), err
    code = main(["tournament", "create", "Кубок", *names, "--rounds", "1", "--store", str(path)])
    assert code == 0


def test_a_lookup_of_a_name_not_kept_says_so_without_its_escapes(store):
    with pytest.raises(StoreError) as caught:
        store.tournaments.get("\x1b[2JКубок")
    one_line(caught, "турнира «[2JКубок» нет")


def test_recovery_lets_no_name_in_raw_leaves_out_a_bad_row_and_saves_the_games(tmp_path, capsys):
    source = tmp_path / "old.sqlite3"
    assert main(["simulate", str(FULL), "--store", str(source)]) == 0
    old = Store(source)
    ids = [uid() for _ in HOSTILE]
    for pid, name in zip(ids, HOSTILE, strict=True):
        old.db.execute("INSERT INTO players VALUES (?, ?, NULL, NULL, '2026-01-01')", (pid, name))
    bad = [
        ("../../../../etc/passwd", "Захар"),
        (uid(), "я" * 20_000),
        (uid(), "Ира\x1b"),  # cleaned, kept
    ]
    for pid, name in bad:
        old.db.execute("INSERT INTO players VALUES (?, ?, NULL, NULL, 'вчера')", (pid, name))
    for seat, pid in enumerate([*ids, bad[0][0]], 1):
        old.db.execute("INSERT INTO seats VALUES (1, ?, ?)", (seat, pid))
    old.db.commit()
    old.close()
    target = Store(tmp_path / "new.sqlite3")
    try:
        report = recover(source, target)
        assert report.recovered == 1 and report.players == len(HOSTILE) + 1
        refused = [line for line in report.lines if "не спасён" in line]
        assert len(refused) == 2 and all(clean(line) and len(line) < 300 for line in refused)
        assert "old.sqlite3, игрок" in refused[0] and "etc/passwd" in refused[0]
        assert "длиннее 60 знаков" in refused[1]
        kept = target.roster.players()
        assert all(clean(p.name) for p in kept) and "Ира" in {p.name for p in kept}
        seated = target.roster.seating(1)
        assert sorted(seated) == list(range(1, len(HOSTILE) + 1))  # the refused player's seat: unnamed
    finally:
        target.close()
