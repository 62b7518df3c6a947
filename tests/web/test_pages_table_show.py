"""The table's card faces, its show and its chance of winning, in a real browser against a
real gunicorn.

Card faces: each of the 52 is an SVG face (checked by parsing the drawing: the pips a
card of its rank carries, red or black by suit) that the browser decoded, named in
words for a screen reader.  The show: each hand and the crib of a deal, in the order
counted, lists exactly the combinations ``POST /v1/hands/score`` answers for those
cards (asked here, apart from the page).  The chance of winning: the figure the
service's view gives, shown and charted deal by deal."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import unquote

import httpx
import pytest
from playwright.sync_api import expect
from pages_browser import assert_axe_clean, browser, page, screenshot, server  # noqa: F401
from helpers_table import need_suggest, phase, play_until, start

pytestmark = pytest.mark.slow

SVG = "{http://www.w3.org/2000/svg}"
RANK_WORDS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
CODES = [r + s for s in "SHDC" for r in "A23456789TJQK"]
FACES_JS = """async () => {
  const m = await import('/play/static/cards.js');
  const host = document.getElementById('main');
  host.replaceChildren(...m.DECK.map((c) => m.cardEl(c)), m.cardEl('JS', 'button'), m.backEl());
  const imgs = [...host.querySelectorAll('img')];
  await Promise.all(imgs.map((i) => i.decode()));
  return [...host.children].map((c) => ({
    card: c.dataset.card, tag: c.tagName, role: c.getAttribute('role'), name: c.getAttribute('aria-label'),
    title: c.title, text: c.textContent,
    faces: [...c.querySelectorAll('img.face')].map((i) => ({kind: i.className, src: i.src, alt: i.alt,
      decoded: i.naturalWidth > 0, shown: i.getBoundingClientRect().width > 0})),
  }));
}"""


def name_of(code: str) -> str:
    return f"{RANK_WORDS.get(code[0], code[0])} of {SUIT_WORDS[code[1]]}"


def pips_expected(code: str) -> int:
    """Suit symbols on a full face: two in the corner indices, and the middle's: one on an
    ace, as many as the rank on a number card, three on a court card (one large, two small)."""
    rank = code[0]
    middle = 1 if rank == "A" else 3 if rank in "JQK" else 10 if rank == "T" else int(rank)
    return 2 + middle


def drawing(src: str) -> ET.Element:
    head, _, data = src.partition(",")
    assert head == "data:image/svg+xml", head
    return ET.fromstring(unquote(data))


def test_every_card_is_an_svg_face_with_its_name(server, page):
    page.goto(f"{server}/play/table")
    cards = page.evaluate(FACES_JS)
    assert [c["card"] for c in cards[:52]] == CODES
    for c in cards[:52]:
        code = c["card"]
        assert (c["role"], c["name"], c["text"]) == ("img", name_of(code), ""), c
        full, compact = c["faces"]
        assert full["kind"] == "face full" and compact["kind"] == "face compact"
        assert full["decoded"] and compact["decoded"] and full["alt"] == compact["alt"] == "", c
        assert full["shown"] and not compact["shown"], c  # a card of full size shows its full face
        svg = drawing(full["src"])
        ink = "#b3261e" if code[1] in "HD" else "#111"
        assert svg.get("fill") == ink, (code, svg.get("fill"))
        assert len(svg.findall(f".//{SVG}path")) == pips_expected(code), code
        shown_rank = "10" if code[0] == "T" else code[0]
        texts = [t.text for t in svg.iter(f"{SVG}text")]
        assert texts == [shown_rank] * (3 if code[0] in "JQK" else 2), (code, texts)
        small = drawing(compact["src"])  # a large rank over one large suit symbol
        assert [t.text for t in small.iter(f"{SVG}text")] == [shown_rank] and len(small.findall(f".//{SVG}path")) == 1
    button, back = cards[52], cards[53]
    assert (button["tag"], button["name"], button["title"]) == ("BUTTON", "J of spades", "jack of spades")
    assert (back["role"], back["name"]) == ("img", "a hidden card") and back["faces"][0]["decoded"]
    # what a screen reader is given: each card once by its name
    for code in ("AS", "TH", "QD", "7C"):
        expect(page.get_by_role("img", name=name_of(code), exact=True)).to_have_count(1)
    screenshot(page, "cards-all-faces")


TABLE_FACES_JS = """() => [...document.querySelectorAll('#game .card')].filter((c) => !c.classList.contains('back'))
  .map((c) => ({card: c.dataset.card, tag: c.tagName, name: c.getAttribute('aria-label'),
    drawn: [...c.querySelectorAll('img.face')].some((i) => i.naturalWidth > 0 && i.getBoundingClientRect().width > 0)}))"""


def assert_table_faces(pg) -> int:
    """Every face-up card on the table is drawn and named for the card it is; how many."""
    faces = pg.evaluate(TABLE_FACES_JS)
    for f in faces:
        assert f["drawn"], f
        if f["tag"] == "BUTTON":  # a control: named as shown ("J of spades"), perhaps "Play the ..."
            shown = ("10" if f["card"][0] == "T" else f["card"][0]) + f" of {SUIT_WORDS[f['card'][1]]}"
            assert f["name"] in (shown, f"Play the {shown}"), f
        else:
            assert f["name"] in (name_of(f["card"]), name_of(f["card"]) + ", played"), f
    return len(faces)


SHOW_JS = """() => [...document.querySelectorAll('#show .count-box')].map((box) => ({
  seat: Number(box.dataset.seat), what: box.dataset.what, total: box.dataset.total, head: box.querySelector('h3').textContent,
  hand: [...box.querySelectorAll('.show-hand .card')].map((c) => c.dataset.card),
  rows: [...box.querySelectorAll('tr.combo')].map((r) => [r.dataset.kind, r.dataset.cards.split(',').sort().join(','),
    Number(r.querySelector('td.num').textContent)]),
}))"""
COUNTS_JS = """(deal) => [...document.querySelectorAll('#events li[data-type="count"]')].map((li) =>
  [...li.querySelectorAll('.card')].map((c) => c.dataset.card))"""


def test_the_show_lays_out_the_combinations_the_service_counted(server, page):
    need_suggest(server, page)
    start(page, server)
    # the first deal's show is over once the second deal's discards are asked for
    play_until(page, lambda pg: pg.locator('#events li[data-type="deal"]').count() >= 2 and phase(pg) == "discard")
    expect(page.locator("#show")).to_have_attribute("data-deal", "1")
    page.wait_for_function("() => [...document.querySelectorAll('#show .count-box')].every((b) => b.dataset.total)")
    boxes = page.evaluate(SHOW_JS)
    logged = page.evaluate(COUNTS_JS)
    assert [b["hand"][:4] for b in boxes] == logged  # both hands and the crib, in the order counted
    assert [b["what"] for b in boxes] == ["hand", "hand", "crib"]
    starter = boxes[0]["hand"][4]
    for b in boxes:
        assert len(b["hand"]) == 5 and b["hand"][4] == starter
        want = httpx.post(f"{server}/v1/hands/score", json={"cards": b["hand"][:4], "starter": starter,
                                                           "crib": b["what"] == "crib"}, timeout=30).json()
        assert b["rows"] == [[i["kind"], ",".join(sorted(i["cards"])), i["points"]] for i in want["breakdown"]], b
        assert b["total"] == str(want["total"]) and f": {want['total']} point" in b["head"], b
    assert boxes[2]["seat"] == boxes[1]["seat"]  # the dealer counts the hand, then the crib
    assert assert_table_faces(page) >= 6 + 5 * 3
    assert_axe_clean(page, "the table with the show laid out, at 1280 px")
    screenshot(page, "table-show-laid-out")


def service_chance(server) -> bool:
    view = httpx.post(f"{server}/v1/games", json={"options": {"players": 2}}, timeout=30).json()["view"]
    return "win_probability" in view


def test_the_chance_of_winning_is_shown_and_updates_after_a_deal(server, page):
    if not service_chance(server):
        pytest.skip("this service's game views carry no win_probability yet")
    need_suggest(server, page)
    start(page, server)
    page.wait_for_selector('#game[data-waiting="you"]')
    seen = []
    for deal in (1, 2, 3):
        play_until(page, lambda pg: pg.evaluate("() => window.cribbageTable.answer.deal") == deal and phase(pg) == "discard")
        state = page.evaluate("() => window.cribbageTable.answer.state")
        view = httpx.post(f"{server}/v1/games/view", json={"state": state}, timeout=30).json()["view"]
        mine = view["win_probability"][0]
        seen.append(mine)
        expect(page.locator("#chance")).to_be_visible()
        assert page.text_content("#chance-now") == f"{round(mine * 100)}%"
        assert f"deal {deal}" in page.text_content("#chance-when")
        dots = page.locator("#chance-chart circle.dot")
        assert [float(x) for x in dots.evaluate_all("els => els.map((e) => e.dataset.p)")] == pytest.approx(seen)
        assert "Your chance of winning" in page.text_content("#chance-chart svg title")
    assert_axe_clean(page, "the table with the chance of winning, at 1280 px")
    screenshot(page, "table-chance")
