"""Every line a club reads is Russian: what the commands print (errors,
``doctor``, the self-test, the wiring's and the card's confirmations, the
store's lines) is scanned for Latin words. A Latin word is allowed only as
what is typed or named, not said: an option (``--seats``), a path or a file
name, a command (``host-device games recover``), a config's section and
settings, a value in quotes, a unit (dBFS), and a short list of names
(GPIO, Python, vosk, the packages). Every command's ``--help`` is read the
same way, argparse's own words with it."""

import argparse
import ast
import inspect
import re
import zipfile
from pathlib import Path

import pytest

from host_device.cli import parser as russian_argparse
from host_device.cli.main import build_parser, main
from host_device.cli.reference import commands
from tests.helpers.russian import latin_words
from tests.helpers.sound import MIC_WAV

ROOT = Path(__file__).resolve().parents[3]


def test_the_scanner_tells_said_words_from_typed_ones():
    assert latin_words("host-device: ошибка: no such file") == ["no", "such", "file"]
    assert latin_words("host-device: error: x") == ["error", "x"]
    assert latin_words("--seats 16: за столом больше — места-телефоны: --panel web") == []
    assert latin_words("/tmp/a b/c.toml: [panel].host.undo: GPIO4 уже занят (host-device games list)") == []
    assert latin_words("ок   пакеты: numpy, vosk") == [] and latin_words("ok   пакеты") == ["ok"]


def scan(capsys, argv, codes=(0, 1, 2)):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert code in codes, (argv, code, captured)
    said = [(line, latin_words(line)) for line in (captured.out + captured.err).splitlines()]
    assert [(line, words) for line, words in said if words] == [], argv
    return captured


@pytest.mark.slow
def test_the_commands_say_everything_in_russian(tmp_path, capsys, builtin_pack, monkeypatch):
    """The appliance's commands, good and bad, and the errors of the others."""
    store = tmp_path / "g.sqlite3"
    bad_config = tmp_path / "bad.toml"
    bad_config.write_text("[panel.host]\nnext = 4\n[screen]\n", encoding="utf-8")
    conflict = tmp_path / "conflict.toml"
    conflict.write_text("[panel.host]\nnext = 4\n", encoding="utf-8")
    empty_zip = tmp_path / "empty.zip"
    zipfile.ZipFile(empty_zip, "w").close()
    doctor = ["doctor", "--auto", "--audio", "file", "--wav", MIC_WAV, "--store", store]
    for argv in (
        ["doctor", "--auto", "--no-model", "--audio", "null", "--store", store],
        [*doctor, "--model", tmp_path / "no-model"],
        [*doctor, "--no-model", "--config", conflict],
        [*doctor, "--no-model", "--config", bad_config],
        ["hardware", "test", "--auto", "--panel", "mock", "--audio", "null"],
        ["hardware", "test", "--auto", "--panel", "mock", "--audio", "file", "--wav", MIC_WAV],
        ["hardware", "wiring", "--seats", "10", "--to", tmp_path / "w.svg"],
        ["hardware", "wiring", "--seats", "16", "--to", tmp_path / "w.svg"],
        ["hardware", "wiring", "--to", tmp_path / "w.png"],
        ["card", "--to", tmp_path / "card.html"],
        ["card", "--preset", "city", "--to", tmp_path / "card.docx"],
        ["model", "install", "--from", tmp_path / "nowhere", "--to", tmp_path / "m"],
        ["model", "install", "--from", empty_zip, "--to", tmp_path / "m"],
        ["model", "check", "--model", tmp_path / "no-model"],
        ["games", "list", "--store", store],
        ["games", "show", "7", "--store", store],
        ["games", "check", "--store", store],
        ["games", "export", "--store", store],
        ["games", "recover", tmp_path / "none.sqlite3", "--store", store],
        ["games", "show", "x"],
        ["games", "name", "1", "0", "Аня"],
        ["games"],
        ["run", "--seats", "99"],
        ["run", "--bogus"],
        ["run", "--panel", "cardboard"],
        ["run", "--speed"],
        ["run", "--deal", "host"],
        ["card", "--preset", "nope", "--to", "x.html"],
        ["service", "status"],
        ["say", "killed", "seat=7", "colour=red"],
        ["listen", "--wav", tmp_path / "none.wav"],
    ):
        scan(capsys, argv)


def test_what_a_config_is_refused_for_is_said_in_russian(tmp_path, capsys):
    for text in (
        "[screen]\n",
        "[audio]\nvolume = 3\n",
        "[assist]\nvotes = 'hands'\n",
        "[assist]\ntimers = [1, 2, 3, 4, 5, 6, 7]\n",
        "[panel]\ndebounce_ms = 0\n",
        "[panel.host]\nundo = 15\n",
        "[panel.seats]\n1 = [4]\n",
        "[web]\nlisten = 'nowhere'\n",
        "panel = 5\n",
        "[ambience]\nfile = 'none.wav'\n",
        "[box]\npower_off = 1\n",
        "[club]\nshow_names = 1\n",
        "[club]\nnames = true\n",
        "[city]\nlover = 1\n",
        "[[[",
    ):
        config = tmp_path / "c.toml"
        config.write_text(text, encoding="utf-8")
        scan(capsys, ["hardware", "wiring", "--config", config, "--to", tmp_path / "w.svg"], codes=(2,))


# ---------------------------------------------------------------- every error the code can raise

OWN = (
    "host_device/cli",
    "host_device/appliance",
    "host_device/listening",
    "host_device/store",
    "host_device/session",
    "host_device/config.py",
    "host_device/base",
    "hardware/pinmap.py",
    "hardware/factory.py",
    "hardware/speaker.py",
    "hardware/microphone.py",
)
NOT_YET: set[str] = set()  # files whose lines are not yet Russian: none


def literal(node) -> str:
    """A message's text, each value put in as {}."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp):
        return literal(node.left) + literal(node.right)
    return "{}"


def raised_messages():
    for folder in OWN:
        for path in sorted((ROOT / folder).rglob("*.py")) if (ROOT / folder).is_dir() else [ROOT / folder]:
            name = str(path.relative_to(ROOT))
            if name in NOT_YET:
                continue
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                    if getattr(node.exc.func, "id", getattr(node.exc.func, "attr", "")) == "ValueError":
                        continue  # internal: caught and said otherwise
                    yield f"{name}:{node.lineno}", literal(node.exc.args[0])


def test_every_error_the_code_raises_is_russian():
    found = [(where, text, latin_words(text)) for where, text in raised_messages() if latin_words(text)]
    assert found == []


# ---------------------------------------------------------------- every --help, argparse's own words


def every_command():
    yield ()
    for words, _, _ in commands(build_parser()):
        yield words


def typed_values():
    """Every command's and argument's choices (``games``, ``gpio``, ``assist``, ``csv``): typed
    words, named in the helps."""
    parsers = [build_parser(), *(sub for _, sub, _ in commands(build_parser()))]
    return {str(c) for p in parsers for a in p._actions if a.choices for c in a.choices}


def test_every_help_is_russian(capsys):
    typed = typed_values()
    assert {"gpio", "assist", "csv", "classic"} <= typed
    found = []
    for words in every_command():
        assert main([*words, "--help"]) == 0, words
        out = capsys.readouterr().out
        assert out.startswith("использование: host-device"), words
        found += [
            (words, line, w)
            for line in out.splitlines()
            if (w := [x for x in latin_words(line) if x not in typed])
        ]
    assert found == []


def argparse_messages():
    """What the running Python's argparse can say: the text of each ``_(…)`` and ``ngettext(…)``."""
    said, plural = set(), set()
    for node in ast.walk(ast.parse(inspect.getsource(argparse))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                {"_": said, "ngettext": plural}.get(node.func.id, set()).add(first.value)
    return said, plural


def test_every_message_argparse_can_say_is_in_the_russian_catalogue():
    said, plural = argparse_messages()
    assert "usage: " in said and "expected %s argument" in plural
    known = set(russian_argparse.WORDS) | russian_argparse.PROGRAMMERS
    assert sorted(said - known) == [] and sorted(plural - set(russian_argparse.PLURALS) - known) == []
    placeholder = re.compile(r"%(\(\w+\))?[rsd]")
    for russian in [
        *russian_argparse.WORDS.values(),
        *(f for fs in russian_argparse.PLURALS.values() for f in fs),
    ]:
        assert latin_words(placeholder.sub("X", russian)) == [], russian


def test_argparse_speaks_russian_only_inside_the_commands_parser():
    say_n = russian_argparse.say_n
    assert [say_n("expected %s argument", "expected %s arguments", n) % n for n in (1, 3, 5, 11, 21, 22)] == [
        "нужно 1 значение",
        "нужно 3 значения",
        "нужно 5 значений",
        "нужно 11 значений",
        "нужно 21 значение",
        "нужно 22 значения",
    ]
    build_parser().parse_args(["games", "list"])
    other = argparse.ArgumentParser(prog="other")
    assert other.format_help().startswith("usage: other") and "show this help message" in other.format_help()


# ---------------------------------------------------------------- what the logs say on the terminal

LOG_LEVELS = ("warning", "error", "critical", "exception")


def logged_messages():
    """Every warning and error the product logs (the terminal shows them: «host-device: внимание: …»)."""
    for folder in ("engine", "voices", "hardware", "host_device"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                func = node.func if isinstance(node, ast.Call) else None
                logs = isinstance(func, ast.Attribute) and func.attr in LOG_LEVELS
                by = isinstance(func, ast.Attribute) and getattr(func.value, "id", "") in (
                    "log",
                    "logger",
                    "logging",
                )
                if logs and by and node.args:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", literal(node.args[0])


def test_every_warning_and_error_the_product_logs_is_russian():
    messages = list(logged_messages())
    assert len(messages) >= 10  # the scan finds them
    placeholder = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdfgr%]")  # the values put in
    assert [(where, text) for where, text in messages if latin_words(placeholder.sub(" ", text))] == []


def test_a_librarys_own_warning_never_reaches_the_terminal():
    """psycopg's «error ignored terminating <psycopg.Pipeline …>» and the like are for its
    developers (HOST_DEVICE_DEBUG=1 shows them); the project's own warnings are shown."""
    import subprocess
    import sys

    code = (
        "import logging\n"
        "from host_device.cli.main import set_up_logging\n"
        "set_up_logging()\n"
        "logging.getLogger('psycopg').warning('error ignored terminating %s', 'x')\n"
        "logging.getLogger('host_device.runtime.loop').warning('ход не записан')\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert shown.stderr == "host-device: внимание: ход не записан\n"
    debug = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"HOST_DEVICE_DEBUG": "1", "PATH": ""},
    )
    assert "psycopg: WARNING: error ignored terminating x" in debug.stderr
    # on a terminal a warning starts on a clean line (a game's status line may stand where it begins)
    import os
    import pty

    main_fd, child_fd = pty.openpty()
    try:
        subprocess.run([sys.executable, "-c", code], stderr=child_fd, cwd=ROOT, check=True)
        os.close(child_fd)
        written = b""
        while chunk := _read_some(main_fd):
            written += chunk
    finally:
        os.close(main_fd)
    assert written.decode().replace("\r\n", "\n") == "\r\x1b[Khost-device: внимание: ход не записан\n"


def _read_some(fd: int) -> bytes:
    import os

    try:
        return os.read(fd, 4096)
    except OSError:  # the terminal's other end closed: all read
        return b""


# ---------------------------------------------------------------- the demo and the club's pages


def test_the_demo_says_everything_in_russian_its_result_too(capsys, builtin_pack):
    """The example game's script asks the Don's check after he has left: the
    result says so in Russian (it ended with the engine's «seat 3 is out of the game»)."""
    out = scan(capsys, ["demo", "--speed", "100000", "--audio", "null"]).out
    assert out.splitlines()[-2:] == [
        "Итог: победа мирных жителей, дней: 3",
        "Сценарий: не принято правилами — 1, запрещённых слов — 0 (какие и почему: host-device simulate "
        f"{ROOT / 'examples' / 'classic-full-game.json'})",
    ]
    scan(capsys, ["demo", "--preset", "event", "--speed", "100000", "--audio", "null"])
    scan(capsys, ["demo", "--preset", "event", ROOT / "examples" / "city-game.json"], codes=(2,))


def test_the_club_pages_say_everything_in_russian():
    """The review, the leaderboard (its rules filter) and a player's page, plots included."""
    import dataclasses

    from host_device.club.plots import points_svg, rating_svg, roles_svg
    from host_device.club.scoring import default_table, points
    from host_device.web.board_html import board_html, player_html
    from host_device.web.club_data import Filters, leaderboard, player_page, points_points, rating_points
    from host_device.web.club_html import review_html
    from host_device.web.review import review
    from tests.helpers.club import player_id, season
    from tests.helpers.russian import shown

    games = [dataclasses.replace(g, preset="event") if g.id % 4 == 0 else g for g in season(8)]
    table = default_table()
    page = player_page(games, player_id(1), table)
    plots = {
        "rating": rating_svg(rating_points(page)),
        "points": points_svg(points_points(page)),
        "roles": roles_svg(page.roles),
    }
    pages = {
        "review": review_html(review(games[0], {s: p.total for s, p in points(games[0], table).items()})),
        "leaderboard": board_html(leaderboard(games, table, Filters(preset="classic"))),
        "player": player_html(page, plots),
    }
    said = {name: latin_words(shown(html)) for name, html in pages.items()}
    assert said == {name: [] for name in pages}
    assert "классика" in shown(pages["review"]) and "ивент" in shown(pages["leaderboard"])
