"""``run`` says first which voice speaks and why (issue 48 item 1)."""

import io
import shutil

from host_device.runtime.clock import VirtualClock
from host_device.session.host import Host
from tests.helpers.host import args
from voices import rhvoice


def test_run_says_first_which_voice_speaks_and_why(tmp_path, builtin_pack, monkeypatch, capsys):
    shutil.copytree(builtin_pack.directory, tmp_path / "data" / "voices" / "builtin")
    monkeypatch.setenv("HOST_DEVICE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.delenv(rhvoice.ENV, raising=False)
    monkeypatch.setattr(rhvoice, "SYSTEM", tmp_path / "no-system")  # sources that did not offer RHVoice
    Host(args(store=tmp_path / "g.sqlite3"), clock=VirtualClock(limit=3600)).run()
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        "host-device: голос builtin (espeak-ng, голос zle/ru, 165 слов в минуту) — голос по умолчанию: "
        + rhvoice.missing({})
    )
