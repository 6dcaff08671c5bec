"""The seating the screens show: the roster's list for the pickers is made
once a roster, since every refresh puts it in every phone's view."""

from host_device.screens.seating import Seating
from host_device.store.roster import Player


def test_the_roster_view_is_the_same_list_until_the_roster_changes():
    seating = Seating(roster=(Player("a1", "Аня", "Аня-2"), Player("b2", "Боря")))
    first = seating.roster_view()
    assert [p["name"] for p in first] == ["Аня", "Боря"] and first[0]["nickname"] == "Аня-2"
    assert seating.roster_view() is first
    seating.roster = (*seating.roster, Player("c3", "Вера"))
    assert [p["name"] for p in seating.roster_view()] == ["Аня", "Боря", "Вера"]
