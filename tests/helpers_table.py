"""Helpers of the table's browser tests (tests/web/test_pages_table*.py): start a seeded game
against the computer on the page, make the first legal move it offers, play until a
position, read the phase and the pegs the page shows."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from pages_browser import has_operation

SEED = "pages-test"  # with my_move's choices and the greedy bot, the game ends during a count


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


def phase(pg) -> str:
    return pg.evaluate("() => window.cribbageTable.answer.phase")


SEALED_SEED = "pages-test-sealed-seed-of-32-chars"  # a sealed game's seed is a secret: 32 characters at least


def play_until(pg, done, limit=60):
    """My moves until ``done(pg)`` holds when the page waits for me."""
    for _ in range(limit):
        pg.wait_for_selector('#game[data-waiting="you"], #game[data-waiting="over"]')
        if done(pg):
            return
        assert my_move(pg)
    pytest.fail("the game never got there")
