"""``service unit|install|remove|status``: the unit checked by systemd's own
verifier, and its ExecStart started on mock pins."""

import configparser
import os
import shlex
import shutil
import signal
import subprocess
import time

from host_device.appliance import service
from host_device.cli.main import main


def unit(capsys, *extra):
    assert main(["service", "unit", "--user", "root", *extra]) == 0
    return capsys.readouterr().out


def parsed(text):
    config = configparser.ConfigParser(strict=False, interpolation=None)
    config.optionxform = str
    config.read_string(text)
    return config


def test_the_unit_passes_systemd_analyze_verify(capsys, tmp_path):
    assert shutil.which("systemd-analyze"), "./run test installs systemd's tools"
    path = tmp_path / "host-device.service"
    path.write_text(unit(capsys), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "host-device.service" not in result.stderr  # no complaint about the unit itself
    broken = tmp_path / "broken.service"
    broken.write_text(unit(capsys).replace("Restart=on-failure", "Restart=sometimes"), encoding="utf-8")
    bad = subprocess.run(["systemd-analyze", "verify", str(broken)], capture_output=True, text=True)
    assert "restart specifier" in bad.stderr  # the verifier does read our settings


def test_the_unit_starts_at_boot_after_the_sound_card_and_restarts_with_a_limit(capsys, tmp_path):
    config = tmp_path / "table.toml"
    config.write_text("", encoding="utf-8")
    u = parsed(unit(capsys, "--config", str(config)))
    assert u["Unit"]["After"] == "sound.target" and u["Install"]["WantedBy"] == "multi-user.target"
    assert u["Service"]["Restart"] == "on-failure"
    assert int(u["Unit"]["StartLimitBurst"]) == service.RESTART_BURST
    assert u["Service"]["StandardOutput"] == "journal" and u["Service"]["User"] == "root"
    from host_device.web.limits import LIMITS

    # the pages' connections, the backlogs being accepted and the rest of the box, far below the limit
    assert int(u["Service"]["LimitNOFILE"]) >= 4 * (LIMITS.connections + 2 * LIMITS.backlog + 64)
    command = shlex.split(u["Service"]["ExecStart"])
    assert command[0] == str(service.executable()) and os.access(command[0], os.X_OK)
    assert command[1:] == ["run", "--box", "--config", str(config)]
    text = service.unit_text("pi", ["gpio", "audio"], ["/x/host-device", "run", "--box"], tmp_path)
    assert "SupplementaryGroups=gpio audio" in text and "User=pi" in text
    assert "power-off" in service.polkit_rule("pi") and '"pi"' in service.polkit_rule("pi")


def test_the_units_execstart_runs_the_box_on_mock_pins_until_sigterm(capsys, tmp_path, builtin_pack):
    u = parsed(unit(capsys))
    command = shlex.split(u["Service"]["ExecStart"])
    env = os.environ | {"HOST_DEVICE_MODEL": str(tmp_path / "no-model")}  # the tests' data: its voice pack
    proc = subprocess.Popen(
        [*command, "--panel", "mock", "--audio", "null", "--store", str(tmp_path / "games.sqlite3")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    lines = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "готов" in line:
            break
    assert any("host-device: готов: классика, 10 игроков" in line for line in lines), lines
    proc.send_signal(signal.SIGTERM)  # systemctl stop
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    assert "остановлено" in out and "Traceback" not in out


def test_without_systemd_one_line(monkeypatch, capsys):
    monkeypatch.setattr(service, "has_systemd", lambda: False)
    for action in ("install", "remove", "status"):
        assert main(["service", action]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "нет systemd" in err


def test_a_user_that_does_not_exist_is_named(capsys):
    assert main(["service", "unit", "--user", "no-such-user-here"]) == 2
    assert "no-such-user-here: нет такого пользователя" in capsys.readouterr().err


def test_the_service_state_without_systemd(monkeypatch):
    monkeypatch.setattr(service, "has_systemd", lambda: False)
    assert service.state() == "здесь нет systemd"
