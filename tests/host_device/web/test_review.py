"""The review's data from a hand-made record: the seats, the vote map's
columns and marks (with the teams of voter and target), the nights."""

import pytest

from engine.roles import Team
from host_device.web.review import Unfinished, review
from tests.helpers.club import game_record, unfinished_record


def test_an_unfinished_game_has_no_review():
    with pytest.raises(Unfinished, match="Игра 2 ещё идёт"):
        review(unfinished_record())


def test_the_seats_show_names_roles_fouls_departures_and_points():
    page = review(game_record(), points={1: 3.5, 3: -0.5})
    by = {s.seat: s for s in page.seats}
    assert [s.seat for s in page.seats] == list(range(1, 11))
    assert (by[3].name, by[3].role, by[3].team, by[3].fouls) == ("Вера", "дон", Team.BLACK, 2)
    assert by[7].left == "ночь 1, убит"
    assert by[5].left == "день 1, голосованием"
    assert by[1].left is None
    assert (by[1].points, by[3].points, by[2].points) == (3.5, -0.5, None)


def test_day_one_columns_are_the_candidates_with_who_put_them_up():
    day = review(game_record()).days[0]
    assert [(c.target, c.team, c.nominated_by) for c in day.columns] == [(4, Team.RED, 1), (5, Team.BLACK, 2)]
    assert day.voters == tuple(range(1, 11))
    mark = day.mark(3, 0)  # the Don voted for 4 (red)
    assert (mark.voter_team, mark.target_team) == (Team.BLACK, Team.RED)
    assert day.mark(3, 1) is None
    assert day.mark(5, 1).target_team is Team.BLACK


def test_day_two_has_its_rounds_in_order_and_the_all_leave_question():
    day = review(game_record()).days[1]
    assert [(c.round, c.kind, c.target) for c in day.columns] == [
        (1, "main", 3),
        (1, "main", 8),
        (2, "revote", 3),
        (2, "revote", 8),
        (3, "all", None),
    ]
    assert [m.voter for m in day.marks if m.column == 4] == [1, 2, 4, 6]
    assert day.mark(6, 4).target_team is None
    assert 6 in day.voters and 9 not in day.voters  # 9 never pressed on day 2
    assert day.silent == (9,)  # 5 left on day 1 and 7 on night 1: not in the game on day 2
    assert day.rows == (1, 2, 3, 4, 6, 8, 9, 10) and day.team(9) is Team.RED


def test_a_candidate_nobody_voted_for_still_has_his_column():
    record = game_record()
    ballots = tuple(b for b in record.ballots if not (b.day == 1 and b.target == 4))
    import dataclasses

    day = review(dataclasses.replace(record, ballots=ballots)).days[0]
    assert [c.target for c in day.columns] == [4, 5]
    assert not [m for m in day.marks if m.column == 0]


def test_the_nights_and_the_best_move():
    page = review(game_record())
    assert [(n.night, n.kind, n.by, n.target, n.result) for n in page.nights] == [
        (1, "выстрел", "мафия: 3, 5, 8", 7, None),
        (1, "проверка", "дон", 6, True),
        (1, "проверка", "шериф", 3, True),
    ]
    assert page.best_move == (7, (3, 5, 9), 2)


def test_the_review_lists_each_foul_with_who_gave_it_and_the_word_heard():
    import dataclasses

    from host_device.club.record import FoulRecord
    from host_device.web.club_html import review_html

    fouls = (FoulRecord(3, 1, "device", "честно", 754.2), FoulRecord(3, 2, "host", "", 1500.0))
    page = review(dataclasses.replace(game_record(), fouls=fouls))
    assert page.fouls == fouls
    html = review_html(page)
    assert "<h2>Замечания</h2>" in html
    assert (
        '<tr data-by="device"><td class="num">1</td><td class="num">3</td><td>устройство</td><td>«честно»</td>'
        in html
    )
    assert '<td>ведущий</td><td></td><td class="heard"></td><td></td><td class="num">25:00</td>' in html
    assert "Замечания" not in review_html(review(game_record()))  # no fouls recorded: no section


def test_the_review_shows_what_the_device_heard_and_the_foul_withdrawn_from_the_console(store):
    """Issue 45: the sentence heard with a confidence a word, the moment in
    the speech; the foul the console withdrew listed, marked «снято с пульта»."""
    from host_device.club.build import record_of
    from host_device.web.club_html import review_html
    from tests.helpers.fouls import game_with_fouls

    html = review_html(review(record_of(store, game_with_fouls(store))))
    assert (
        '<tr data-by="device" class="withdrawn"><td class="num">1</td><td class="num">2</td>'
        "<td>устройство <b>(снято с пульта)</b></td><td>«клянусь»</td>"
        '<td class="heard">клянусь (0,93) я (0,88) мирный (0,97)</td><td>на 0:12 речи</td>'
    ) in html
    assert (
        '<tr data-by="device"><td class="num">1</td><td class="num">2</td><td>устройство</td><td>«честно»</td>'
        '<td class="heard">честно (0,91) говоря (0,80) я (0,99) за (0,95) пятого (0,90)</td>'
        "<td>на 0:42 речи</td>"
    ) in html
    row = html.split('data-seat="2">')[1].split("</tr>")[0]
    assert (
        '<td class="role">мирный</td><td class="num">1</td>' in row
    )  # seat 2's fouls: the withdrawn is none
