"""Ctrl-C, one rule for every command (issue 47): whatever it was doing — a game in host mode,
assist mode before its start, listening, an export — it closes what it opened, says
«host-device: остановлено» once, and exits 130 (a game also says how to carry it on)."""

import io

import pytest

from host_device.cli.main import main


def interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.fixture
def no_model(monkeypatch, tmp_path):
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def stopped(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out + err


def test_a_game_stopped_mid_game_says_so_once_how_to_resume_and_exits_130(
    monkeypatch, tmp_path, capsys, builtin_pack, no_model
):
    from host_device.runtime.clock import Scheduler

    monkeypatch.setattr(Scheduler, "run_real", interrupt)
    argv = ["run", "--panel", "mock", "--audio", "null", "--store", str(tmp_path / "g.db"), "--new"]
    status, text = stopped(capsys, argv)
    assert status == 130  # before: 0, as if the game had ended
    assert text.count("host-device: остановлено") == 1
    assert "игра не окончена (продолжить: host-device run --resume 1)" in text


def test_assist_mode_stopped_before_its_start_says_so_too(
    monkeypatch, tmp_path, capsys, builtin_pack, no_model
):
    from host_device.session.host import Host

    monkeypatch.setattr(Host, "_start", interrupt)
    argv = [
        "run",
        "--mode",
        "assist",
        "--panel",
        "mock",
        "--audio",
        "null",
        "--store",
        str(tmp_path / "g.db"),
    ]
    status, text = stopped(capsys, argv)
    assert status == 130 and text.count("host-device: остановлено") == 1  # before: nothing at all
    assert "Traceback" not in text


def test_any_other_command_stopped_says_the_same(monkeypatch, tmp_path, capsys):
    from host_device.cli import games

    monkeypatch.setattr(games, "_with_store", interrupt)
    status, text = stopped(capsys, ["games", "list", "--store", str(tmp_path / "g.db")])
    assert status == 130 and text.strip() == "host-device: остановлено"
