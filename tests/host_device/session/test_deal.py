"""The deal with phones for seats (host_device/session/phone_wait.py PhoneWait): it
waits, saying how many phones and names are here, until every phone seat has
its phone and its player's name (with no console connected) or the host says
«Начать» («Дальше», «n» typed)."""

from hardware.events import HostKey, Press, TypedLine
from host_device.session.phone_wait import PhoneWait


def waiting(seats=range(1, 11)):
    online: set[int] = set()
    shown: list[str | None] = []
    dealt: list[bool] = []
    wait = PhoneWait(seats, lambda: frozenset(online), shown.append, lambda: dealt.append(True))
    return wait, online, shown, dealt


def test_the_deal_waits_until_every_phone_seat_has_its_phone():
    wait, online, shown, dealt = waiting()
    wait.check()
    online.update({1, 2, 3, 4, 5, 6})
    wait.check()
    wait.check()  # nothing new: said once
    assert shown == ["Ждём телефоны: подключены 0 из 10", "Ждём телефоны: подключены 6 из 10"]
    assert not dealt
    online.update(range(7, 11))
    wait.check()
    assert dealt == [True] and shown[-1] is None and not wait.waiting
    wait.check()
    wait.start()
    assert dealt == [True]  # dealt once


def test_the_host_starts_it_without_the_others():
    assert PhoneWait.starts(HostKey(Press(key="next", at=0.0)))  # the console's «Начать», «Дальше»
    assert PhoneWait.starts(Press(key="next", at=0.0))  # the keyboard panel's n
    assert PhoneWait.starts(TypedLine(text="N", at=0.0))
    assert not PhoneWait.starts(Press(key=3, at=0.0))
    assert not PhoneWait.starts(HostKey(Press(key="pause", at=0.0)))
    wait, online, shown, dealt = waiting()
    online.add(4)
    wait.check()
    wait.start()
    assert dealt == [True] and shown == ["Ждём телефоны: подключены 1 из 10", None]


def test_the_deal_waits_for_the_names_and_for_the_console_when_one_is_connected():
    online, named, console = set(range(1, 11)), set(), [False]
    shown: list[str | None] = []
    dealt: list[bool] = []
    wait = PhoneWait(
        range(1, 11),
        lambda: frozenset(online),
        shown.append,
        lambda: dealt.append(True),
        named=lambda: named,
        console=lambda: console[0],
    )
    wait.check()  # every phone is here: not yet, nobody has a name
    assert not dealt and shown == ["Ждём имена: выбраны 0 из 10"]
    online.discard(10)
    named.update(range(1, 10))
    wait.check()
    assert shown[-1] == "Ждём телефоны: подключены 9 из 10 · имена: 9 из 10"
    online.add(10)
    console[0] = True  # the host's console: he starts the deal himself, whatever the names
    wait.check()
    assert shown[-1] == "Телефоны здесь, имена: 9 из 10 — раздача по «Начать» на пульте"
    named.add(10)
    wait.check()
    assert not dealt and shown[-1] == "Телефоны здесь, имена: 10 из 10 — раздача по «Начать» на пульте"
    console[0] = False  # no console: the last name picked on a phone starts it
    wait.check()
    assert dealt == [True] and shown[-1] is None
