"""Deals anyone can verify: a committed sealed game checked from docs/deals.md alone.

The verifier below is written from the page's text ("Recomputing every pack"), with hashlib and
struct only: nothing of the service's deck, cards or kernel is imported.  It verifies whole games
played over HTTP (the commitment kept from the first answer, the seats' contributions, the
server seed revealed at the end) and catches packs that differ from the commitment; the service's
own check in POST /v1/games/replay is held to the same cases.
"""

from __future__ import annotations

import hashlib
import random
import struct

import falcon.testing
import pytest
from conftest import fields, problem

from service.app import create_app
from service.seal import Sealer

SECRET = "a test secret for committed deals, 32+ characters"
RANKS, SUITS = "A23456789TJQK", "CDHS"


# -- the procedure of docs/deals.md, step by step ------------------------------------


def doc_commitment(game_id: str, server_seed: str) -> str:
    return hashlib.sha256(b"cribbage/deck-commitment/v1" + b"\x00" + game_id.encode() + b"\x00"
                          + server_seed.encode()).hexdigest()


def doc_deck_seed(game_id: str, server_seed: str, contributions: list) -> str:
    data = b"cribbage/deck-seed/v1" + b"\x00" + game_id.encode() + b"\x00" + server_seed.encode()
    for c in contributions:
        data += b"\x00" + (c.encode() if c is not None else b"")
    return hashlib.sha256(data).hexdigest()[:32]


def doc_pack(deck_seed: str, deal: int) -> list[str]:
    out = hashlib.shake_256(("cribbage/deck/" + deck_seed + "/" + str(deal)).encode()).digest(208)
    keys = [struct.unpack(">I", out[4 * i:4 * i + 4])[0] for i in range(52)]
    order = sorted(range(52), key=lambda c: (keys[c], c))
    return [RANKS[c // 4] + SUITS[c % 4] for c in order]


def doc_deal(pack: list[str], players: int, dealer: int, five_and_two: bool):
    k = 6 if players == 2 and not five_and_two else 5
    m = 2 if five_and_two else 1 if players == 3 else 0
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * k):
        hands[(dealer + 1 + i) % players].append(pack[i])
    return hands, pack[players * k:players * k + m], pack[players * k + m]


def split_cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def verify(record: dict, kept_commitment: str) -> str | None:
    """None if every deal of ``record`` is what its committed packs deal; else what differs."""
    deck, options = record["deck"], record["options"]
    players, five_and_two = options.get("players", 2), options.get("five_and_two", False)
    if doc_commitment(record["game_id"], deck["server_seed"]) != kept_commitment:
        return "the server seed does not open the commitment"
    seed = doc_deck_seed(record["game_id"], deck["server_seed"], deck["contributions"])
    deal, starter = 0, None
    for line in record["actions"]:
        words = line.split()
        if words[0] == "deal":
            deal += 1
            dealer = int(words[1])
            assert dealer == (record["first_dealer"] + deal - 1) % players
            hands, crib, starter = doc_deal(doc_pack(seed, deal), players, dealer, five_and_two)
            seats, _, crib_text = words[2].partition("/")
            given = [sorted(split_cards(h)) for h in seats.split(".")]
            if given != [sorted(h) for h in hands] or sorted(split_cards(crib_text)) != sorted(crib):
                return f"deal {deal}'s cards"
        elif words[0] == "cut" and words[2] != starter:
            return f"deal {deal}'s starter"
    return None


# -- games played over HTTP -------------------------------------------------------------


def app(sealer: Sealer | None = Sealer(SECRET), writes: int = 3) -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=sealer, collect_metrics=False, state_cache=0,
                                                state_format_writes=writes))


def committed_game(c: falcon.testing.TestClient, options: dict, rng: random.Random,
                   contributing: list[int] | None = None) -> dict:
    r = c.simulate_post("/v1/games", json={"options": options})
    assert r.status_code == 201, r.text
    start = r.json
    tokens = start["seat_tokens"]
    deck = start["deck"]
    assert deck["server_seed"] is None and deck["contributions"] == [None] * len(tokens)
    body, mine = start, {}
    for seat in range(len(tokens)) if contributing is None else contributing:
        mine[seat] = "%064x" % rng.getrandbits(256)
        r = c.simulate_post("/v1/games/contribute", json={"state": body["state"], "seat_token": tokens[seat],
                                                          "contribution": mine[seat]})
        assert r.status_code == 200, r.text
        body = r.json
        assert body["deck"]["commitment"] == deck["commitment"] and body["deck"]["contributions"][seat] == mine[seat]
        assert body["seq"] == 0 and body["events"] == []
    while body["phase"] != "over":
        seat = body["to_act"][0]
        v = c.simulate_post("/v1/games/view", json={"state": body["state"], "seat_token": tokens[seat]}).json
        assert v["deck"]["server_seed"] is None  # revealed only at the end
        r = c.simulate_post("/v1/games/advance", json={"state": body["state"], "action": v["legal_actions"][0],
                                                        "seat_token": tokens[seat]})
        assert r.status_code == 200, r.text
        body = r.json
    return {"start": start, "last": body, "tokens": tokens, "mine": mine}


@pytest.fixture(scope="module")
def sealed() -> falcon.testing.TestClient:
    return app()


@pytest.fixture(scope="module")
def game(sealed) -> dict:
    return committed_game(sealed, {}, random.Random(7))


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 4}, {"five_and_two": True, "target": 61}],
                         ids=["2", "3", "4", "five-and-two"])
def test_a_whole_committed_game_verifies_from_the_documentation(sealed, options):
    g = committed_game(sealed, options, random.Random(len(options)))
    record = g["last"]["record"]
    kept = g["start"]["deck"]["commitment"]
    assert record["deck"] == g["last"]["deck"] and record["deck"]["server_seed"] is not None
    for seat, mine in g["mine"].items():  # each seat finds its own contribution
        assert record["deck"]["contributions"][seat] == mine
    assert verify(record, kept) is None
    assert sealed.simulate_post("/v1/games/replay", json={"record": record}).status_code == 200


def test_the_cut_for_deal_is_pack_0_of_the_seed_without_contributions(game):
    start, deck = game["start"], game["last"]["deck"]
    n = len(game["tokens"])
    pack = doc_pack(doc_deck_seed(start["game_id"], deck["server_seed"], [None] * n), 0)
    cuts = [e["cards"] for e in start["events"] if e["type"] == "cut_for_deal"]
    assert cuts and cuts == [pack[n * j:n * j + n] for j in range(len(cuts))]


def test_seats_that_give_nothing_and_some_that_do(sealed):
    g = committed_game(sealed, {"target": 61}, random.Random(3), contributing=[1])
    record = g["last"]["record"]
    assert record["deck"]["contributions"][0] is None and record["deck"]["contributions"][1] == g["mine"][1]
    assert verify(record, g["start"]["deck"]["commitment"]) is None


def _unsealed(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "seal"}


def _swap_in_deal(record: dict, deal: int) -> tuple[dict, int]:
    """The record with deal ``deal``'s pack changed: two seats' first cards swapped (the same cards
    dealt, to other seats), and the index of that deal's line."""
    actions = list(record["actions"])
    index = [i for i, line in enumerate(actions) if line.startswith("deal ")][deal - 1]
    word, cards = actions[index].rsplit(" ", 1)
    seats, _, crib = cards.partition("/")
    hands = seats.split(".")
    hands[0], hands[1] = hands[1][:2] + hands[0][2:], hands[0][:2] + hands[1][2:]
    actions[index] = f"{word} {'.'.join(hands)}/{crib}"
    return {**_unsealed(record), "actions": actions}, index


def test_a_pack_changed_after_the_commitment_is_caught(sealed, game):
    record, kept = game["last"]["record"], game["start"]["deck"]["commitment"]
    changed, index = _swap_in_deal(record, 3)
    assert verify(changed, kept) == "deal 3's cards"
    b = problem(sealed.simulate_post("/v1/games/replay", json={"record": changed}), 422)
    assert fields(b) == [f"/record/actions/{index}"] and "deal 3" in b["detail"], b
    b = problem(sealed.simulate_post("/v1/games/review", json={"record": changed}), 422)
    assert fields(b) == [f"/record/actions/{index}"], b
    # sealed, the same change is an altered record
    b = problem(sealed.simulate_post("/v1/games/replay", json={"record": {**changed, "seal": record["seal"]}}), 422)
    assert fields(b) == ["/record/seal"]


def test_other_packs_under_another_seed_are_caught(sealed, game):
    """A platform that dealt from another seed and reveals it, with a commitment to match: the
    seats' kept commitment catches it, and so does the first deal against the record's own."""
    record, kept = game["last"]["record"], game["start"]["deck"]["commitment"]
    other = "0" * 32
    forged = {**_unsealed(record), "deck": {**record["deck"], "server_seed": other}}
    assert verify(forged, kept) == "the server seed does not open the commitment"
    b = problem(sealed.simulate_post("/v1/games/replay", json={"record": forged}), 422)
    assert fields(b) == ["/record/deck/server_seed"], b
    forged["deck"]["commitment"] = doc_commitment(record["game_id"], other)
    assert verify(forged, forged["deck"]["commitment"]) == "deal 1's cards"
    b = problem(sealed.simulate_post("/v1/games/replay", json={"record": forged}), 422)
    assert fields(b) == ["/record/actions/0"] and "deal 1" in b["detail"], b
    dropped = {**_unsealed(record), "deck": {**record["deck"], "contributions": [None] * 2}}
    assert verify(dropped, kept) == "deal 1's cards"


def test_a_starter_not_the_pack_s_is_caught(game):
    record = game["last"]["record"]
    actions = list(record["actions"])
    i = next(i for i, line in enumerate(actions) if line.startswith("cut "))
    words = actions[i].split()
    words[2] = next(r + s for r in RANKS for s in SUITS if r + s != words[2] and r + s not in actions[0])
    actions[i] = " ".join(words)
    assert verify({**record, "actions": actions}, game["start"]["deck"]["commitment"]) == "deal 1's starter"


def test_contributions_are_refused_when_they_cannot_count(sealed, game):
    start, tokens = game["start"], game["tokens"]
    x = "ab" * 32
    r = sealed.simulate_post("/v1/games/contribute", json={"state": start["state"], "seat_token": tokens[0],
                                                           "contribution": x})
    assert r.status_code == 200
    again = {"state": r.json["state"], "seat_token": tokens[0], "contribution": x}
    assert fields(problem(sealed.simulate_post("/v1/games/contribute", json=again), 422)) == ["/contribution"]
    late = {"state": game["last"]["state"], "seat_token": tokens[1], "contribution": x}
    b = problem(sealed.simulate_post("/v1/games/contribute", json=late), 422)
    assert "close at the first deal" in b["detail"]
    problem(sealed.simulate_post("/v1/games/contribute", json={"state": start["state"], "contribution": x}), 403)
    other = app().simulate_post("/v1/games", json={}).json["seat_tokens"][0]
    problem(sealed.simulate_post("/v1/games/contribute", json={"state": start["state"], "contribution": x,
                                                               "seat_token": other}), 403)
    for bad in ("AB" * 32, "ab" * 31, 5):
        b = problem(sealed.simulate_post("/v1/games/contribute", json={"state": start["state"], "contribution": bad,
                                                                       "seat_token": tokens[0]}), 422)
        assert fields(b) == ["/contribution"], b


def test_games_that_are_not_committed_take_no_contributions():
    x = "cd" * 32
    seeded = app().simulate_post("/v1/games", json={"options": {"deck": "seeded", "seed": "s" * 32}}).json
    assert "deck" not in seeded
    old = app(writes=2).simulate_post("/v1/games", json={}).json
    assert "deck" not in old
    for c, body in ((app(), seeded), (app(writes=2), old)):
        b = problem(c.simulate_post("/v1/games/contribute", json={"state": body["state"], "contribution": x,
                                                                  "seat_token": body["seat_tokens"][0]}), 422)
        assert fields(b) == ["/contribution"] and "takes no contributions" in b["detail"], b
    plain = app(None)
    state = plain.simulate_post("/v1/games", json={}).json["state"]
    b = problem(plain.simulate_post("/v1/games/contribute", json={"state": state, "contribution": x}), 422)
    assert fields(b) == ["/contribution"] and "sealed games" in b["detail"]


def test_a_rotated_secret_still_reveals_the_seed_it_committed_to(game):
    rotated = app(Sealer("the next secret of this deployment, 32+", previous=SECRET))
    tokens = game["tokens"]
    r = rotated.simulate_post("/v1/games/view", json={"state": game["last"]["state"], "seat_token": tokens[0]})
    assert r.status_code == 200 and r.json["deck"] == game["last"]["deck"]
