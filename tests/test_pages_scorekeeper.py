"""The scorekeeper in a real browser against a real gunicorn: a scripted game pegged to a
skunk win, a reload in the middle, undo, the board's pegs and its 61 and 91 marks."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect
from pages_browser import PHONE, assert_labelled, browser, has_operation, new_page, page, screenshot, server  # noqa: F401

pytestmark = pytest.mark.slow

# (side, how, points): Alice pegs 121 exactly, Bob ends on 64, between the double-skunk
# line (61) and the skunk line (91): a skunk.  Sums worked by hand: Alice
# 2+3+28+2(heels)+24+6+29+12+15 = 121; Bob 1+20+4+16+2+21 = 64.
SCRIPT = [
    (0, "pad", 2), (1, "pad", 1), (0, "pad", 3), (1, "count", 20), (0, "count", 28),
    (0, "heels", 2), (1, "pad", 4), (0, "count", 24), (1, "count", 16), (0, "pad", 6),
    (1, "pad", 2), (0, "count", 29), (1, "count", 21), (0, "pad", 12), (0, "count", 15),
]


def start(pg, base):
    pg.goto(f"{base}/play/scorekeeper")
    pg.select_option("#mode", "2")
    pg.select_option("#target", "121")
    pg.select_option("#first-dealer", "0")
    pg.click("#setup-form button[type=submit]")
    expect(pg.locator("#game")).to_be_visible()


def peg(pg, side, how, points):
    pg.click(f'button.side[data-side="{side}"]')
    if how == "pad":
        pg.click(f'#pad button[data-points="{points}"]')
    elif how == "heels":
        pg.click("#heels")
    else:
        pg.fill("#count", str(points))
        pg.click("#count-form button[type=submit]")


def scores(pg):
    return [int(pg.text_content(f'[data-score="{i}"]')) for i in (0, 1)]


def pegs(pg, side):
    return (int(pg.get_attribute(f'.peg[data-side="{side}"][data-peg="front"]', "data-value")),
            int(pg.get_attribute(f'.peg[data-side="{side}"][data-peg="back"]', "data-value")))


def test_pegging_reload_undo_and_marks(server, page, browser):
    start(page, server)
    for mark, label in (("61", "double-skunk"), ("91", "skunk")):
        assert label in page.locator(f'.board [data-mark="{mark}"]').text_content()
    for step in SCRIPT[:8]:
        peg(page, *step)
    assert scores(page) == [59, 25]
    assert pegs(page, 0) == (59, 35)  # front: the score; back: the score before the last peg
    assert pegs(page, 1) == (25, 21)
    assert "Alice deals" in page.text_content("#deal-info")
    page.click("#next-deal")
    assert "Bob deals" in page.text_content("#deal-info")
    # a reload finds the game as it was
    page.reload()
    expect(page.locator("#game")).to_be_visible()
    assert scores(page) == [59, 25]
    assert pegs(page, 0) == (59, 35)
    assert "Bob deals" in page.text_content("#deal-info")
    # a mistaken peg, undone; then the deal change, undone
    peg(page, 1, "pad", 5)
    assert scores(page) == [59, 30]
    assert "Bob pegs 5: 30" in page.text_content("#live")
    page.click("#undo")
    assert scores(page) == [59, 25] and pegs(page, 1) == (25, 21)
    page.click("#undo")
    assert "Alice deals" in page.text_content("#deal-info")
    # nineteen: no points, no peg moves
    page.click('button.side[data-side="1"]')
    page.fill("#count", "0")
    page.click("#count-form button[type=submit]")
    assert scores(page) == [59, 25] and pegs(page, 1) == (25, 21)
    assert "nineteen" in page.text_content("#log li")
    assert_labelled(page)
    screenshot(page, "scorekeeper-desktop")
    phone_screenshot(browser, page, server, "scorekeeper-phone")


def phone_screenshot(browser, page, base, name):
    """The same game (this browser's local storage) on a phone."""
    context, phone, watch = new_page(browser, PHONE, storage_state=page.context.storage_state())
    phone.goto(f"{base}/play/scorekeeper")
    expect(phone.locator("#game")).to_be_visible()
    assert scores(phone) == scores(page)
    phone.wait_for_timeout(400)  # the pegs' move
    screenshot(phone, name)
    context.close()
    assert not watch.errors, watch.errors


def test_a_skunk_win_from_the_match_scoring_operation(server, page, browser):
    if not has_operation(server, "/v1/matches/score"):
        pytest.skip("this service has no POST /v1/matches/score yet: the result's test runs once it does")
    start(page, server)
    for step in SCRIPT[:-1]:
        peg(page, *step)
    assert scores(page) == [106, 64]
    assert page.is_hidden("#result")
    page.reload()  # in the middle of the last deal
    assert scores(page) == [106, 64]
    peg(page, *SCRIPT[-1])
    assert scores(page) == [121, 64]
    expect(page.locator("#result")).to_have_attribute("data-result", "skunk")
    answer = httpx.post(f"{server}/v1/matches/score", json={"games": [{"scores": [121, 64]}]}).json()
    game = answer["games"][0]
    assert game["result"] == "skunk" and game["winner"] == 0
    text = page.text_content("#result-text")
    assert text.startswith("Alice wins, a skunk")
    assert "(3 game points, spread 57)" in text  # a skunk (64 < 91) is 3 game points; 121 - 64
    assert "Bob 64: a skunk" in text
    assert page.is_disabled('#pad button[data-points="2"]')  # the game is over
    screenshot(page, "scorekeeper-skunk-desktop")
    phone_screenshot(browser, page, server, "scorekeeper-skunk-phone")
    # undo reopens the game
    page.click("#undo")
    assert scores(page) == [106, 64] and page.is_hidden("#result")


def test_three_players_and_teams_boards(server, page):
    page.goto(f"{server}/play/scorekeeper")
    page.select_option("#mode", "3")
    page.select_option("#target", "61")
    page.click("#setup-form button[type=submit]")
    assert page.locator('.board .peg[data-peg="front"]').count() == 3
    assert page.locator(".board [data-mark]").count() == 1
    assert "skunk" in page.locator('.board [data-mark="31"]').text_content()
    peg(page, 2, "count", 12)
    assert [int(page.text_content(f'[data-score="{i}"]')) for i in (0, 1, 2)] == [0, 0, 12]
    page.once("dialog", lambda d: d.accept())
    page.click("#new-game")
    page.select_option("#mode", "teams")
    assert page.locator("#names input").count() == 4
    page.click("#setup-form button[type=submit]")
    assert page.locator('.board .peg[data-peg="front"]').count() == 2
    assert page.text_content('button.side[data-side="0"]').strip().startswith("Alice & Carol")
    for _ in range(3):
        page.click("#next-deal")
    assert "Dan deals" in page.text_content("#deal-info")  # the deal goes round the four
    assert "team Bob & Dan" in page.text_content("#deal-info")
