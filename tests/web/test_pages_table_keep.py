"""The table as a game one comes back to, in a real browser against a real gunicorn: a
reload goes on with the game (the same hand, scores and log; in a sealed game the same
seat tokens), "New game" forgets it, a kept state the service refuses falls back to the
new-game form with a message; Hint asks POST /v1/games/suggest as your seat only and
marks a legal card; the options (a 61-point game, muggins, skunks) reach the game; at
390 x 844 your hand and your moves are above the fold in the discard, the play and the
show; a seed a sealed service refuses is explained in words.

Each test's browser context starts with empty storage (a new context per test)."""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import expect
from gunicorn_server import gunicorn
from pages_browser import DESKTOP, assert_axe_clean, browser, new_page, page, screenshot, server  # noqa: F401
from helpers_table import SEALED_SEED, SEED, my_move, need_suggest, phase, play_until, shown_scores, start

pytestmark = pytest.mark.slow

SIZES = {390: {"width": 390, "height": 844}, 1280: DESKTOP}

TABLE_JS = """() => ({
  hand: [...document.querySelectorAll('#my-hand > .card')].map((c) => c.dataset.card || 'back'),
  log: [...document.querySelectorAll('#events li')].map((li) => li.dataset.type),
  status: document.getElementById('status').textContent,
  options: document.getElementById('game-options').textContent,
  seq: window.cribbageTable.answer.seq,
})"""


@pytest.fixture(scope="module")
def sealed_server(tmp_path_factory):
    log_path = tmp_path_factory.mktemp("gunicorn-sealed-keep") / "gunicorn.log"
    with gunicorn(log_path, GUNICORN_ACCESS_LOG="off", CRIBBAGE_STATE_SECRET="pages-keep-secret-" + "y" * 16) as base:
        yield base


def opened(browser, width):
    context, pg, watch = new_page(browser, SIZES[width])
    return context, pg, watch


def closed(context, watch):
    context.close()
    assert not watch.errors, watch.errors


def start_with(pg, base, seed=SEED, target="121", muggins=False, skunk=True, players=2):
    pg.goto(f"{base}/play/table?delay=0")
    pg.select_option("#players", str(players))
    pg.select_option("#level", "greedy")
    pg.select_option("#target", target)
    pg.set_checked("#muggins", muggins)
    pg.set_checked("#skunk", skunk)
    pg.fill("#seed", seed)
    pg.click("#setup-form button[type=submit]")
    expect(pg.locator("#game")).to_be_visible()


def wait_mine(pg):
    pg.wait_for_selector('#game[data-waiting="you"], #game[data-waiting="over"]')


def in_the_play_with_cards_down(pg):
    play_until(pg, lambda p: p.get_attribute("#my-hand", "data-mode") == "play"
               and p.locator('#events li[data-type="play"]').count() >= 2)


@pytest.mark.parametrize("width", [390, 1280])
def test_a_reload_goes_on_with_the_same_game(server, browser, width):
    context, pg, watch = opened(browser, width)
    need_suggest(server, pg)
    start(pg, server)
    in_the_play_with_cards_down(pg)
    pg.wait_for_timeout(400)  # the pegs' move
    before, scores = pg.evaluate(TABLE_JS), shown_scores(pg)
    state = pg.evaluate("() => window.cribbageTable.answer.state")
    pg.reload()
    pg.wait_for_selector('#game[data-restored="true"]')
    wait_mine(pg)
    pg.wait_for_timeout(400)
    after = pg.evaluate(TABLE_JS)
    assert after == before
    assert shown_scores(pg) == scores
    assert pg.evaluate("() => window.cribbageTable.answer.state") == state
    assert pg.is_hidden("#setup")
    # the service's own view of the kept state: the hand the page shows
    view = httpx.post(f"{server}/v1/games/view", json={"state": state, "seat": 0}, timeout=30).json()
    assert [c for c in view["view"]["hands"][0]] == after["hand"]
    assert [s["front"] for s in view["view"]["scores"]] == scores
    screenshot(pg, f"table-restored-{width}", full_page=False)
    # the game goes on from there
    assert my_move(pg)
    pg.wait_for_function("(seq) => window.cribbageTable.answer.seq > seq", arg=before["seq"])
    # New game forgets it: the options form, and nothing to restore on the next load
    pg.click("#new-game")
    expect(pg.locator("#setup")).to_be_visible()
    expect(pg.locator("#game")).to_be_hidden()
    assert pg.evaluate("() => localStorage.length") == 0
    assert pg.input_value("#seed") == SEED  # the last game's options, to start from
    pg.reload()
    expect(pg.locator("#setup")).to_be_visible()
    expect(pg.locator("#game")).to_be_hidden()
    closed(context, watch)


def test_a_sealed_game_keeps_its_seat_tokens_over_a_reload(sealed_server, browser):
    context, page, watch = opened(browser, 390)
    need_suggest(sealed_server, page)
    start(page, sealed_server, seed=SEALED_SEED)
    expect(page.locator("#game-options")).to_contain_text("sealed")
    wait_mine(page)
    assert_above_fold(page, "a sealed game's discard")
    play_until(page, lambda p: phase(p) == "play")
    before = page.evaluate(TABLE_JS)
    tokens = page.evaluate("() => window.cribbageTable.tokens")
    page.reload()
    page.wait_for_selector('#game[data-restored="true"]')
    wait_mine(page)
    assert page.evaluate("() => window.cribbageTable.tokens") == tokens
    assert page.evaluate(TABLE_JS) == before
    assert "back" not in before["hand"]
    while page.locator('#events li[data-type="deal"]').count() < 2:  # the bot acts with its own token
        assert my_move(page)
    closed(context, watch)


@pytest.mark.parametrize("spoil", ["newer-format", "not-json"])
def test_a_kept_game_the_page_cannot_restore_falls_back_to_a_new_game(server, page, spoil):
    need_suggest(server, page)
    start(page, server)
    wait_mine(page)
    if spoil == "newer-format":  # as a state written by a newer release would be
        page.evaluate("""() => { const k = JSON.parse(localStorage.getItem('cribbage-table'));
          k.answer.state.version = 4; localStorage.setItem('cribbage-table', JSON.stringify(k)); }""")
        page.console_watch.expect(422)
    else:
        page.evaluate("() => localStorage.setItem('cribbage-table', '{not json')")
    page.reload()
    expect(page.locator("#notice")).to_be_visible()
    text = page.text_content("#notice")
    if spoil == "newer-format":
        assert text.startswith("Your saved game could not be restored") and "newer release" in text, text
        assert page.get_attribute("#notice", "data-restore") == "refused"
    else:
        assert "could not be read" in text, text
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#game")).to_be_hidden()
    assert page.evaluate("() => localStorage.getItem('cribbage-table')") is None
    # and a new game starts from there
    page.click("#setup-form button[type=submit]")
    wait_mine(page)
    assert page.evaluate("() => window.cribbageTable.answer.phase") in ("deal", "discard")


def hint_requests(pg):
    sent = []
    pg.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.url.endswith("/v1/games/suggest")
          and json.loads(r.post_data).get("level") == "strong" else None)
    return sent


HINTED_JS = """() => [...document.querySelectorAll('#my-hand [data-hint="true"]')].map((c) => ({
  card: c.dataset.card, button: c.tagName === 'BUTTON', enabled: c.tagName === 'BUTTON' && !c.disabled}))"""


@pytest.mark.parametrize("width", [390, 1280])
def test_hint_marks_a_legal_card_as_your_seat_asks(server, browser, width):
    context, pg, watch = opened(browser, width)
    need_suggest(server, pg)
    sent = hint_requests(pg)
    start(pg, server)
    play_until(pg, lambda p: p.get_attribute("#my-hand", "data-mode") == "discard")
    expect(pg.locator("#hint")).to_be_visible()
    pg.click("#hint")
    pg.wait_for_selector('#my-hand [data-hint="true"]')
    hinted = pg.evaluate(HINTED_JS)
    answer = pg.evaluate("() => window.cribbageTable.answer")
    legal = [sorted(a["cards"]) for a in answer["legal_actions"] if a["seat"] == 0 and a["type"] == "discard"]
    assert sorted(h["card"] for h in hinted) in legal, (hinted, legal)
    # the service's own suggestion for seat 0, asked here
    want = httpx.post(f"{server}/v1/games/suggest", json={"state": answer["state"], "seat": 0, "level": "strong"},
                      timeout=60).json()
    assert sorted(h["card"] for h in hinted) == sorted(want["action"]["cards"])
    expect(pg.locator("#hint-text")).to_contain_text("Hint: lay away the")
    assert "on average" in pg.text_content("#hint-text")  # the bot's reason, its numbers
    assert sent == [{"state": answer["state"], "seat": 0, "level": "strong"}]
    pg.wait_for_selector("#lay-away:enabled")  # the hinted two are chosen: one click lays them away
    assert_axe_clean(pg, f"the table with a hint, at {width} px")
    screenshot(pg, f"table-hint-discard-{width}", full_page=False)
    pg.click("#lay-away:enabled")  # the hint taken
    # in the play: the one card marked is a card you may play now
    play_until(pg, lambda p: p.get_attribute("#my-hand", "data-mode") == "play")
    pg.click("#hint")
    pg.wait_for_selector('#hint-text:not([hidden])')
    hinted = pg.evaluate(HINTED_JS)
    answer = pg.evaluate("() => window.cribbageTable.answer")
    plays = {a["card"] for a in answer["legal_actions"] if a["seat"] == 0 and a["type"] == "play"}
    if plays:
        assert len(hinted) == 1 and hinted[0]["enabled"] and hinted[0]["card"] in plays, (hinted, plays)
    else:  # a go is the only move: its button is marked
        assert pg.get_attribute("#actions button[data-action=go]", "data-hint") == "true"
    assert all(s["seat"] == 0 and "seat_token" not in s for s in sent)
    closed(context, watch)


def test_a_sealed_hint_asks_with_your_own_seat_token_only(sealed_server, page):
    need_suggest(sealed_server, page)
    sent = hint_requests(page)
    start(page, sealed_server, seed=SEALED_SEED)
    play_until(page, lambda p: p.get_attribute("#my-hand", "data-mode") == "discard")
    page.click("#hint")
    page.wait_for_selector('#my-hand [data-hint="true"]')
    tokens = page.evaluate("() => window.cribbageTable.tokens")
    assert len(sent) == 1 and sent[0]["seat"] == 0 and sent[0]["seat_token"] == tokens[0]
    assert tokens[1] not in json.dumps(sent)
    assert page.locator('#my-hand [data-hint="true"]').count() == 2


def my_count_is_next(pg) -> bool:
    return pg.locator('#actions button[data-action="count"]').count() > 0


def test_a_61_point_game_without_muggins_or_skunks(server, page):
    need_suggest(server, page)
    start_with(page, server, target="61", muggins=False, skunk=False)
    wait_mine(page)
    assert page.evaluate("() => window.cribbageTable.answer.view.options.target") == 61
    options = page.text_content("#game-options")
    assert options.startswith("Game to 61") and "no muggins" in options and "no skunks" in options, options
    assert page.get_attribute("#game-options", "data-target") == "61"
    expect(page.locator("#board")).to_contain_text("61 game hole")
    expect(page.locator("#board")).not_to_contain_text("skunk line")
    play_until(page, lambda p: phase(p) == "show" and my_count_is_next(p))
    assert page.locator("#claim").count() == 0  # no muggins: nothing to claim
    assert page.text_content('#actions button[data-action="count"]').startswith("Count your")
    assert_axe_clean(page, "the show of a 61-point game, at 1280 px")


def test_muggins_asks_for_your_claim_and_gives_what_you_miss_away(server, page):
    need_suggest(server, page)
    start_with(page, server, muggins=True)
    wait_mine(page)
    assert page.evaluate("() => window.cribbageTable.answer.view.options.muggins") is True
    play_until(page, lambda p: phase(p) == "show" and my_count_is_next(p))
    expect(page.locator("#claim")).to_be_visible()
    expect(page.locator("#claim-count")).to_be_disabled()  # a claim first
    answer = page.evaluate("() => window.cribbageTable.answer")
    hand = answer["view"]["hands"][0]
    true = httpx.post(f"{server}/v1/hands/score", json={"cards": hand, "starter": answer["view"]["starter"]},
                      timeout=30).json()["total"]
    assert_axe_clean(page, "the muggins claim, at 1280 px")
    screenshot(page, "table-muggins-claim", full_page=False)
    # the hint claims the hand's true score (the service's count, asked above)
    page.click("#hint")
    expect(page.locator("#claim")).to_have_value(str(true))
    assert page.get_attribute("#claim-count", "data-hint") == "true"
    page.fill("#claim", "0")
    page.click("#claim-count:enabled")
    line = page.locator('#events li[data-type="count"]').filter(has_text="You count your hand")
    expect(line).to_have_count(1)
    if true:
        expect(line.locator(".pts")).to_contain_text(f"muggins {true} to Computer")
    else:
        expect(line.locator(".pts")).to_have_count(0)


def test_a_seed_the_sealed_service_refuses_is_explained(sealed_server, page):
    page.goto(f"{sealed_server}/play/table?delay=0")
    page.fill("#seed", "short")
    page.console_watch.expect(422)
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#error")).to_be_visible()
    text = page.text_content("#error")
    assert "at least 32 characters" in text and "leave it empty" in text, text
    assert "/options/seed" not in text
    expect(page.locator("#setup")).to_be_visible()
    assert page.evaluate("() => document.activeElement.id") == "seed"


ABOVE_FOLD_JS = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, height: r.height,
          fold: window.innerHeight, right: r.right, width: window.innerWidth}; }"""


def assert_above_fold(pg, where):
    for sel in ("#my-hand", "#actions", "#hint"):
        box = pg.evaluate(ABOVE_FOLD_JS, sel)
        assert box["height"] > 0 and box["top"] >= 0, (where, sel, box)
        assert box["bottom"] <= box["fold"], (where, sel, box)  # seen without scrolling
        assert box["right"] <= box["width"], (where, sel, box)


@pytest.mark.parametrize("width", [390, 1280])
def test_your_hand_and_moves_are_above_the_fold(server, browser, width):
    context, pg, watch = opened(browser, width)
    need_suggest(server, pg)
    start(pg, server)
    seen = []
    for _ in range(60):
        wait_mine(pg)
        mode = pg.get_attribute("#my-hand", "data-mode")
        at = "discard" if mode == "discard" else "play" if mode == "play" else "show" if my_count_is_next(pg) else None
        if at and at not in seen:
            seen.append(at)
            assert_above_fold(pg, at)
            pg.screenshot(path=f"/tmp/t28-fold-{width}-{at}.png")  # the screen as first seen
        if seen == ["discard", "play", "show"]:
            break
        assert my_move(pg)
    assert seen == ["discard", "play", "show"], seen
    closed(context, watch)
