"""The console after the end shows the game's chapters for a video's
description (issue 49 item 3), in Debian's Chromium on a phone (390×844):
hidden through the game and until the end is said, then every line of them
in a box the host selects and copies, the whole list seen without scrolling
inside it, the command for the stream's offset beneath. Screenshot:
tests/system/screenshots/console-chapters.png."""

from engine import Phase
from host_device.screens.views import console_view
from tests.system.test_browser_console import SHOTS, browser, console, shown  # noqa: F401 (fixtures)
from tests.system.test_browser_night import PHONE, stepped  # noqa: F401 (the fixture)

BOX = """() => { const a = document.getElementById('chapters-text'), r = a.getBoundingClientRect();
  return { value: a.value, scroll: a.scrollHeight, client: a.clientHeight, left: r.left, right: r.right,
           hidden: document.getElementById('chapters').hidden }; }"""


def test_after_the_end_the_console_shows_the_chapters(console):  # noqa: F811 (the fixture)
    page, game = console
    runtime = game.runtime
    game.until(lambda rt: rt.game.phase is Phase.NIGHT_HUNT)
    shown(page, runtime)
    assert page.evaluate("'chapters' in view") is False and page.locator("#chapters").is_hidden()
    game.until(lambda rt: rt.game.phase is Phase.GAME_OVER)
    shown(page, runtime)
    assert page.evaluate("'chapters' in view") is False and page.locator("#chapters").is_hidden()
    runtime.sched.run_due(runtime.speaking_until)  # the end said: public from here
    game.publisher.refresh()
    shown(page, runtime, "view.chapters")
    expected = console_view(game.publisher.private.console)["chapters"]
    assert expected[0] == "00:00 Раздача ролей" and "Ночь 1: убит игрок 1" in "\n".join(expected)
    box = page.evaluate(BOX)
    assert not box["hidden"] and box["value"] == "\n".join(expected)
    assert box["scroll"] <= box["client"] + 1  # every line seen, no scrolling inside the box
    assert box["left"] >= 0 and box["right"] <= PHONE["width"]
    assert "games chapters ИГРА --from ЧЧ:ММ:СС" in page.locator("#chapters-note").inner_text()
    page.locator("#chapters").scroll_into_view_if_needed()
    page.locator("#chapters").screenshot(path=str(SHOTS / "console-chapters.png"))
