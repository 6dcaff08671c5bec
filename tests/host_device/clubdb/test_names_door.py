"""Names through the club's database pass the one door (host_device/base/names.py): one bad
file or row must not reach every box (issue 46 items 3 and 5) — ``club pull``, a seating
published and a seating read back, a tournament's name."""

import unicodedata
import uuid

import pytest
from psycopg.types.json import Jsonb

from host_device.cli.main import main
from host_device.clubdb.db import ClubDB
from host_device.clubdb.errors import ClubDbError
from host_device.store import Store
from tests.helpers.postgres import fresh_database, postgres_server

FIXTURES = (postgres_server, fresh_database)  # pytest finds them by their names
HOSTILE = ["\x1b[2J\x1b[31mАня", "\x1b]0;чужой заголовок\x07Боря", "Вера\nВторая", "\u202eанД\u200b"]


def clean(text: str) -> bool:
    return all(unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in text)


def one_line(text: str, *said: str) -> None:
    assert "\n" not in text.strip() and clean(text.strip()) and len(text) < 400, text
    for part in said:
        assert part in text, text


@pytest.fixture
def db(fresh_database):
    with ClubDB.open(fresh_database) as club:
        club.init()
        yield club


def seating(names: list[str], ids: list[str] | None = None, tournament: str = "Кубок") -> dict:
    ids = ids or [str(uuid.uuid4()) for _ in names]
    rows = [
        {"тур": 1, "стол": 1, "место": s, "игрок": n, "id": i}
        for s, (n, i) in enumerate(zip(names, ids, strict=True), 1)
    ]
    return {"what": "seating", "tournament": tournament, "players": ids, "rows": rows}


def ten(first: list[str]) -> list[str]:
    return first + [f"Игрок {k}" for k in range(len(first) + 1, 11)]


def test_club_pull_keeps_hostile_names_clean_and_refuses_a_huge_one_in_one_line_adding_none(
    db, fresh_database, tmp_path, capsys
):
    with db.conn.transaction():
        for name in HOSTILE:
            db.conn.execute("INSERT INTO players (id, name) VALUES (%s, %s)", (str(uuid.uuid4()), name))
    box = tmp_path / "box.sqlite3"
    assert main(["club", "pull", "--club-db", fresh_database, "--store", str(box)]) == 0
    out = capsys.readouterr().out
    assert f"игроков добавлено {len(HOSTILE)}" in out
    store = Store(box)
    assert len(store.roster.players()) == len(HOSTILE)
    assert all(clean(p.name) for p in store.roster.players())
    store.close()
    huge = str(uuid.uuid4())
    with db.conn.transaction():
        db.conn.execute("INSERT INTO players (id, name) VALUES (%s, %s)", (huge, "я" * 20_000))
        db.conn.execute("INSERT INTO players (id, name) VALUES (%s, %s)", (str(uuid.uuid4()), "Новый"))
    assert main(["club", "pull", "--club-db", fresh_database, "--store", str(tmp_path / "b2.sqlite3")]) == 2
    err = capsys.readouterr().err
    one_line(err, f"id {huge}", "длиннее 60 знаков")
    store = Store(tmp_path / "b2.sqlite3")
    assert store.roster.players() == []  # all or nothing
    store.close()


def test_a_tournament_name_is_refused_at_publish_in_one_line_and_nothing_is_published(db):
    for name, said in (("Кубок\x1b[2J", "U+001B"), ("Кубок 1/2", "«/»"), ("\u202eКубок", "U+202E")):
        with pytest.raises(ClubDbError) as caught:
            db.tournaments.publish(name, seating(ten([]), tournament=name))
        one_line(str(caught.value), "название турнира", said)
    assert db.tournaments.published() == []


def test_a_seating_published_has_its_names_clean_and_a_bad_id_is_refused_naming_the_row(db):
    db.tournaments.publish("Кубок", seating(ten(HOSTILE)))
    kept = db.tournaments.seating_of("Кубок")
    assert kept is not None and all(clean(r["игрок"]) for r in kept["rows"])
    ids = [str(uuid.uuid4()) for _ in range(10)]
    ids[3] = "../../../../etc/passwd"
    with pytest.raises(ClubDbError) as caught:
        db.tournaments.publish("Лига", seating(ten([]), ids, "Лига"))
    one_line(str(caught.value), "рассадка турнира «Лига», строка 4", "etc/passwd", "не идентификатор")
    assert db.tournaments.published() == ["Кубок"]


def test_a_seating_spoiled_in_the_database_is_read_clean_or_refused_in_one_line(db):
    """Written there by hand (or by a box of before the door): what a box reads passes the door."""
    bad_id = seating(ten([]))
    bad_id["rows"][6]["id"] = "\x1b]0;x\x07"
    bad_name = seating(ten(["я" * 20_000]))
    bad_tournament = seating(ten([]), tournament="Кубок\x07/..")
    with db.conn.transaction():
        for name, value in (
            ("Чистый", seating(ten(HOSTILE))),
            ("Ид", bad_id),
            ("Имя", bad_name),
            ("Турнир", bad_tournament),
            ("\x1b[2JЗаголовок", seating(ten([]))),
        ):
            db.conn.execute(
                "INSERT INTO tournament_seating (tournament, seating) VALUES (%s, %s)", (name, Jsonb(value))
            )
    kept = db.tournaments.seating_of("Чистый")
    assert kept is not None and all(clean(r["игрок"]) for r in kept["rows"])
    for name, said in (
        ("Ид", "строка 7"),
        ("Имя", "строка 1"),
        ("Турнир", "название турнира"),
    ):
        with pytest.raises(ClubDbError) as caught:
            db.tournaments.seating_of(name)
        one_line(str(caught.value), f"рассадка турнира «{name}» в базе клуба", said)
    with pytest.raises(ClubDbError) as caught:
        db.tournaments.take("Имя", 1, 1, lambda s: s)
    one_line(str(caught.value), "строка 1", "длиннее 60 знаков")
    assert all(clean(name) for name in db.tournaments.published())  # listed as a terminal may show them


def test_a_player_found_in_the_database_is_named_without_escapes(db):
    from host_device.store.faults import AmbiguousPlayer

    with db.conn.transaction():
        for _ in range(2):
            db.conn.execute(
                "INSERT INTO players (id, name) VALUES (%s, %s)", (str(uuid.uuid4()), "\x1b[31mДвойник\x07")
            )
    with pytest.raises(AmbiguousPlayer) as caught:
        db.player("[31mДвойник")
    one_line(str(caught.value), "так в базе клуба зовут нескольких", "— [31mДвойник;")
