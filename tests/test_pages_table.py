"""The table in a real browser against a real gunicorn: a whole seeded game against the
computer, played by clicking only what the page offers, whose final scores are checked
against the service's own replay of the game's record; an illegal move sent anyway shows
the service's explanation; a sealed game plays a deal with a seat token per seat."""

from __future__ import annotations

import json
import os

import httpx
import pytest
from playwright.sync_api import expect
from gunicorn_server import gunicorn
from pages_browser import PHONE, assert_labelled, browser, has_operation, new_page, page, screenshot, server  # noqa: F401

pytestmark = pytest.mark.slow

SEED = "pages-test"


def need_suggest(base, pg):
    """Skip without the computer opponent's operation, unless PAGES_WITHOUT_SUGGEST=1: then
    the page's fallback (the bots play the first legal action) is played, its one 404 allowed."""
    if not has_operation(base, "/v1/games/suggest"):
        if os.environ.get("PAGES_WITHOUT_SUGGEST") == "1":
            pg.console_watch.expect(404)
            return
        pytest.skip("this service has no POST /v1/games/suggest yet: the table's tests run once it does")


def start(pg, base, players=2, seed=SEED):
    pg.goto(f"{base}/play/table?delay=0")
    pg.select_option("#players", str(players))
    pg.select_option("#level", "greedy")
    pg.fill("#seed", seed)
    pg.click("#setup-form button[type=submit]")
    expect(pg.locator("#game")).to_be_visible()


SNAPSHOT_JS = """() => {
  const game = document.getElementById('game'), hand = document.getElementById('my-hand');
  return {
    waiting: game.dataset.waiting, mode: hand.dataset.mode, discard: Number(hand.dataset.discard || 0),
    cards: [...hand.querySelectorAll('button.card')].map((b) => [b.dataset.card, !b.disabled]),
    actions: [...document.querySelectorAll('#actions button')].map((b) => [b.textContent, !b.disabled]),
  };
}"""


def my_move(pg) -> bool:
    """Wait for the page to offer a move; make the first legal one it offers. False at the end.

    What the page offers is read in one go (a snapshot), and each click names its card,
    so a click never lands on a control drawn for another position."""
    pg.wait_for_selector('#game[data-waiting="you"], #game[data-waiting="over"]')
    snap = pg.evaluate(SNAPSHOT_JS)
    if snap["waiting"] == "over":
        return False
    assert snap["waiting"] == "you", snap
    if snap["mode"] == "discard":
        for code, _ in snap["cards"][:snap["discard"]]:
            pg.click(f'#my-hand button.card[data-card="{code}"][aria-pressed="false"]')
        pg.click("#lay-away:enabled")
    elif snap["mode"] == "play":
        playable = [code for code, enabled in snap["cards"] if enabled]
        assert playable, snap
        pg.click(f'#my-hand button.card[data-card="{playable[0]}"]:enabled')
    else:
        label = next(text for text, enabled in snap["actions"] if enabled)
        pg.locator("#actions button:enabled", has_text=label).first.click()
    return True


def shown_scores(pg):
    return [int(pg.get_attribute(f'.peg[data-side="{s}"][data-peg="front"]', "data-value"))
            for s in range(pg.locator(".peg[data-peg=front]").count())]


def test_a_whole_game_against_the_bot(server, page, browser):
    need_suggest(server, page)
    start(page, server)
    moves = 0
    while my_move(page):
        moves += 1
        if moves == 14:
            page.wait_for_selector('#game[data-waiting="you"]')
            assert_labelled(page)
            screenshot(page, "table-desktop")
            context, phone, watch = new_page(browser, PHONE)
            need_suggest(server, phone)
            start(phone, server)
            for _ in range(4):
                my_move(phone)
            phone.wait_for_selector('#game[data-waiting="you"]')
            screenshot(phone, "table-phone")
            context.close()
            assert not watch.errors, watch.errors
        assert moves < 400
    expect(page.locator("#result")).to_be_visible()
    page.wait_for_timeout(400)  # the pegs' last move
    screenshot(page, "table-over-desktop")
    scores = shown_scores(page)
    assert max(scores) >= 121
    # The service's own account of the game the page played: its record replayed ...
    record = json.loads(page.text_content("#record"))
    replay = httpx.post(f"{server}/v1/games/replay", json=record, timeout=30)
    assert replay.status_code == 200, replay.text
    final = replay.json()
    assert [s["front"] for s in final["final"]["scores"]] == scores
    assert final["result"]["winner"] == int(page.get_attribute("#result", "data-winner"))
    # ... and the last state the page holds, viewed again
    state = page.evaluate("() => window.cribbageTable.answer.state")
    view = httpx.post(f"{server}/v1/games/view", json={"state": state}, timeout=30).json()
    assert [s["front"] for s in view["view"]["scores"]] == scores
    assert str(view["view"]["scores"][final["result"]["winner"]]["front"]) in page.text_content("#result-text")
    # the show was counted in order, each count with the call POST /v1/hands/score says
    counts = page.locator('#events li[data-type="count"]')
    assert counts.count() >= 3
    expect(counts.last.locator("q.call")).to_be_visible()


def test_an_illegal_move_sent_anyway_is_explained(server, page):
    need_suggest(server, page)
    start(page, server)
    page.wait_for_selector('#game[data-waiting="you"]')
    page.console_watch.expect(422)
    page.evaluate("() => window.cribbageTable.send({type: 'go', seat: 0})")
    expect(page.locator("#error")).to_be_visible()
    text = page.text_content("#error")
    assert text.startswith("The service refused that:") and "rule:" in text
    assert my_move(page)  # the game goes on
    expect(page.locator("#error")).to_be_hidden()


def test_the_table_by_keyboard(server, page):
    """Enter on the focused move; focus stays on the moves the page offers next."""
    need_suggest(server, page)
    start(page, server)
    page.wait_for_selector('#game[data-waiting="you"]')
    for _ in range(2):  # choose the two cards to lay away with the keyboard
        page.wait_for_selector('#game[data-waiting="you"]')
        page.locator('#my-hand button.card[aria-pressed="false"]').first.focus()
        page.keyboard.press("Enter")
    page.wait_for_selector("#lay-away:enabled")
    page.focus("#lay-away")
    page.keyboard.press("Enter")
    page.wait_for_selector('#game[data-waiting="you"], #game[data-waiting="bots"]')
    focused = page.evaluate("() => document.activeElement.closest('#my-hand, #actions, #status') !== null")
    assert focused


def test_three_players_play_a_deal(server, page):
    need_suggest(server, page)
    start(page, server, players=3)
    assert page.locator("#seats .seat").count() == 2
    while page.locator('#events li[data-type="deal"]').count() < 2:
        assert my_move(page)
    assert page.locator('#events li[data-type="count"]').count() == 4  # three hands and the crib


@pytest.fixture(scope="module")
def sealed_server(tmp_path_factory):
    log_path = tmp_path_factory.mktemp("gunicorn-sealed") / "gunicorn.log"
    with gunicorn(log_path, GUNICORN_ACCESS_LOG="off", CRIBBAGE_STATE_SECRET="pages-test-secret-" + "x" * 16) as base:
        yield base


def test_a_sealed_game_uses_a_token_per_seat(sealed_server, page):
    need_suggest(sealed_server, page)
    start(page, sealed_server)
    tokens = page.evaluate("() => window.cribbageTable.tokens")
    assert len(tokens) == 2
    assert isinstance(page.evaluate("() => window.cribbageTable.answer.state"), str)  # sealed
    while page.locator('#events li[data-type="deal"]').count() < 2:
        assert my_move(page)
        if page.get_attribute("#my-hand", "data-mode") == "play":
            # the computer's unplayed cards are never on the page
            backs = page.locator('#seats .seat .card.back').count()
            assert backs >= 1
    assert page.is_hidden("#record-box")
