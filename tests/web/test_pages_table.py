"""The table in a real browser against a real gunicorn: a whole seeded game against the
computer, played by clicking only what the page offers, whose final scores are checked
against the service's own replay of the game's record, and whose last count (the game
ended during it) says what was pegged, and whose review (POST /v1/games/review) the page
shows as the service answers it; an illegal move sent anyway shows the service's
explanation; a sealed game plays a deal with a seat token per seat; your hand is whole
in the show; on a phone the board stays in view; axe-core finds nothing."""

from __future__ import annotations

import json
import os

import httpx
import pytest
from playwright.sync_api import expect
from gunicorn_server import gunicorn
from pages_browser import (PHONE, assert_axe_clean, assert_in_view_across, assert_labelled, axe_source,  # noqa: F401
                           browser, has_operation, new_page, page, phone, screenshot, server)
from helpers_table import SEALED_SEED, my_move, need_suggest, phase, play_until, shown_scores, start

pytestmark = pytest.mark.slow


def test_a_whole_game_against_the_bot(server, page, browser):
    need_suggest(server, page)
    start(page, server)
    page.wait_for_selector('#game[data-waiting="you"]')
    assert_axe_clean(page, "the table, the first discard, at 1280 px")
    moves = 0
    while my_move(page):
        moves += 1
        if moves == 14:
            page.wait_for_selector('#game[data-waiting="you"]')
            assert_labelled(page)
            assert_axe_clean(page, f"the table in the {phase(page)}, at 1280 px")
            screenshot(page, "table-desktop")
            context, phone, watch = new_page(browser, PHONE)
            need_suggest(server, phone)
            start(phone, server)
            for _ in range(4):
                my_move(phone)
            phone.wait_for_selector('#game[data-waiting="you"]')
            assert_axe_clean(phone, f"the table in the {phase(phone)}, at 390 px")
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
    # the show was counted in order, each whole count with the call POST /v1/hands/score says
    counts = page.locator('#events li[data-type="count"]')
    assert counts.count() >= 3
    expect(counts.nth(counts.count() - 2).locator("q.call")).to_be_visible()
    # the last count stopped when the game was won: the line says what was pegged, not
    # the whole hand's call (points never pegged)
    last = counts.last
    cards = last.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
    starter = page.get_attribute("#starter .card", "data-card")
    whole = httpx.post(f"{server}/v1/hands/score", json={"cards": cards, "starter": starter,
                                                         "crib": "crib" in last.text_content()}, timeout=30).json()
    pegged = int(last.get_attribute("data-points"))
    pegs = [s["front"] for s in final["final"]["scores"]]
    assert pegged < whole["total"] and max(pegs) >= 121, "pick a SEED whose game ends during a count"
    expect(last.locator(".stopped")).to_contain_text(f"ended at 121 during this count: {pegged} of")
    expect(last.locator("q.call")).to_have_count(0)
    assert whole["call"] not in last.text_content()
    assert_axe_clean(page, "the table, game over, at 1280 px")
    check_review(page, server, record)


def near(text: str, value: float, unit: str) -> bool:
    """A figure the page wrote (to 1 or 2 decimals, then ``unit``) is ``value`` so rounded
    (JavaScript's and Python's roundings of a half may differ)."""
    assert text.endswith(unit), (text, unit)
    number = text.removesuffix(unit)
    places = len(number.partition(".")[2])
    return abs(float(number) - value) <= 0.51 * 10 ** -places


REVIEW_ROWS_JS = """() => [...document.querySelectorAll('#review-decisions tbody tr.decision')].map((r) => ({
  index: Number(r.dataset.index), seat: Number(r.dataset.seat), category: r.dataset.category,
  taken: r.cells[2].querySelector('.action').dataset.action,
  better: r.cells[3].querySelector('.action') ? r.cells[3].querySelector('.action').dataset.action : null,
  cost: [r.cells[4].textContent, r.cells[5].textContent],
}))"""


def check_review(pg, base, record):
    """The game's review, asked by the page, shows what POST /v1/games/review answers for
    the game's record (asked here too): each seat's summary, and each decision of yours
    (then every seat's flagged ones) with the better choice and its cost when flagged."""
    if not has_operation(base, "/v1/games/review"):
        if os.environ.get("CI") == "true":
            pytest.fail("POST /v1/games/review is missing")
        return
    pg.click("#review-game")
    pg.wait_for_selector("#review[data-ready=true]", timeout=180_000)
    assert pg.evaluate("() => document.activeElement.id") == "review-h"
    want = httpx.post(f"{base}/v1/games/review", json=record, timeout=180).json()
    seats = pg.locator("#review-seats tbody tr")
    assert seats.count() == len(want["seats"]) == 2
    for row, s in zip(seats.all(), want["seats"]):
        cells = row.locator("td").all_text_contents()
        assert cells[0] == str(s["decisions"]) and near(cells[1], s["error_rate"] * 100, "%"), (cells, s)
        assert cells[2:5] == [str(s["categories"][c]) for c in ("doubtful", "bad", "very_bad")], (cells, s)
    decided = [d for d in want["decisions"] if not d["forced"]]
    # the page's player makes the first legal move every time: some of them are flagged
    assert any(d["category"] != "ok" for d in decided if d["seat"] == 0)

    def check(rows):
        shown = pg.evaluate(REVIEW_ROWS_JS)
        assert [{k: v for k, v in r.items() if k != "cost"} for r in shown] == [
            {"index": d["index"], "seat": d["seat"], "category": d["category"], "taken": d["taken"],
             "better": d["best"] if d["category"] != "ok" else None} for d in rows]
        for r, d in zip(shown, rows):
            if d["category"] == "ok":
                assert r["cost"] == ["\u2013", "\u2013"], r
            else:
                assert near(r["cost"][0], d["points"]["loss"], " pt") and near(r["cost"][1], d["win"]["loss"] * 100, "%"), (r, d)

    check([d for d in decided if d["seat"] == 0])
    pg.select_option("#review-filter", "flagged")
    check([d for d in decided if d["category"] != "ok"])
    assert_axe_clean(pg, "the table with the game's review, at 1280 px")
    screenshot(pg, "table-review")
    # narrowed to a phone's width: the review and the show are stacked, nothing cut off
    pg.set_viewport_size(PHONE)
    pg.select_option("#review-filter", "mine")
    for cards in ("#review .card", "#show .card"):
        assert_in_view_across(pg, cards)
    assert_axe_clean(pg, "the table with the game's review, at 390 px")
    screenshot(pg, "table-review-phone")


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
    start(page, sealed_server, seed=SEALED_SEED)
    tokens = page.evaluate("() => window.cribbageTable.tokens")
    assert len(tokens) == 2
    assert isinstance(page.evaluate("() => window.cribbageTable.answer.state"), str)  # sealed
    backs = 0
    while page.locator('#events li[data-type="deal"]').count() < 2:
        page.wait_for_selector('#game[data-waiting="you"], #game[data-waiting="over"]')
        if page.get_attribute("#my-hand", "data-mode") == "play":
            # the computer's unplayed cards are never on the page: each of its four is
            # face down, or face up and marked played (read at once: the page is still)
            cards = page.evaluate("""() => [...document.querySelector('#seats .seat > .cards').children]
                .map((c) => c.classList.contains('back') ? 'back' : c.classList.contains('off') ? 'played' : c.dataset.card)""")
            assert len(cards) == 4 and set(cards) <= {"back", "played"}, cards
            backs += cards.count("back")
        assert my_move(page)
    assert backs > 0  # the play was looked at, and some of the computer's cards were hidden
    assert page.is_hidden("#record-box")


HAND_FACES_JS = """() => [...document.querySelectorAll('#my-hand > .card')].map((c) => {
  let opacity = 1;
  for (let e = c; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
  return {card: c.dataset.card, opacity, off: c.classList.contains('off'), disabled: !!c.disabled,
          name: c.getAttribute('aria-label')};
})"""


def test_your_hand_is_whole_in_the_show_and_played_cards_are_marked_not_faded(server, page):
    need_suggest(server, page)
    start(page, server)
    # the play: a card I played is marked (dashed, "played"), at full opacity
    play_until(page, lambda pg: phase(pg) == "play" and pg.locator("#my-hand > .card.off").count() > 0)
    faces = page.evaluate(HAND_FACES_JS)
    played = [f for f in faces if f["off"]]
    assert played and all(f["name"].endswith(", played") for f in played), faces
    assert all(f["opacity"] == 1 for f in faces), faces
    # the show: your four cards, as dealt, none faded as if played
    play_until(page, lambda pg: phase(pg) == "show")
    faces = page.evaluate(HAND_FACES_JS)
    assert len(faces) == 4, faces
    assert all(f["opacity"] == 1 and not f["off"] and not f["disabled"] for f in faces), faces
    assert_axe_clean(page, "the show, at 1280 px")
    screenshot(page, "table-show-desktop")


PEGS_SEEN_JS = """() => [...document.querySelectorAll('.board .peg[data-peg="front"]')].map((p) => {
  const r = p.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const inside = y >= 0 && y <= window.innerHeight && x >= 0 && x <= window.innerWidth;
  const top = inside ? document.elementFromPoint(x, y) : null;
  return inside && top !== null && top.closest('svg.board') !== null;
})"""


def test_the_board_stays_in_view_on_a_phone(server, phone):
    """At 390 px the pegs are on the screen while you play your hand and while you read
    the end of the log, not scrolled away below it."""
    need_suggest(server, phone)
    start(phone, server)
    play_until(phone, lambda pg: pg.get_attribute("#my-hand", "data-mode") == "play"
               and pg.locator('#events li[data-type="play"]').count() >= 2)
    phone.wait_for_timeout(450)  # the pegs' move
    phone.evaluate("() => document.getElementById('my-hand').scrollIntoView({block: 'start'})")
    assert phone.evaluate(PEGS_SEEN_JS) == [True, True], "with the hand on screen"
    phone.evaluate("() => document.getElementById('events').scrollIntoView({block: 'end'})")
    assert phone.evaluate(PEGS_SEEN_JS) == [True, True], "with the end of the log on screen"
    # the focused move is not hidden under the board
    phone.locator("#my-hand button.card:enabled").first.focus()
    box = phone.locator("#my-hand button.card:enabled").first.bounding_box()
    board = phone.locator(".board-panel").bounding_box()
    assert box["y"] >= board["y"] + board["height"] - 1
    assert_axe_clean(phone, "the play on a phone, the log scrolling")
    phone.evaluate("() => document.getElementById('events').scrollIntoView({block: 'end'})")
    screenshot(phone, "table-phone-log", full_page=False)


@pytest.mark.parametrize("width", [390, 1280])
def test_axe_finds_nothing_on_the_new_game_form(server, browser, width):
    axe_source()  # skips without axe-core (npm), as the browser fixture does without Chromium
    context, pg, watch = new_page(browser, {"width": width, "height": 844})
    pg.goto(f"{server}/play/table")
    assert_axe_clean(pg, f"the new game form at {width} px")
    context.close()
    assert not watch.errors, watch.errors
