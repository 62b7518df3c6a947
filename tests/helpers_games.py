"""Helpers of the game API's tests over HTTP (tests/http/test_http_games*.py, test_http_bots.py,
tests/system/test_e2e_game.py, which plays over a real gunicorn): the operations and the documented keys,
checks of every answer (:func:`check_game_response`, :func:`check_event`, :func:`check_result`,
:func:`check_view_cards`), which cards a seat may not see (:func:`hidden_cards`, the rules
stated independently of service.core.game.observe), whole games played through any
``post(url, body) -> (status, json)`` (:func:`play_game`, :func:`play_sealed_game`; an
in-process one: :func:`client_post`), and the seeded pack written out from its documentation
(:func:`shake_deal`).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import struct
from typing import Any, Callable

import falcon.testing
import pytest

from service.boundary.state import state_from_json

START = "/v1/games"
ADVANCE = "/v1/games/advance"
VIEW = "/v1/games/view"
REPLAY = "/v1/games/replay"

PHASES = ("deal", "discard", "cut", "play", "show", "over")
GAME_KEYS = {"state", "game_id", "seq", "deal", "phase", "to_act", "view", "events", "legal_actions",
             "seat_tokens"}
VIEW_KEYS = {"seat", "game_id", "seq", "deal", "phase", "dealer", "pone", "first_dealer", "to_act", "scores",
             "hands", "crib", "starter", "play", "shown", "next_count", "result", "win_probability", "options"}
PLAY_KEYS = {"turn", "count", "count_cards", "passed", "last_player", "played"}
STATE_KEYS = {"version", "game_id", "seq", "options", "first_dealer", "deal", "dealer", "pegs", "deck_seed",
              "history", "actions"}
REPLAY_KEYS = {"game_id", "seq", "deals", "scores_after_deal", "history", "phase", "result", "final"}
EVENT_KEYS = {"type", "deal", "seat", "card", "cards", "count", "what", "reset", "scores", "points", "record"}
EVENT_TYPES = {"cut_for_deal", "deal", "discard", "starter", "play", "go", "count", "game_over", "deal_record"}
SCORE_KEYS = {"seat", "side", "kind", "points", "cards"}
ACTION_KEYS = {"deal": {"hands", "crib"}, "discard": {"cards"}, "cut": set(), "play": {"card"}, "go": set(),
               "count": {"what"}}
TOKEN_RE = re.compile(r"v2\.([0-9a-f]{8})\.([0-9a-f]{32})\.(0|[1-9][0-9]{0,8})\.([A-Za-z0-9_-]+)")
SEAT_TOKEN_RE = re.compile(r"st\.([0-3])\.[A-Za-z0-9_-]{22}")
CARD_RE = re.compile(r"[A2-9TJQK][CDHS]")
ALL_CARDS = {r + s for r in "A23456789TJQK" for s in "CDHS"}

MAX_STATE_BYTES = 2048   # a plain state, compact JSON
MAX_TOKEN_CHARS = 1024   # a sealed state token (strictly under)

Post = Callable[[str, dict], "tuple[int, Any]"]


# --- checking answers ------------------------------------------------------------------


def compact_size(state: dict) -> int:
    return len(json.dumps(state, separators=(",", ":")).encode())


def token_header(token: str) -> tuple[str, str, int]:
    """(key id, game id, seq) from a v2 state token, checking its spelling."""
    m = TOKEN_RE.fullmatch(token)
    assert m, token
    return m.group(1), m.group(2), int(m.group(3))


def check_event(event: dict, players: int) -> None:
    assert set(event) <= EVENT_KEYS, event
    assert event["type"] in EVENT_TYPES, event
    assert isinstance(event["deal"], int)
    if event["type"] == "play":
        # One card per play, as a string (not a list).
        assert isinstance(event["card"], str) and event["card"] in ALL_CARDS, event
        assert "cards" not in event
    else:
        assert "card" not in event, event
    if event["type"] == "go":
        assert "cards" not in event, event
    if event["type"] == "count":
        assert event["what"] in ("hand", "crib"), event
    if "scores" in event:
        # a set back (ACC 8.4.b, a false claim of game) takes its points off
        assert event["points"] == sum(-s["points"] if s["kind"] == "set_back" else s["points"]
                                      for s in event["scores"]), event
        for s in event["scores"]:
            assert set(s) <= SCORE_KEYS and {"seat", "side", "kind", "points"} <= set(s), s
            assert s["points"] > 0, event
            assert s["side"] == (s["seat"] % 2 if players == 4 else s["seat"]), s
            if s["kind"] == "renege":
                # A renege names no cards: the cards that could have been played are hidden ones.
                assert "cards" not in s, event
                assert s["points"] % 2 == 0, s
    if event["type"] == "deal_record":
        assert isinstance(event["record"], list) and all(isinstance(r, str) for r in event["record"])


def assert_record_is_public(events: list[dict], record: dict) -> None:
    """A deal's record arrives in the answer that counted its crib, or that ended the game, never
    earlier: it names every seat's cards (the rules make them public only then)."""
    kinds = [(e["type"], e.get("what"), e["deal"]) for e in events]
    assert ("count", "crib", record["deal"]) in kinds or ("game_over", None, record["deal"]) in kinds, kinds


def check_game_response(body: dict, *, sealed: bool, seat: int | None = None, key_id: str | None = None,
                        tokens: bool = False) -> None:
    """Every answer of /v1/games, /advance and /view has exactly the documented shape.

    ``seat``: whose answer it is (sealed: the seat token's seat, None for a
    spectator; plain: the seat named, None for everything); ``tokens``: the
    answer carries seat tokens."""
    assert set(body) - {"record", "deal_records", "deck"} == GAME_KEYS, sorted(body)
    assert "record" not in body or (sealed and body["phase"] == "over"), sorted(body)
    phase = body["phase"]
    assert phase in PHASES
    assert isinstance(body["to_act"], list) and isinstance(body["events"], list)
    assert isinstance(body["legal_actions"], list)
    assert isinstance(body["game_id"], str) and re.fullmatch(r"[0-9a-f]{32}", body["game_id"])
    view = body["view"]
    assert set(view) == VIEW_KEYS, sorted(view)
    for key in ("game_id", "seq", "deal", "phase", "to_act"):
        assert view[key] == body[key], key
    assert view["seat"] == seat
    assert "seed" not in view["options"]  # a seed gives the pack away
    players = len(view["hands"])
    assert players in (2, 3, 4) and view["options"].get("players", 2) == players
    assert len(view["scores"]) == (2 if players == 4 else players)
    if view["play"] is not None:
        assert set(view["play"]) == PLAY_KEYS
    assert view["next_count"] == (("crib" if view["shown"] == players else "hand") if phase == "show" else None)
    if sealed:
        token = body["state"]
        assert isinstance(token, str)
        kid, game_id, seq = token_header(token)
        assert (game_id, seq) == (body["game_id"], body["seq"])
        if key_id is not None:
            assert kid == key_id
        if tokens:  # a sealed start (and a sealed v1 state's first answer) gives one token a seat
            issued = body["seat_tokens"]
            assert isinstance(issued, list) and len(issued) == players
            assert [int(SEAT_TOKEN_RE.fullmatch(t).group(1)) for t in issued] == list(range(players))
        else:
            assert body["seat_tokens"] is None
        for e in body["events"]:
            if e["type"] == "deal_record":  # never before the deal's cards are all public
                assert_record_is_public(body["events"], e)
    else:
        state = body["state"]
        assert isinstance(state, dict)
        assert set(state) == STATE_KEYS, sorted(state)
        assert state["version"] == 2
        for key in ("game_id", "seq", "deal"):
            assert state[key] == body[key], key
        assert (state["dealer"], state["first_dealer"]) == (view["dealer"], view["first_dealer"])
        assert body["seat_tokens"] is None
    for e in body["events"]:
        check_event(e, players)
    for a in body["legal_actions"]:
        assert a["type"] in ACTION_KEYS and isinstance(a["seat"], int), a
        assert set(a) - {"type", "seat"} <= ACTION_KEYS[a["type"]], a
        if a["type"] == "count":
            assert a["what"] == view["next_count"], (a, view["next_count"])
    if phase == "over":
        assert body["to_act"] == [] and body["legal_actions"] == []
        assert view["result"] is not None
    else:
        assert body["to_act"]
        assert view["result"] is None
    seats = {a["seat"] for a in body["legal_actions"]}
    if sealed and seat is None:
        assert body["legal_actions"] == []  # a spectator has none
    elif sealed:
        # Only the seat's own actions: during the discard others' would spell out their hands.
        assert seats <= {seat}, body["legal_actions"]
        assert (seat in seats) == (seat in body["to_act"]), (seat, body["to_act"])
    elif seat is None and phase != "over":
        assert seats == set(body["to_act"])
    elif seat is not None:
        # Plain with a seat named: whether the legal actions are all or the seat's is
        # test_plain_answer_with_a_view_still_carries_everything's question.
        assert (seat in seats) == (seat in body["to_act"]), (seat, body["to_act"])


def hidden_cards(state: Any, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not see in ``state`` (a core
    GameState): the rules stated independently of service.core.game.observe.
    Visible: every card played, the starter, one's own hand and discards, each
    hand and the crib once counted; at game over every hand and the crib."""
    pos = state.position
    pack = set(map(str, pos.cards)) if pos.cards is not None else set()
    table = {str(c) for h in pos.hands for c in h} | {str(c) for c in pos.crib}
    if pos.phase == "over":
        return pack - table - ({str(pos.starter)} if pos.starter is not None else set())
    seen: set[str] = set()
    if pos.play is not None:
        seen |= {str(c) for c in pos.play.played}
    if pos.starter is not None:
        seen.add(str(pos.starter))
    if seat is not None:
        seen |= {str(c) for c in pos.hands[seat]} | {str(c) for c in pos.discards[seat]}
    if pos.phase == "show":
        n = pos.options.players
        order = [(pos.dealer + 1 + i) % n for i in range(n)]
        for i in range(pos.shown):
            seen |= {str(c) for c in (pos.crib if i == n else pos.hands[order[i]])}
    return (pack | table) - seen


def check_view_cards(view: dict, state: Any, seat: int | None) -> None:
    """Each card of the view is the true card, or None exactly when ``seat`` may not see it."""
    pos = state.position
    hidden = hidden_cards(state, seat)
    truth = [[str(c) for c in h] for h in pos.hands]
    assert [len(h) for h in view["hands"]] == [len(h) for h in truth]
    for t, (shown, real) in enumerate(zip(view["hands"], truth)):
        assert shown == [None if c in hidden else c for c in real], (seat, t, shown, real)
    crib = [str(c) for c in pos.crib]
    assert view["crib"] == [None if c in hidden else c for c in crib], (seat, view["crib"], crib)
    if seat is not None and pos.phase not in ("deal", "over"):
        assert None not in view["hands"][seat]


def cards_in(data: Any, skip: frozenset[str] = frozenset({"state", "seat_tokens", "request_id", "instance"})) -> set[str]:
    """Every card spelling anywhere in a JSON answer (its strings), except under ``skip`` keys."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in skip:
                out |= cards_in(v, skip)
    elif isinstance(data, list):
        for v in data:
            out |= cards_in(v, skip)
    elif isinstance(data, str):
        out |= set(CARD_RE.findall(data))
    return out


def public_events(body: dict) -> dict:
    """The answer without the events that speak of another pack (cut for deal: deal 0;
    the events of a deal that just ended, whose cards were all counted in the show)."""
    return {**body, "events": [e for e in body["events"]
                               if e["type"] != "cut_for_deal" and e["deal"] == body["deal"]]}


def open_plain(state: dict) -> Any:
    return state_from_json(state)


def open_sealed(sealer: Any, token: str) -> Any:
    """The oracle: the whole state behind a token (the test knows the secret; no client does)."""
    opened = sealer.unseal(token)
    return state_from_json(opened.state)


# --- playing whole games ------------------------------------------------------------------


class Tally:
    """Points pegged per side from the events, checked against the view's front pegs."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.pegged = [0] * (2 if players == 4 else players)

    def add(self, body: dict) -> None:
        for event in body["events"]:
            for s in event.get("scores", ()):
                self.pegged[s["side"]] += -s["points"] if s["kind"] == "set_back" else s["points"]
        front = [p["front"] for p in body["view"]["scores"]]
        assert front == self.pegged, (front, self.pegged)


def maybe_claim(action: dict, options: dict, rng: random.Random) -> dict:
    """Under muggins, sometimes claim fewer points than made (the opponent pegs the rest)."""
    kind = action["type"]
    if (kind == "count" and options.get("muggins")) or (kind in ("play", "go") and options.get("muggins_in_play")):
        if rng.random() < 0.3:
            return {**action, "claim": rng.randrange(0, 6)}
    return action


def check_result(body: dict) -> None:
    view = body["view"]
    result = view["result"]
    assert body["phase"] == "over" and result is not None
    target = view["options"].get("target", 121)
    sides = len(view["scores"])
    front = [p["front"] for p in view["scores"]]
    winner = result["winner"]
    assert front[winner] >= target
    assert all(f < target for side, f in enumerate(front) if side != winner)
    assert sorted(e["side"] for e in result["losers"]) == [s for s in range(sides) if s != winner]
    for entry in result["losers"]:
        assert entry["score"] == front[entry["side"]]
        assert entry["games"] >= 1
    assert result["next_first_dealer"] in range(len(view["hands"]))
    assert body["events"][-1]["type"] in ("game_over", "deal_record")
    assert "game_over" in [e["type"] for e in body["events"]]
    # At game over every hand and the crib are on the table.
    assert all(None not in h for h in view["hands"]) and None not in view["crib"]


def play_game(post: Post, start: dict, rng: random.Random, *, max_steps: int = 3000) -> dict:
    """Play a plain game from ``start`` to the end with random legal actions,
    checking every answer.  Returns ``{"last", "records", "scores_at_deal", "max_size"}``:
    the last answer, each deal's ``deal_record``, the front pegs as each deal began."""
    status, body = post(START, start)
    assert status == 201, body
    check_game_response(body, sealed=False)
    assert body["seq"] == 0 and body["deal"] == 1 and body["phase"] == "deal"
    options = body["state"]["options"]
    players = len(body["view"]["hands"])
    tally = Tally(players)
    game_id = body["game_id"]
    records: list[list[str]] = []
    scores_at_deal = [[0] * len(tally.pegged)]
    max_size = compact_size(body["state"])
    for _ in range(max_steps):
        if body["phase"] == "over":
            break
        action = maybe_claim(rng.choice(body["legal_actions"]), options, rng)
        status, nxt = post(ADVANCE, {"state": body["state"], "action": action})
        assert status == 200, (action, nxt)
        check_game_response(nxt, sealed=False)
        assert nxt["game_id"] == game_id and nxt["seq"] == body["seq"] + 1
        size = compact_size(nxt["state"])
        assert size <= MAX_STATE_BYTES, (size, nxt["state"])
        max_size = max(max_size, size)
        tally.add(nxt)
        deal_records = [e for e in nxt["events"] if e["type"] == "deal_record"]
        if deal_records:
            (rec,) = deal_records
            # The deal's record is the deal's actions so far and the one that ended it.
            assert rec["record"][:-1] == body["state"]["actions"], rec
            assert rec["deal"] == body["deal"]
            records.append(rec["record"])
            if nxt["phase"] != "over":
                assert nxt["deal"] == body["deal"] + 1 and nxt["state"]["actions"] == []
                scores_at_deal.append([f for f, _ in nxt["state"]["pegs"]])
        else:
            assert nxt["deal"] == body["deal"]
            assert nxt["state"]["actions"][:-1] == body["state"]["actions"]
        body = nxt
    else:
        pytest.fail(f"no winner after {max_steps} actions")
    check_result(body)
    return {"last": body, "records": records, "scores_at_deal": scores_at_deal, "max_size": max_size}


def play_sealed_game(post: Post, start: dict, rng: random.Random, sealer: Any, *,
                     max_steps: int = 3000, cross_check: bool = False,
                     until: Callable[[dict], bool] | None = None) -> dict:
    """A sealed game: the seat to act (a random one while discarding) asks its
    view with its own seat token, picks from its own legal actions and advances
    with its token.  ``sealer`` is the test's oracle (it opens each token to
    check that no answer shows a card the seat may not see).  ``cross_check``:
    at every step every other seat's token, acting for this seat, is refused (403).
    Returns ``{"last", "tokens", "max_size"}``."""
    status, body = post(START, start)
    assert status == 201, body
    check_game_response(body, sealed=True, seat=None, key_id=sealer.key_id, tokens=True)
    tokens = body["seat_tokens"]
    players = len(tokens)
    options = open_sealed(sealer, body["state"]).options
    claims = {"muggins": options.muggins, "muggins_in_play": options.muggins_in_play}
    check_view_cards(body["view"], open_sealed(sealer, body["state"]), None)
    tally = Tally(players)
    max_size = len(body["state"])
    for _ in range(max_steps):
        if body["phase"] == "over" or (until is not None and until(body)):
            break
        assert len(body["state"]) < MAX_TOKEN_CHARS, len(body["state"])
        seat = rng.choice(body["to_act"])
        status, mine = post(VIEW, {"state": body["state"], "seat_token": tokens[seat]})
        assert status == 200, mine
        check_game_response(mine, sealed=True, seat=seat, key_id=sealer.key_id)
        assert (mine["game_id"], mine["seq"], mine["events"]) == (body["game_id"], body["seq"], [])
        truth = open_sealed(sealer, body["state"])
        check_view_cards(mine["view"], truth, seat)
        assert not cards_in(mine) & hidden_cards(truth, seat)
        action = maybe_claim(rng.choice(mine["legal_actions"]), claims, rng)
        if cross_check:
            for other in range(players):
                if other != seat:
                    status, refused = post(ADVANCE, {"state": body["state"], "action": action,
                                                     "seat_token": tokens[other]})
                    assert status == 403, refused
                    assert refused["type"].endswith("/seat-forbidden"), refused
        status, nxt = post(ADVANCE, {"state": body["state"], "action": action, "seat_token": tokens[seat]})
        assert status == 200, (action, nxt)
        check_game_response(nxt, sealed=True, seat=seat, key_id=sealer.key_id)
        assert nxt["game_id"] == body["game_id"] and nxt["seq"] == body["seq"] + 1
        truth = open_sealed(sealer, nxt["state"])
        check_view_cards(nxt["view"], truth, seat)
        assert not cards_in(public_events(nxt)) & hidden_cards(truth, seat)
        for e in nxt["events"]:
            if e["type"] == "discard" and e["seat"] != seat:
                assert e["cards"] == [None] * len(e["cards"]), e
        tally.add(nxt)
        max_size = max(max_size, len(nxt["state"]))
        body = nxt
    else:
        pytest.fail(f"no winner after {max_steps} actions")
    if until is None:
        check_result(body)
    assert len(body["state"]) < MAX_TOKEN_CHARS
    return {"last": body, "tokens": tokens, "max_size": max_size}


# --- in-process clients --------------------------------------------------------------


def client_post(client: falcon.testing.TestClient) -> Post:
    def post(url: str, body: dict) -> tuple[int, Any]:
        r = client.simulate_post(url, json=body)
        return r.status_code, r.json
    return post


# --- the seeded pack, written out -----------------------------------------------------


def shake_pack(deck_seed: str, deal: int) -> list[str]:
    """The pack of a deal as deck.py's docstring documents it, with hashlib alone:
    the 52 cards (rank-major, suits C D H S) sorted by 52 big-endian 32-bit
    SHAKE-256 keys of ``cribbage/deck/<deck seed>/<deal>``."""
    keys = struct.unpack(">52I", hashlib.shake_256(f"cribbage/deck/{deck_seed}/{deal}".encode()).digest(208))
    names = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    return [names[i] for _, i in sorted(zip(keys, range(52)))]


def shake_deal(deck_seed: str, deal: int, players: int, dealer: int, each: int,
               to_crib: int = 0) -> tuple[list[list[str]], list[str]]:
    """The hands and the crib dealt off :func:`shake_pack` as documented: one card
    at a time from the left of the dealer, then the crib's."""
    cards = shake_pack(deck_seed, deal)
    dealt: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * each):
        dealt[(dealer + 1 + i) % players].append(cards[i])
    return dealt, cards[players * each:players * each + to_crib]
