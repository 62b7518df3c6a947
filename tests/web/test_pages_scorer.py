"""The scorer in a real browser (Chromium via Playwright) against a real gunicorn.

The expectations are the rule texts' own: the 29 hand (docs/rules.md) and the
17-point hand worked in the seed rule text (4D 5C 5H JS, starter 6S: its
table of eight combinations), not the service's answers.  Six clicks on the
grid are a six-card hand (the starter is chosen explicitly); on a phone every
column of the count and of the advisor is in view; axe-core finds nothing.
"""

from __future__ import annotations

import collections

import pytest
from playwright.sync_api import expect
from pages_browser import (DESKTOP, PHONE, assert_axe_clean, assert_in_view_across, assert_labelled,  # noqa: F401
                           axe_source, browser, has_operation, new_page, page, phone, screenshot, server)

pytestmark = pytest.mark.slow

SEVENTEEN = {  # the seed text's table, combination by combination
    ("fifteen", frozenset({"5C", "JS"})), ("fifteen", frozenset({"5H", "JS"})),
    ("fifteen", frozenset({"4D", "5C", "6S"})), ("fifteen", frozenset({"4D", "5H", "6S"})),
    ("pair", frozenset({"5C", "5H"})),
    ("run", frozenset({"4D", "5C", "6S"})), ("run", frozenset({"4D", "5H", "6S"})),
    ("nobs", frozenset({"JS"})),
}


def click_cards(pg, hand, starter, by="radio"):
    """Four cards for the hand from the grid, then the starter, chosen explicitly: with the
    "Next card to" switch or the empty starter slot."""
    for code in hand:
        pg.click(f'#grid button[data-card="{code}"]')
    assert pg.is_checked('input[name="target"][value="hand"]')  # nothing guessed for the user
    if by == "radio":
        pg.check('input[name="target"][value="starter"]')
    else:
        pg.click("#starter-slot #choose-starter")
        assert pg.is_checked('input[name="target"][value="starter"]')
    pg.click(f'#grid button[data-card="{starter}"]')
    assert pg.is_checked('input[name="target"][value="hand"]')  # the starter chosen: back to the hand


def combinations(pg):
    """(kind, highlighted cards) of each row, and every row's cards as the page lists them."""
    rows = []
    for row in pg.locator("#combos tr.combo").all():
        on = frozenset(row.locator(".card.on").evaluate_all("els => els.map(e => e.dataset.card)"))
        assert on == frozenset(row.get_attribute("data-cards").split(","))
        assert row.locator(".card").count() == 5  # the four and the starter, the others dimmed
        rows.append((row.get_attribute("data-kind"), on))
    return rows


def test_the_29_hand_by_clicking_and_the_url_round_trip(server, page, browser):
    page.goto(f"{server}/play/scorer")
    click_cards(page, ["5H", "5C", "5S", "JD"], "5D")
    page.wait_for_selector("#result:not([hidden])")
    assert page.text_content("#total") == "29"
    rows = combinations(page)
    assert collections.Counter(k for k, _ in rows) == {"fifteen": 8, "pair": 6, "nobs": 1}
    fives = ["5C", "5D", "5H", "5S"]
    assert {c for k, c in rows if k == "fifteen" and len(c) == 2} == {frozenset({f, "JD"}) for f in fives}
    assert len({c for k, c in rows if k == "fifteen" and len(c) == 3}) == 4
    assert {c for k, c in rows if k == "pair"} == {frozenset({a, b}) for a in fives for b in fives if a < b}
    assert ("nobs", frozenset({"JD"})) in rows
    call = page.text_content("#call")
    assert call.startswith("\u201cfifteen two, fifteen four, fifteen six, fifteen eight,")
    assert call.endswith("and his nobs is twenty-nine\u201d")
    assert page.text_content('#subtotals tr[data-kind="pair"] td') == "12"
    # chosen cards cannot be chosen again
    for code in ["5H", "5C", "5S", "JD", "5D"]:
        assert page.is_disabled(f'#grid button[data-card="{code}"]')
    assert page.is_enabled('#grid button[data-card="JH"]')
    assert_labelled(page)
    url = page.url
    assert url.endswith("/play/scorer?hand=5H,5C,5S,JD&starter=5D&crib=0")
    screenshot(page, "scorer-desktop")
    # the URL alone brings the analysis back, in another browser context, on a phone
    context, phone, watch = new_page(browser, PHONE)
    phone.goto(url)
    phone.wait_for_selector("#result:not([hidden])")
    assert phone.text_content("#total") == "29"
    assert len(combinations(phone)) == 15
    screenshot(phone, "scorer-phone")
    context.close()
    assert not watch.errors, watch.errors


def test_the_seed_texts_17_hand_and_the_crib_switch(server, page):
    page.goto(f"{server}/play/scorer")
    click_cards(page, ["4D", "5C", "5H", "JS"], "6S", by="slot")
    expect(page.locator("#total")).to_have_text("17")
    assert set(combinations(page)) == SEVENTEEN and len(combinations(page)) == 8
    call = page.text_content("#call")
    assert call.startswith("\u201cfifteen two, fifteen four")
    assert call.endswith("and his nobs is seventeen\u201d")
    # a starter of another suit: no nobs (the jack must match it), 16
    page.click('#starter-slot button.card')  # remove the starter
    page.click('#grid button[data-card="6H"]')
    expect(page.locator("#total")).to_have_text("16")
    # the crib switch is sent and kept in the URL
    page.check("#crib")
    page.wait_for_url("**crib=1")
    expect(page.locator("#total")).to_have_text("16")


def test_typed_spellings_and_the_services_refusal(server, page):
    page.goto(f"{server}/play/scorer")
    page.fill("#hand-text", "5h 5c 5\u2660 jd")
    page.fill("#starter-text", "5d")
    page.click("#typed button[type=submit]")
    expect(page.locator("#total")).to_have_text("29")
    assert page.input_value("#hand-text") == "5H 5C 5S JD"  # the service's canonical spelling
    page.console_watch.expect(422)
    page.fill("#starter-text", "5H")
    page.click("#typed button[type=submit]")
    page.wait_for_selector("#error:not([hidden])")
    assert "/starter" in page.text_content("#error") and "twice" in page.text_content("#error")
    assert page.is_hidden("#result")


def test_the_discard_advisor(server, page):
    if not has_operation(server, "/v1/discards"):
        pytest.skip("this service has no POST /v1/discards yet: the advisor's test runs once it does")
    page.goto(f"{server}/play/scorer?hand=5H,5C,5S,JD,KH,QC&crib=0&players=2&dealer=1")
    page.wait_for_selector("#advice:not([hidden]) #throws tbody tr")
    rows = page.locator("#throws tbody tr")
    assert rows.count() == 15  # every pair of the six
    first = rows.first.get_attribute("data-discard").split(",")
    assert len(first) == 2
    nets = [float(t) for t in page.locator("#throws tbody tr td.net").all_text_contents()]
    assert nets == sorted(nets, reverse=True)  # best first
    screenshot(page, "scorer-advisor-desktop")


def test_the_grid_by_keyboard(server, page):
    page.goto(f"{server}/play/scorer")
    page.focus('#grid button[data-card="4D"]')
    page.keyboard.press("Enter")
    # the chosen card is disabled: focus goes on to the next free card (5D), not to the page
    assert page.evaluate("() => document.activeElement.dataset.card") == "5D"
    for code in ["5C", "5H", "JS"]:
        page.focus(f'#grid button[data-card="{code}"]')
        page.keyboard.press("Space")
    page.focus('input[name="target"][value="hand"]')
    page.keyboard.press("ArrowRight")  # the radio group: the next card to the starter
    assert page.is_checked('input[name="target"][value="starter"]')
    page.focus('#grid button[data-card="6S"]')
    page.keyboard.press("Space")
    expect(page.locator("#total")).to_have_text("17")
    assert page.get_attribute("#result", "aria-live") == "polite"


def test_the_index_links_every_tool(server, page, browser):
    page.goto(f"{server}/")
    assert_axe_clean(page, "the index at 1280 px")
    links = page.locator("main a.panel")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        "/play/scorer", "/play/scorekeeper", "/play/table"]
    assert_labelled(page)
    screenshot(page, "index-desktop")
    with page.expect_navigation(url="**/play/scorer"):
        links.first.click()
    page.wait_for_load_state()
    assert page.get_attribute('header a[aria-current="page"]', "href") == "/play/scorer"
    context, phone, watch = new_page(browser, PHONE)
    phone.goto(f"{server}/")
    assert_axe_clean(phone, "the index at 390 px")
    screenshot(phone, "index-phone")
    context.close()
    assert not watch.errors, watch.errors


def test_six_clicks_are_a_six_card_hand_for_the_advisor(server, page):
    """The lead text invites five or six cards for the advisor: six clicks on the grid
    are six cards in the hand, two to lay away, two players (not four cards, a starter
    and a fifth card: 5-card, 3-player advice)."""
    if not has_operation(server, "/v1/discards"):
        pytest.skip("this service has no POST /v1/discards yet")
    asked = []
    page.on("request", lambda r: asked.append(r.post_data_json) if r.url.endswith("/v1/discards") else None)
    page.goto(f"{server}/play/scorer")
    six = ["5H", "5C", "5S", "JD", "KH", "QC"]
    for code in six:
        page.click(f'#grid button[data-card="{code}"]')
    rows = page.locator("#throws tbody tr")
    expect(rows).to_have_count(15)  # C(6, 2) throws
    for row in rows.all():
        assert len(row.get_attribute("data-discard").split(",")) == 2
        assert row.locator("td").nth(1).locator(".card").count() == 4  # four kept
    assert asked[-1]["cards"] == six and asked[-1]["players"] == 2
    assert page.locator("#hand-slots .card").count() == 6
    assert page.locator("#starter-slot .card").count() == 0 and page.is_visible("#choose-starter")
    assert page.input_value("#players") == "2"
    assert "hand=5H,5C,5S,JD,KH,QC&" in page.url and "starter" not in page.url
    assert page.is_disabled('#grid button[data-card="2D"]')  # six is a full hand
    # five clicks are a five-card hand (three players), again with no starter
    page.click('#hand-slots button[data-card="QC"]')
    expect(rows).to_have_count(5)
    assert asked[-1]["cards"] == six[:5] and asked[-1]["players"] == 3


WIDE = [  # the widest rows: four tens (a double pair royal) and throws of tens
    ("/play/scorer?hand=TH,TC,TS,TD&starter=QD&crib=0", "#result", "#combos td.num"),
    ("/play/scorer?hand=TH,TC,QS,JD,KH,TD&crib=0&players=2&dealer=1", "#advice", "#throws td.net"),
    ("/play/scorer?hand=TH,5C,QS,JD,KH&crib=0&dealer=1", "#advice", "#throws td.net"),
]


def test_points_and_net_columns_in_view_on_a_phone(server, phone):
    """At 390 px the count's Points and the advisor's Net (what the throws are ranked by)
    are whole on the screen: no cell cut off, no sideways-scrolling box."""
    if not has_operation(server, "/v1/discards"):
        pytest.skip("this service has no POST /v1/discards yet")
    for url, section, key in WIDE:
        phone.goto(server + url)
        phone.wait_for_selector(f"{section}:not([hidden]) tbody tr td")
        table = phone.locator(f"{section} table").first
        header = table.locator("th").last
        assert header.text_content().strip() in ("Points", "Net")
        assert_in_view_across(phone, f"{section} table th:last-child")
        assert_in_view_across(phone, key)
        assert_in_view_across(phone, f"{section} table .card")
        # each cell's cards on one line: a row reads across, as on a desktop
        tops = table.locator("tbody .cards").evaluate_all(
            "els => els.map(e => new Set([...e.children].map(c => Math.round(c.getBoundingClientRect().top))).size)")
        assert set(tops) == {1}, url
    screenshot(phone, "scorer-advisor-phone")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_axe_finds_nothing_on_the_scorer(server, browser, viewport):
    axe_source()  # skips without axe-core (npm), as the browser fixture does without Chromium
    context, pg, watch = new_page(browser, viewport)
    pg.goto(f"{server}/play/scorer")
    assert_axe_clean(pg, "the empty scorer")
    pg.goto(f"{server}/play/scorer?hand=TH,5C,5S,JD&starter=5D&crib=0")
    pg.wait_for_selector("#result:not([hidden]) tr.combo")
    assert_axe_clean(pg, "a count (cards out of each combination shown)")
    if has_operation(server, "/v1/discards"):
        pg.goto(f"{server}/play/scorer?hand=TH,TC,QS,JD,KH,TD&crib=0&players=2&dealer=1")
        pg.wait_for_selector("#advice:not([hidden]) #throws tbody tr")
        assert_axe_clean(pg, "the advisor's table")
    context.close()
    assert not watch.errors, watch.errors
