"""Host mode with phone seats: a phone's comings and goings at night are not
told until the morning (a phone woken to press would show who woke)."""

import io

from engine import Advance, DealRoles, Phase, Role
from engine.steps import NIGHT
from host_device.web.inputs import WebNotice

ROLES = DealRoles(roles=((3, Role.DON), (5, Role.MAFIA), (6, Role.SHERIFF), (8, Role.MAFIA)))


class Publisher:
    """The pages' side as the session sees it: only the hush is watched."""

    def __init__(self):
        self.hushes = []

    def hush(self, on):
        self.hushes.append(on)

    def after_input(self):
        pass

    def refresh(self):
        pass


def test_a_phone_back_at_night_is_told_at_morning_only(monkeypatch, tmp_path, capsys, builtin_pack):
    from host_device.session.host import Host
    from tests.helpers.host import args

    monkeypatch.setenv("HOST_DEVICE_MODEL", str(tmp_path / "no-model"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    host = Host(args(panel="mock", audio="null", store=str(tmp_path / "g.db"), days=None))
    host.publisher = publisher = Publisher()
    rt = host.runtime
    rt.handle(ROLES)
    for _ in range(200):  # day 1 without a candidate: to the night
        if rt.game.phase in NIGHT and rt.game.state.day >= 1:
            break
        rt.handle(Advance())
    assert rt.game.phase in NIGHT
    capsys.readouterr()
    host.phones.tell(WebNotice("seat 5's phone lost", "место 5: телефон отключён", seat=5, lasting=True))
    host.phones.tell(WebNotice("seat 5's phone back", "место 5: снова на связи", seat=5))
    host.phones.tell(WebNotice("seat 9's phone lost", "место 9: телефон отключён", seat=9, lasting=True))
    assert "место" not in capsys.readouterr().out  # nothing while a role may be awake
    assert publisher.hushes[-1] is True
    for _ in range(50):
        if rt.game.phase not in NIGHT:
            break
        rt.handle(Advance())
    assert rt.game.phase not in NIGHT
    told = [line for line in capsys.readouterr().out.splitlines() if "место" in line]
    assert told == ["host-device: место 5: снова на связи", "host-device: место 9: телефон отключён"]
    assert publisher.hushes[-1] is False


def test_the_consoles_name_lines_go_when_the_next_day_begins():
    """«место 7: игрок выбрал имя…» is news for the day it is told in (before
    the deal: until day 1 begins); a pick held through the night is told in
    the morning and stays that day; a lost phone's line stays until it is back."""
    from engine import Game
    from host_device.runtime.clock import Scheduler
    from host_device.runtime.loop import Runtime
    from host_device.runtime.settings import Settings
    from host_device.screens.views import Console
    from host_device.session.phone_notices import PhoneNotices
    from tests.helpers.table import Table

    table = Table()
    game = Game("classic")
    console = Console(Runtime(game, Scheduler(), lambda key, slots: 1.0, Settings()))
    phones = PhoneNotices(lambda text, russian: console.notice(russian), console, True, lambda: game.state)
    phones.passing("seat 7: a name", "место 7: игрок выбрал имя «Борис»")  # before the deal
    phones.tell(WebNotice("seat 4 lost", "место 4: телефон отключён", seat=4, lasting=True))

    def to(phase, day):
        while not (game.phase is phase and game.state.day == day):
            game.handle(table.game.record[len(game.record)])
            phones.step_began()

    table.day_speeches()
    table.advance()
    table.until(Phase.MORNING)
    table.day_speeches()
    to(Phase.INTRO_MAFIA, 0)
    assert console.notices == ["место 7: игрок выбрал имя «Борис»", "место 4: телефон отключён"]
    to(Phase.MORNING, 1)
    assert console.notices == ["место 4: телефон отключён"]  # day 1: the name's line has gone
    phones.passing("seat 9: a name", "место 9: игрок выбрал имя «Вера»")  # told in the morning of day 1
    to(Phase.NIGHT_HUNT, 1)
    assert console.notices == ["место 4: телефон отключён", "место 9: игрок выбрал имя «Вера»"]
    to(Phase.MORNING, 2)
    assert console.notices == ["место 4: телефон отключён"]
