"""``host-device service unit|install|remove|status``: the box as a systemd
service, started at boot as an unprivileged user.

The unit runs ``run --box`` with nobody at a terminal; systemd orders it
after the sound card (``sound.target``), restarts it when it fails (a sound
card that is not there yet, a crash) at most RESTART_BURST times in
RESTART_WINDOW_S, and keeps its output in the journal; its descriptor limit
(OPEN_FILES) is far above the pages' connections. The user is put in the
``gpio`` and ``audio`` groups (those this machine has), and a polkit rule lets
him power the Pi off (the held «Пауза»).
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

from host_device.base.errors import HostDeviceError

NAME = "host-device"
UNIT_PATH = Path("/etc/systemd/system") / f"{NAME}.service"
POLKIT_PATH = Path("/etc/polkit-1/rules.d") / f"50-{NAME}.rules"
GROUPS = ("gpio", "audio")
RESTART_BURST = 5
RESTART_WINDOW_S = 300
OPEN_FILES = 4096  # LimitNOFILE: the pages' connections (at most 200, web/limits.py) far below it


STATES = {
    "active": "работает",
    "inactive": "остановлена",
    "failed": "упала",
    "activating": "запускается",
    "deactivating": "останавливается",
    "unknown": "неизвестно",
}  # systemctl is-active's words, as the club reads them


class ServiceError(HostDeviceError, RuntimeError):
    pass


def executable() -> Path:
    """This installation's ``host-device`` (beside the Python that runs it)."""
    return Path(sys.executable).parent / NAME


def existing_groups(groups: tuple[str, ...] = GROUPS) -> list[str]:
    out = []
    for name in groups:
        try:
            grp.getgrnam(name)
        except KeyError:
            continue
        out.append(name)
    return out


def default_user() -> str:
    """Who the box runs as: the user who called sudo, else whoever runs this."""
    return os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name


def unit_text(user: str, groups: list[str], command: list[str], workdir: Path) -> str:
    group_line = f"SupplementaryGroups={' '.join(groups)}\n" if groups else ""
    return f"""[Unit]
Description=Mafia table host: ready at boot, run by the panel's buttons (host-device run --box)
After=sound.target
Wants=sound.target
StartLimitIntervalSec={RESTART_WINDOW_S}
StartLimitBurst={RESTART_BURST}

[Service]
Type=simple
User={user}
{group_line}WorkingDirectory={workdir}
Environment=PYTHONUNBUFFERED=1
ExecStart={" ".join(command)}
Restart=on-failure
RestartSec=5
StandardInput=null
StandardOutput=journal
StandardError=journal
TimeoutStopSec=20
LimitNOFILE={OPEN_FILES}

[Install]
WantedBy=multi-user.target
"""


def polkit_rule(user: str) -> str:
    return f"""// {NAME}: the box's user may power the Pi off (the held «Пауза»)
polkit.addRule(function(action, subject) {{
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "{user}") {{
        return polkit.Result.YES;
    }}
}});
"""


def the_unit(user: str | None, config: Path | None) -> str:
    user = user or default_user()
    try:
        home = Path(pwd.getpwnam(user).pw_dir)
    except KeyError:
        raise ServiceError(f"--user {user}: нет такого пользователя на этой машине") from None
    command = [str(executable()), "run", "--box"]
    if config:
        command += ["--config", str(config.resolve())]
    return unit_text(user, existing_groups(), command, home if home.is_dir() else Path("/"))


def has_systemd() -> bool:
    return Path("/run/systemd/system").is_dir() and shutil.which("systemctl") is not None


def _systemctl(*arguments: str) -> None:
    result = subprocess.run(["systemctl", *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise ServiceError(f"systemctl {' '.join(arguments)}: {result.stderr.strip() or result.returncode}")


def _need_systemd_and_root() -> None:
    if not has_systemd():
        raise ServiceError("на этой машине нет systemd: запустите коробку так: host-device run --box")
    if os.geteuid() != 0:
        raise ServiceError("службу ставит только root: sudo .venv/bin/host-device service …")


def print_unit(user: str | None, config: Path | None) -> int:
    print(the_unit(user, config), end="")
    return 0


def install(user: str | None, config: Path | None) -> int:
    _need_systemd_and_root()
    user = user or default_user()
    if user == "root":
        raise ServiceError("коробка работает не от root: добавьте --user pi (или пользователя стола)")
    text = the_unit(user, config)
    for group in existing_groups():
        subprocess.run(["usermod", "-aG", group, user], check=False)
    UNIT_PATH.write_text(text, encoding="utf-8")
    if POLKIT_PATH.parent.is_dir():
        POLKIT_PATH.write_text(polkit_rule(user), encoding="utf-8")
    _systemctl("daemon-reload")
    _systemctl("enable", "--now", f"{NAME}.service")
    print(
        f"host-device: служба {UNIT_PATH} установлена и запущена; она будет запускаться при каждом включении"
    )
    print("host-device: посмотреть её: host-device service status")
    return 0


def remove() -> int:
    _need_systemd_and_root()
    if UNIT_PATH.exists():
        subprocess.run(["systemctl", "disable", "--now", f"{NAME}.service"], check=False)
        UNIT_PATH.unlink()
    POLKIT_PATH.unlink(missing_ok=True)
    _systemctl("daemon-reload")
    print(f"host-device: служба удалена ({UNIT_PATH})")
    return 0


def state() -> str:
    """The service's state in a word (active, inactive, failed, not installed), or why not known."""
    if not has_systemd():
        return "здесь нет systemd"
    result = subprocess.run(["systemctl", "is-active", f"{NAME}.service"], capture_output=True, text=True)
    word = result.stdout.strip() or "unknown"
    if word == "inactive" and not UNIT_PATH.exists():
        return "не установлена"
    return STATES.get(word, word)


def status() -> int:
    if not has_systemd():
        raise ServiceError("на этой машине нет systemd: служб здесь не бывает")
    print(f"host-device: служба: {state()}")
    journal = ["journalctl", "-u", f"{NAME}.service", "-n", "15", "--no-pager", "-o", "short"]
    subprocess.run(journal, check=False)
    return 0
