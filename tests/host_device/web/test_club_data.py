"""The leaderboard's and a player's page's data from hand-made records:
the filters read from the address (and refused in Russian), the games a
filter keeps, points and rating per player, a player's games and plots' data."""

import datetime
import itertools
import time

import pytest

from engine.roles import Team
from host_device.club.rating import START
from host_device.club.scoring import default_table
from host_device.web.club_data import (
    BadFilter,
    Filters,
    UnknownPlayer,
    filters_of,
    leaderboard,
    player_page,
    points_points,
    rating_points,
)
from tests.helpers.club import game_record, player_id, unfinished_record

TABLE = default_table()


def games():
    return [
        game_record(1, Team.RED, started_at="2026-10-05T19:00:00+00:00"),
        game_record(2, Team.BLACK, started_at="2026-11-20T19:00:00+00:00"),
        game_record(3, Team.RED, started_at="2026-11-21T19:00:00+00:00", preset="event"),
        unfinished_record(4),
    ]


def test_filters_are_read_from_the_address():
    assert filters_of({}) == Filters()
    assert filters_of({"from": "2026-11-01", "preset": "event"}) == Filters(
        datetime.date(2026, 11, 1), None, "event"
    )


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"from": "1.11.2026"}, "from='1.11.2026': дата читается как ГГГГ-ММ-ДД"),
        ({"from": "2026-12-01", "to": "2026-11-01"}, "позже"),
    ],
)
def test_a_bad_filter_says_what_and_how(query, says):
    with pytest.raises(BadFilter, match=says):
        filters_of(query)


def test_the_leaderboard_of_every_finished_game():
    board = leaderboard(games(), TABLE, Filters())
    assert board.games == 3 and board.presets == ("classic", "event")
    rows = {r.player: r for r in board.rows}
    assert len(rows) == 10
    don = rows[player_id(3)]  # black: lost, won, lost
    assert (don.name, don.games, don.wins) == ("Вера", 3, 1)
    civilian = rows[player_id(1)]
    assert civilian.wins == 2 and civilian.rating > START > don.rating
    assert board.rows[0].place == 1 and board.rows[0].rating >= board.rows[-1].rating


def test_a_filter_keeps_its_games_alone():
    board = leaderboard(games(), TABLE, filters_of({"from": "2026-11-01", "preset": "classic"}))
    assert board.games == 1
    don = next(r for r in board.rows if r.player == player_id(3))
    assert (don.games, don.wins) == (1, 1)  # game 2 alone: the mafia won


def test_points_add_up_over_the_chosen_games():
    one = leaderboard(games()[:1], TABLE, Filters())
    two = leaderboard(games()[:2], TABLE, Filters())
    first = {r.player: r.points for r in one.rows}
    both = {r.player: r.points for r in two.rows}
    assert both[player_id(1)] == pytest.approx(first[player_id(1)] + TABLE.loss[games()[1].seat(1).role])


def test_a_players_page():
    page = player_page(games(), player_id(3), TABLE)
    assert page.name == "Вера" and page.stats.games == 3
    assert [(g.game, g.role, g.won) for g in page.games] == [
        (1, "дон", False),
        (2, "дон", True),
        (3, "дон", False),
    ]
    assert [(r.role, r.games, r.wins, r.black) for r in page.roles] == [("дон", 3, 1, True)]
    assert [p.label for p in rating_points(page)] == ["05.10", "20.11", "21.11"]
    assert rating_points(page)[-1].value == page.rating
    assert [p.value for p in points_points(page)] == [g.points for g in page.games]


def test_a_player_with_no_finished_game_is_unknown():
    with pytest.raises(UnknownPlayer, match="не сыграл ни одной оконченной игры"):
        player_page(games()[3:], player_id(3), TABLE)


def test_a_date_filter_takes_the_evening_by_local_time(monkeypatch):
    """A game started at 22:30 UTC on 20 November is Moscow's 21 November,
    as the evening's protocol dates it (the filter used the UTC date)."""
    monkeypatch.setenv("TZ", "Europe/Moscow")
    time.tzset()
    try:
        late = [game_record(1, Team.RED, started_at="2026-11-20T22:30:00+00:00")]
        assert leaderboard(late, TABLE, filters_of({"from": "2026-11-21"})).games == 1
        assert leaderboard(late, TABLE, filters_of({"to": "2026-11-20"})).games == 0
    finally:
        monkeypatch.undo()
        time.tzset()


def test_an_equal_rating_goes_by_points_and_only_equal_points_share_a_place():
    """One game: the seven red players have one rating (1010,0 as shown) and
    different points (the best move, the host's extras): they are listed by
    their points, and only equal points share a place; the page says so."""
    from host_device.web.board_html import board_html

    board = leaderboard([game_record(1, Team.RED, extras={1: 0.3, 2: -0.2})], TABLE, Filters())
    red = [r for r in board.rows if r.rating > START]
    assert len(red) == 7 and len({round(r.rating, 1) for r in red}) == 1
    assert [r.points for r in red] == sorted((r.points for r in red), reverse=True)
    assert [r.points for r in red][:2] == [1.3, 1.25] and red[-1].points == 0.8
    places = [(r.place, r.points) for r in red]
    assert all((a[0] == b[0]) == (a[1] == b[1]) for a, b in itertools.pairwise(places))
    assert [p for p, _ in places] == [1, 2, 3, 3, 3, 3, 7]  # four with 1 point share the third place
    page = board_html(board)
    assert "при равном рейтинге — больше баллов" in page and "одно место — у равных и в рейтинге, и в баллах" in page


def test_the_leaderboard_and_a_players_page_show_the_rating_the_clubs_table_chose():
    """[rating] method = "mafiaratings" (issue 51): their rating on the pages, named."""
    import dataclasses

    from host_device.club.rating import ratings, replay_mafiaratings

    chosen = dataclasses.replace(TABLE, rating="mafiaratings")
    board = leaderboard(games(), chosen, Filters())
    theirs = ratings([g for g in games() if g.finished], method="mafiaratings")
    assert {r.player: r.rating for r in board.rows} == {p: r.rating for p, r in theirs.items()}
    assert board.rating_name == "рейтинг mafiaratings (клубные игры)"
    assert {r.player: r.rating for r in leaderboard(games(), TABLE, Filters()).rows} != {
        p: r.rating for p, r in theirs.items()
    }
    page = player_page(games(), player_id(1), chosen)
    last = [c for c in replay_mafiaratings(g for g in games() if g.finished) if c.player == player_id(1)][-1]
    assert page.rating == last.after
