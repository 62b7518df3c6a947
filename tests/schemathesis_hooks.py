"""schemathesis hooks, shared by pytest (imported from conftest) and the CLI
(``SCHEMATHESIS_HOOKS=tests/schemathesis_hooks.py``): positive bodies that are
legal *by construction*.

JSON Schema cannot say "no card twice, in any spelling", "this play follows
the rules", "this state is one a game reaches" or "this record replays", so a
body drawn from openapi.yaml alone is often schema-valid and still illegal
(a 422).  Nothing here asks the service or its rules core whether a body is
legal.  Instead, for every operation with such rules, each *positive*
generated body is replaced (``flatmap_case``) by one drawn from a strategy
below that can only make legal requests:

* ``/v1/hands/score``: five different cards off a shuffled pack (perhaps a
  claim, by a seat at the table);
* ``/v1/hands/score-batch``: such bodies, and items answered in place;
* ``/v1/matches/score``: finished games (one side at the target), no game
  after a best-of match is decided, the options as allowed together;
* ``/v1/tournaments/standings``: lines of a player against another;
* ``/v1/tournaments/bracket``: a number of entrants (an integer) or distinct names;
* ``/v1/pegging/score``: a legal sequence of plays for 2 to 4 players, made
  by a small model of the play written here from the rules (count never past
  31, clockwise turns, go only when no card fits -- or, under tournament
  rules, a renege after the lead -- the count restarting after 31 or when
  every seat holding cards has said go), with or without the hands, whole
  or stopped anywhere;
* ``/v1/pegging/go``: a hand and a count (or count cards, adding up to 30 at
  most) of different cards;
* ``/v1/games``: options, dealer, cuts for deal and view as openapi.yaml
  allows them together;
* ``/v1/games/advance`` and ``/v1/games/view``: a state of a real game (the
  rules core plays it: random legal actions from a new game, a client deck's
  cards dealt here) and, for advance, one of that state's legal actions;
* ``/v1/games/replay``: the record of a real game so far (its ``deal_record``
  events, then the actions of the deal in progress);
* ``/v1/games/review``: a finished game of random legal actions, its final state
  or (less often) its whole record, to 61;
* ``/v1/discards``: a deal of the size the player count takes and known
  cards that leave the other seats' cards unseen;
* ``/v1/pegging/advise``: a legal play so far and the seat to play next (or
  every hand, to solve);
* ``/v1/games/suggest``: a real game's state and the seat to act (past a
  client deck's deal or cut, which a bot cannot make);
* ``/v1/games/bots``: a real game's state (a client deck's too: a run stops
  at its deal or cut) and some of its seats as bots, each once, few actions
  (fewer for the costlier levels);
* ``/v1/odds``: a board position (a score per side, at most one at the
  target, a dealer at the table, five and two only with 2 players) or a real
  game's state and a seat at its table (few samples).

Cards in requests are spelt in any documented spelling (``10h``, ``T♡``,
``1s`` with blanks around).  Each built body is remembered, so
``filter_failure`` can tell a built body from one JSON Schema allowed:
``positive_data_acceptance`` (a legal body must be answered 2xx) is kept for
every built body, for bodies a stateful step took from an earlier answer
through an OpenAPI link (a real state and its listed legal action; but see
``legality_known`` on a client deck's deal), and for operations without such
rules.  It is dropped only for the positive bodies the examples and coverage
phases derive from the schema for the rule-bearing operations (pytest sends
those as explicit examples, which bypass case hooks): whether those are
legal is not known by construction, and every other check still runs on
them.  Negative generation is left alone.

A built body assumes a plain-mode service (no ``CRIBBAGE_STATE_SECRET``),
as the pytest run and the documented CLI run use.  Such a service takes no
body of the sealed-only operations (:data:`SEALED_ONLY`:
``/v1/games/contribute`` answers a plain game 422), so no positive body of
theirs is held to acceptance; every other check runs on them
(tests/http/test_verifiable_deals.py plays them sealed).
"""

from __future__ import annotations

import collections
import dataclasses
import random
from typing import Any

import orjson
import schemathesis
from hypothesis import strategies as st
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase
from schemathesis.openapi.checks import RejectedPositiveData

from service.core.cards import Card
from service.core.game import Count, Cut, Deal, GameState, apply_action, legal, new_game, notation
from service.boundary.state import state_to_json
from service.core.options import GameOptions

RANKS, SUITS = "A23456789TJQK", "CDHS"
NAMES = tuple(r + s for r in RANKS for s in SUITS)
"""The 52 cards, canonical spelling, in the order of a sorted pack."""
VALUE = {name: min(RANKS.index(name[0]) + 1, 10) for name in NAMES}

# Every spelling openapi.yaml's Card allows (the canonical one first, so that
# hypothesis shrinks towards it), and the blanks allowed around a card.
_RANK_SPELLINGS = {r: (r, r.lower(), "10") if r == "T" else (r, r.lower(), "1") if r == "A"
                   else (r, r.lower()) if r.isalpha() else (r,) for r in RANKS}
_SUIT_SPELLINGS = {"C": ("C", "c", "♣", "♧"), "D": ("D", "d", "♦", "♢"),
                   "H": ("H", "h", "♥", "♡"), "S": ("S", "s", "♠", "♤")}
_BLANKS = ("", " ", "\t", " \t ")


def spelled(name: str) -> st.SearchStrategy[str]:
    """Any documented spelling of the card ``name`` (canonical, e.g. ``TH``)."""
    return st.tuples(st.sampled_from(_BLANKS), st.sampled_from(_RANK_SPELLINGS[name[0]]),
                     st.sampled_from(_SUIT_SPELLINGS[name[1]]), st.sampled_from(_BLANKS)).map("".join)


def _spell_all(draw, names) -> list[str]:
    return [draw(spelled(n)) for n in names]


def _pack(draw) -> list[str]:
    return [NAMES[i] for i in draw(st.permutations(range(52)))]


def _rng(draw) -> random.Random:
    return random.Random(draw(st.integers(0, 2**32 - 1)))


def _maybe(draw, body: dict, key: str, value: Any) -> None:
    """Give ``key`` or leave it to its default (both are legal)."""
    if draw(st.booleans()):
        body[key] = value


# -- /v1/hands/score -----------------------------------------------------------


@st.composite
def hand_score_body(draw) -> dict:
    cards = _pack(draw)[:5]
    body = {"cards": _spell_all(draw, cards[:4]), "starter": draw(spelled(cards[4]))}
    _maybe(draw, body, "crib", draw(st.booleans()))
    if draw(st.booleans()):  # a claim to judge, by a seat at the table
        body["claim"] = draw(st.integers(0, 29))
        _maybe(draw, body, "muggins", draw(st.booleans()))
        players = draw(st.sampled_from([2, 3, 4]))
        _maybe(draw, body, "players", players)
        _maybe(draw, body, "seat", draw(st.integers(0, body.get("players", 2) - 1)))
        _maybe(draw, body, "tournament", draw(st.booleans()))
        if draw(st.booleans()):  # the sides' scores before the count, each below the target
            target = draw(st.sampled_from([121, 61]))
            _maybe(draw, body, "target", target)
            target = body.get("target", 121)
            players = body.get("players", 2)
            body["scores"] = [draw(st.integers(0, target - 1)) for _ in range(2 if players == 4 else players)]
    return body


# -- /v1/hands/score-batch: hands/score bodies, and items answered in place ----------

_BAD_ITEMS = (None, 3, "5H", [], {}, {"cards": ["5H", "5H", "5C", "5D"], "starter": "5S"},
              {"cards": ["XX", "5H", "5C", "5D"], "starter": "5S"}, {"starter": "5S"},
              {"cards": ["AH", "2H", "3H", "4H"], "starter": "5H", "claim": 30})


@st.composite
def hand_batch_body(draw) -> dict:
    """1 to 30 items: legal hands/score bodies and some that are answered in place (still a 200)."""
    items = draw(st.lists(st.one_of(hand_score_body(), hand_score_body(), st.sampled_from(_BAD_ITEMS)),
                          min_size=1, max_size=30))
    return {"items": items}


# -- /v1/pegging/score: a model of the play, from the rules ------------------------


def _next_seat(players: int, seat: int, able) -> int | None:
    """The first seat clockwise after ``seat`` (``seat`` itself last) for which ``able``."""
    for step in range(1, players + 1):
        s = (seat + step) % players
        if able(s):
            return s
    return None


def peg_sequence(rng: random.Random, players: int, pone: int, hands: list[list[str]],
                 tournament: bool, length: int) -> tuple[list[dict], bool]:
    """Up to ``length`` legal plays from the start of a hand; and whether the hand is over."""
    held = [list(h) for h in hands]
    count, passed, last, turn = 0, set(), None, pone
    plays: list[dict] = []
    while turn is not None and len(plays) < length:
        s = turn
        fits = [c for c in held[s] if count + VALUE[c] <= 31]
        # Under tournament rules a go while able stands (a renege); never at the lead.
        renege = tournament and count > 0 and fits and rng.random() < 0.15
        if fits and not renege:
            card = rng.choice(fits)
            held[s].remove(card)
            count += VALUE[card]
            last = s
            plays.append({"seat": s, "card": card})
            if count == 31:
                count, passed = 0, set()
                turn = _next_seat(players, s, lambda q: bool(held[q]))
                continue
        else:
            plays.append({"seat": s, "go": True})
            passed.add(s)
        turn = _next_seat(players, s, lambda q: bool(held[q]) and q not in passed)
        if turn is None:  # no seat holding cards can play on: the count is over
            count, passed = 0, set()
            turn = _next_seat(players, last, lambda q: bool(held[q]))
    return plays, turn is None


@st.composite
def pegging_score_body(draw) -> dict:
    players = draw(st.sampled_from([2, 3, 4]))
    pone = draw(st.integers(0, players - 1))
    pack = _pack(draw)
    hands = [pack[4 * s:4 * s + 4] for s in range(players)]
    tournament = draw(st.booleans())
    plays, over = peg_sequence(_rng(draw), players, pone, hands, tournament,
                               draw(st.integers(0, 4 * players + 12)))
    for entry in plays:
        if "card" in entry:
            entry["card"] = draw(spelled(entry["card"]))
        if draw(st.integers(0, 5)) == 0:  # a claim to judge: what the seat pegged for it
            entry["claim"] = draw(st.integers(0, 29))
    body: dict[str, Any] = {"players": players, "pone": pone, "plays": plays}
    _maybe(draw, body, "muggins", draw(st.booleans()))
    if draw(st.booleans()):
        body["hands"] = [_spell_all(draw, h) for h in hands]
    _maybe(draw, body, "complete", over and draw(st.booleans()))
    if tournament:
        body["tournament"] = True
    else:
        _maybe(draw, body, "tournament", False)
    return body


# -- /v1/pegging/go -------------------------------------------------------------------


@st.composite
def pegging_go_body(draw) -> dict:
    pack = _pack(draw)
    k = draw(st.integers(1, 4))
    body: dict[str, Any] = {"hand": _spell_all(draw, pack[:k])}
    if draw(st.booleans()):
        body["count"] = draw(st.integers(0, 30))
    else:
        wanted, count, cards = draw(st.integers(0, 16)), 0, []
        for name in pack[k:]:
            if len(cards) == wanted:
                break
            if count + VALUE[name] <= 30:
                cards.append(name)
                count += VALUE[name]
        body["count_cards"] = _spell_all(draw, cards)
    _maybe(draw, body, "tournament", draw(st.booleans()))
    return body


# -- games ---------------------------------------------------------------------------


@st.composite
def game_options(draw) -> dict:
    """Options as openapi.yaml allows them together (an absent one is its default)."""
    players = draw(st.sampled_from([2, 3, 4]))
    target = draw(st.sampled_from([61, 121]))
    deck = draw(st.sampled_from(["random", "seeded", "client"]))
    muggins = draw(st.booleans())
    choices: dict[str, Any] = {
        "players": players, "target": target, "deck": deck,
        "five_and_two": players == 2 and draw(st.booleans()),
        "seed": draw(st.text(min_size=1, max_size=200)) if deck == "seeded" else None,
        "ten_value_ties": draw(st.booleans()), "tournament": draw(st.booleans()),
        "muggins": muggins, "muggins_in_play": muggins and draw(st.booleans()),
        "skunk": draw(st.booleans()), "double_skunk_games": draw(st.sampled_from([3, 4])),
        "lurch": target == 121 and draw(st.booleans()),  # "121 game only"
        "loser_deals_first": draw(st.booleans()),
    }
    options = {}
    for key, value in choices.items():
        # A seed goes with a seeded deck; every other option may be left out.
        if (key == "seed" and deck == "seeded") or draw(st.booleans()):
            options[key] = value
    if deck == "seeded":
        options["deck"] = "seeded"
    if options.get("muggins_in_play"):
        options["muggins"] = True  # "needs muggins"
    return options


def _cut_for_deal(draw, options: dict) -> list[str]:
    """One card per seat whose lowest card is not tied (ranks, or with
    ``ten_value_ties`` values, as openapi.yaml says)."""
    n = options.get("players", 2)
    pack = _pack(draw)

    def key(name: str) -> int:
        return VALUE[name] if options.get("ten_value_ties") else RANKS.index(name[0])

    for i in range(0, 52 - n + 1, n):
        cuts = pack[i:i + n]
        low = min(key(c) for c in cuts)
        if sum(key(c) == low for c in cuts) == 1:
            return cuts
    return ["AC", "2C", "3C", "4C"][:n]


@st.composite
def start_game_body(draw) -> dict:
    options = draw(game_options())
    n = options.get("players", 2)
    body: dict[str, Any] = {}
    if options or draw(st.booleans()):
        body["options"] = options
    # With a client deck give the dealer or the cuts; otherwise either or neither.
    how = draw(st.sampled_from(["dealer", "cuts"] if options.get("deck") == "client" else ["dealer", "cuts", None]))
    if how == "dealer":
        body["dealer"] = draw(st.integers(0, n - 1))
    elif how == "cuts":
        body["cuts"] = _spell_all(draw, _cut_for_deal(draw, options))
    _maybe(draw, body, "view", draw(st.none() | st.integers(0, n - 1)))
    return body


def _shuffled(rng: random.Random) -> list[Card]:
    return [Card.parse(NAMES[i]) for i in rng.sample(range(52), 52)]


def _filled(state: GameState, action, pack: list[Card]):
    """A client deck's deal and cut carry the cards (dealt here, off ``pack``)."""
    o = state.options
    if o.deck != "client":
        return action
    if type(action) is Deal:
        k, n = o.cards_dealt, o.players
        hands = tuple(tuple(pack[s * k:(s + 1) * k]) for s in range(n))
        return Deal(action.seat, hands, tuple(pack[n * k:n * k + o.dealt_to_crib]))
    if type(action) is Cut:
        return Cut(action.seat, pack[o.players * o.cards_dealt + o.dealt_to_crib])
    return action


def _with_claim(rng: random.Random, state: GameState, action):
    """With muggins a count (and with muggins in the play a play or go) may carry a claim."""
    o = state.options
    kind = type(action).__name__
    if rng.random() < 0.5 and ((o.muggins and kind == "Count") or (o.muggins_in_play and kind in ("PlayCard", "Go"))):
        return dataclasses.replace(action, claim=rng.randint(0, 29))
    return action


class Game:
    """A real game played by random legal actions (the rules core keeps the score)."""

    def __init__(self, rng: random.Random, options: dict, dealer: int | None, cuts: list[str] | None):
        self.rng = rng
        self.options = options
        o = GameOptions(**options)
        # The game id and a random deck's seed come from ``rng`` (not the CSPRNG), so that
        # hypothesis can replay the draw.
        self.state, _ = new_game(o, dealer, [Card.parse(c) for c in cuts] if cuts else None,
                                 deck_seed=f"{rng.getrandbits(128):032x}" if o.deck == "random" else None,
                                 game_id=f"{rng.getrandbits(128):032x}")
        self.pack = _shuffled(rng)
        self.records: list[str] = []
        """The records of the deals folded into the state's history."""

    def next_action(self):
        action = self.rng.choice(legal(self.state))
        return _with_claim(self.rng, self.state, _filled(self.state, action, self.pack))

    def apply(self, action) -> None:
        self.state, events = apply_action(self.state, action)
        if self.state.phase == "over":
            return  # the last deal's actions stay in the state
        for e in events:
            if e.type == "deal_record":
                self.records.extend(e.record)
                self.pack = _shuffled(self.rng)


# Early positions and whole games alike: a 121 game of two takes about 150 actions.
_STEPS = st.integers(0, 60) | st.integers(0, 400) | st.integers(150, 600)


@st.composite
def real_game(draw, *, stop_before_the_end: bool) -> Game:
    """A game after a random number of random legal actions (not over, if asked)."""
    options = draw(game_options())
    n = options.get("players", 2)
    if options.get("deck") == "client" or draw(st.booleans()):
        dealer, cuts = (draw(st.integers(0, n - 1)), None) if draw(st.booleans()) else (None, _cut_for_deal(draw, options))
    else:
        dealer, cuts = None, None
    game = Game(_rng(draw), options, dealer, cuts)
    for _ in range(draw(_STEPS)):
        if game.state.phase == "over":
            break
        action = game.next_action()
        before = (game.state, list(game.records), game.pack)
        game.apply(action)
        if stop_before_the_end and game.state.phase == "over":
            game.state, game.records, game.pack = before
            break
    return game


def action_json(draw, game: Game, action) -> dict:
    """A core action in the request notation of ``advance``, cards in any spelling."""
    kind = {"Deal": "deal", "Discard": "discard", "Cut": "cut", "PlayCard": "play", "Go": "go",
            "Count": "count"}[type(action).__name__]
    out: dict[str, Any] = {"type": kind, "seat": action.seat}
    if kind == "deal" and action.hands is not None:
        out["hands"] = [_spell_all(draw, [str(c) for c in h]) for h in action.hands]
        if action.crib or draw(st.booleans()):
            out["crib"] = _spell_all(draw, [str(c) for c in action.crib])
    elif kind == "discard":
        out["cards"] = _spell_all(draw, [str(c) for c in action.cards])
    elif kind == "cut" and action.starter is not None:
        out["starter"] = draw(spelled(str(action.starter)))
    elif kind == "play":
        out["card"] = draw(spelled(str(action.card)))
    if getattr(action, "claim", None) is not None:
        out["claim"] = action.claim
    if kind == "count" and draw(st.booleans()):
        # What is counted: the show's counts are each seat's hand, then the crib.
        counts = sum(type(a) is Count for a in game.state.actions)
        out["what"] = "crib" if counts == game.state.options.players else "hand"
    return out


@st.composite
def advance_body(draw) -> dict:
    game = draw(real_game(stop_before_the_end=True))
    body: dict[str, Any] = {"state": state_to_json(game.state),
                            "action": action_json(draw, game, game.next_action())}
    _maybe(draw, body, "view", draw(st.none() | st.integers(0, game.state.options.players - 1)))
    return body


@st.composite
def view_body(draw) -> dict:
    game = draw(real_game(stop_before_the_end=False))
    body: dict[str, Any] = {"state": state_to_json(game.state)}
    _maybe(draw, body, "seat", draw(st.none() | st.integers(0, game.state.options.players - 1)))
    return body


@st.composite
def replay_body(draw) -> dict:
    game = draw(real_game(stop_before_the_end=False))
    s = game.state
    # The deals so far, then (or not) some of the deal in progress.
    actions = game.records + [notation(a) for a in s.actions[:draw(st.integers(0, len(s.actions)))]]
    record: dict[str, Any] = {"game_id": s.game_id, "first_dealer": s.first_dealer, "actions": actions}
    if game.options or draw(st.booleans()):
        record["options"] = game.options
    return {"record": record}


@st.composite
def review_body(draw) -> dict:
    """A finished game of random legal actions: mostly its final state (its last deal is
    reviewed), else the record of the whole game, to 61 to keep the review short."""
    whole = draw(st.integers(0, 3)) == 0
    options = draw(game_options())
    if whole:
        try:
            GameOptions(**{**options, "target": 61})
            options = {**options, "target": 61}
        except ValueError:
            options = {"target": 61}
    n = options.get("players", 2)
    dealer, cuts = (draw(st.integers(0, n - 1)), None) if draw(st.booleans()) else (None, _cut_for_deal(draw, options))
    game = Game(_rng(draw), options, dealer, cuts)
    while game.state.phase != "over":
        game.apply(game.next_action())
    s = game.state
    if not whole:
        return {"state": state_to_json(s)}
    record: dict[str, Any] = {"game_id": s.game_id, "first_dealer": s.first_dealer,
                              "actions": game.records + [notation(a) for a in s.actions]}
    if options or draw(st.booleans()):
        record["options"] = options
    return {"record": record}


# -- the advice operations --------------------------------------------------------


@st.composite
def discards_body(draw) -> dict:
    """A deal of the right size for the player count, known cards that leave the
    other seats' cards unseen (openapi.yaml, adviseDiscards), no card twice."""
    players = draw(st.sampled_from([2, 3, 4]))
    dealt = draw(st.sampled_from([5, 6])) if players == 2 else 5
    to_crib = 1 if players == 3 else 2 if players == 2 and dealt == 5 else 0
    room = 52 - dealt - ((players - 1) * dealt + to_crib + 1)
    pack = _pack(draw)
    k = draw(st.one_of(st.integers(0, min(room, 8)), st.just(room)))  # the documented maximum too
    body: dict[str, Any] = {"cards": _spell_all(draw, pack[:dealt]), "dealer": draw(st.booleans())}
    if players != 2 or draw(st.booleans()):
        body["players"] = players
    if k or draw(st.booleans()):
        body["known"] = _spell_all(draw, pack[dealt:dealt + k])
    if players == 4 and not body["dealer"]:
        _maybe(draw, body, "partner_deals", draw(st.booleans()))
    _maybe(draw, body, "model", draw(st.sampled_from(["tuned", "random"])))
    return body


@st.composite
def pegging_advise_body(draw) -> dict:
    """A legal play so far (the model above, no renege) and the seat whose turn
    it is next: the first seat of one play more of the same sequence."""
    players = draw(st.sampled_from([2, 3, 4]))
    pone = draw(st.integers(0, players - 1))
    pack = _pack(draw)
    hands = [pack[4 * s:4 * s + 4] for s in range(players)]
    seed = draw(st.integers(0, 2**32 - 1))
    length = draw(st.integers(0, 4 * players + 8))
    longer, _ = peg_sequence(random.Random(seed), players, pone, hands, False, length + 1)
    plays = longer[:length]
    seat = longer[len(plays)]["seat"] if len(longer) > len(plays) else None
    if seat is None:  # the hand ended: advise the lead instead
        plays, seat = [], pone
    for entry in plays:
        if "card" in entry:
            entry["card"] = draw(spelled(entry["card"]))
    body: dict[str, Any] = {"players": players, "pone": pone, "seat": seat,
                            "hand": _spell_all(draw, hands[seat]), "plays": plays}
    rest = pack[4 * players:]
    if draw(st.booleans()):
        body["starter"] = draw(spelled(rest[0]))
    if draw(st.booleans()):
        body["discards"] = _spell_all(draw, rest[1:1 + draw(st.integers(0, 2))])
    if draw(st.booleans()):
        body["solve"] = True
        body["hands"] = [_spell_all(draw, h) for h in hands]
    else:
        _maybe(draw, body, "samples", draw(st.integers(1, 3)))
        if players == 2 and len(body.get("discards", ())) != 1:  # a six-card deal: its throw can be read
            _maybe(draw, body, "opponent", draw(st.sampled_from(["uniform", "strong"])))
    _maybe(draw, body, "seed", draw(st.integers(0, 2**31 - 1)))
    _maybe(draw, body, "tournament", False)
    return body


@st.composite
def suggest_body(draw) -> dict:
    """A real game not over and the seat to act; a client deck's deal or cut
    (the table's cards, which a bot cannot supply) is played past."""
    game = draw(real_game(stop_before_the_end=True))
    for _ in range(3):
        if game.state.options.deck != "client" or game.state.phase not in ("deal", "cut"):
            break
        before = (game.state, list(game.records), game.pack)
        game.apply(game.next_action())
        if game.state.phase == "over":
            game.state, game.records, game.pack = before
            break
    state = game.state
    if state.options.deck == "client" and state.phase in ("deal", "cut"):
        state, _ = new_game(GameOptions(), dealer=0)
    body: dict[str, Any] = {"state": state_to_json(state), "seat": state.to_act()[0]}
    _maybe(draw, body, "level", draw(st.sampled_from(["greedy", "strong", "board"])))
    return body


@st.composite
def bots_body(draw) -> dict:
    """A real game's state and 1 to 4 of its seats (each once) as bots, a few actions."""
    game = draw(real_game(stop_before_the_end=draw(st.booleans())))
    n = game.state.options.players
    seats = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    levels = [draw(st.sampled_from(["greedy", "greedy", "strong", "board"])) for _ in seats]
    bots = []
    for seat, level in zip(seats, levels):
        entry: dict[str, Any] = {"seat": seat}
        if level != "strong" or draw(st.booleans()):
            entry["level"] = level
        bots.append(entry)
    most = 8 if set(levels) == {"greedy"} else 2
    body: dict[str, Any] = {"state": state_to_json(game.state), "bots": bots}
    _maybe(draw, body, "max_actions", draw(st.integers(1, most)))
    if "max_actions" not in body and most < 8:
        body["max_actions"] = most
    _maybe(draw, body, "stop_at_deal_end", draw(st.booleans()))
    return body


@st.composite
def odds_body(draw) -> dict:
    """A board position that fits its table, or a real game's state and a seat at its table."""
    if draw(st.booleans()):
        game = draw(real_game(stop_before_the_end=False))
        players = game.state.options.players
        body: dict[str, Any] = {"state": state_to_json(game.state), "seat": draw(st.integers(0, players - 1)),
                                "samples": draw(st.integers(1, 3))}
        _maybe(draw, body, "seed", draw(st.integers(0, 2**31 - 1)))
        return body
    players = draw(st.sampled_from([2, 3, 4]))
    target = draw(st.sampled_from([121, 61]))
    sides = 3 if players == 3 else 2
    scores = [draw(st.integers(0, target - 1)) for _ in range(sides)]
    if draw(st.booleans()):
        scores[draw(st.integers(0, sides - 1))] = draw(st.integers(target, 200))
    body = {"players": players, "target": target, "scores": scores, "dealer": draw(st.integers(0, players - 1))}
    if players == 2:
        _maybe(draw, body, "five_and_two", draw(st.booleans()))
    return body


# -- /v1/matches/score, /v1/tournaments/standings ---------------------------------------


@st.composite
def match_body(draw) -> dict:
    """Finished games (one side at the target or past it), the options together as
    allowed, and no game after a best-of match is decided."""
    body: dict[str, Any] = {}
    target = draw(st.sampled_from([121, 61]))
    _maybe(draw, body, "target", target)
    target = body.get("target", 121)
    sides = draw(st.sampled_from([2, 3]))
    best_of = draw(st.sampled_from([None, 1, 3, 5, 7]))
    if best_of is not None:
        body["best_of"] = best_of
    games, wins = [], [0] * sides
    for _ in range(draw(st.integers(1, 7))):
        winner = draw(st.integers(0, sides - 1))
        scores = [draw(st.integers(0, target - 1)) for _ in range(sides)]
        scores[winner] = draw(st.integers(target, 150))
        games.append({"scores": scores})
        wins[winner] += 1
        if best_of is not None and wins[winner] == best_of // 2 + 1:
            break
    body["games"] = games
    for key in ("win_points", "skunk_points", "double_skunk_points", "lurch_points"):
        _maybe(draw, body, key, draw(st.integers(0, 10)))
    if target == 121:
        line = draw(st.sampled_from([None, "double_skunk", "lurch"]))
        if line:
            body[line] = True
    _maybe(draw, body, "grass_roots", draw(st.booleans()))
    _maybe(draw, body, "first_dealer", draw(st.integers(0, sides - 1)))
    _maybe(draw, body, "loser_deals_first", draw(st.booleans()))
    return body


@st.composite
def standings_body(draw) -> dict:
    """Result lines, each a player against another (never himself): games played and
    forfeits (``kind: forfeit``, only ``games_won``), and maybe a ``forfeit_spread``."""
    names = draw(st.lists(st.text(min_size=1, max_size=12), min_size=2, max_size=8, unique=True))
    lines = []
    for _ in range(draw(st.integers(0, 40))):
        player, opponent = draw(st.permutations(names))[:2]
        if draw(st.integers(0, 9)) == 0:
            line = {"player": player, "opponent": opponent, "kind": "forfeit", "games_won": draw(st.integers(0, 1))}
        else:
            line = {"player": player, "opponent": opponent, "game_points": draw(st.sampled_from([0, 2, 3, 4])),
                    "games_won": draw(st.integers(0, 1)), "spread": draw(st.integers(-150, 150))}
            _maybe(draw, line, "kind", "played")
        _maybe(draw, line, "round", draw(st.integers(1, 1000)))
        lines.append(line)
    body: dict[str, Any] = {"results": lines}
    _maybe(draw, body, "forfeit_spread", draw(st.integers(0, 150)))
    return body


@st.composite
def bracket_body(draw) -> dict:
    """A number of entrants (a JSON integer: schema-valid 2.0 is refused, as everywhere),
    or their names, each once."""
    if draw(st.booleans()):
        return {"entrants": draw(st.integers(1, 4096))}
    return {"names": draw(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=64, unique=True))}


LEGAL: dict[str, st.SearchStrategy[dict]] = {
    "/v1/hands/score": hand_score_body(),
    "/v1/pegging/score": pegging_score_body(),
    "/v1/pegging/go": pegging_go_body(),
    "/v1/games": start_game_body(),
    "/v1/games/advance": advance_body(),
    "/v1/games/view": view_body(),
    "/v1/games/replay": replay_body(),
    "/v1/games/review": review_body(),
    "/v1/discards": discards_body(),
    "/v1/pegging/advise": pegging_advise_body(),
    "/v1/games/suggest": suggest_body(),
    "/v1/games/bots": bots_body(),
    "/v1/odds": odds_body(),
    "/v1/hands/score-batch": hand_batch_body(),
    "/v1/matches/score": match_body(),
    "/v1/tournaments/standings": standings_body(),
    "/v1/tournaments/bracket": bracket_body(),
}
"""Per operation with rules JSON Schema cannot express: a strategy of bodies legal by construction."""

BUILT: dict[str, set[bytes]] = collections.defaultdict(set)
"""Every body built legal by construction, per path (as canonical JSON)."""


def _key(body: Any) -> bytes | None:
    try:
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # a negative body orjson cannot write (an integer past 64 bits ...) was not built
        return None


def _built(path: str, body: dict) -> dict:
    BUILT[path].add(_key(body))
    return body


def is_built(case) -> bool:
    """Whether ``case`` sends a body built legal by construction (unchanged since)."""
    return case.path in LEGAL and isinstance(case.body, dict) and _key(case.body) in BUILT[case.path]


def _bare_client_deal(body: Any) -> bool:
    """A client deck's deal or cut as ``legal_actions`` lists it, without its cards."""
    if not isinstance(body, dict) or not isinstance(body.get("state"), dict) or not isinstance(body.get("action"), dict):
        return False
    options, action = body["state"].get("options") or {}, body["action"]
    return options.get("deck") == "client" and (
        (action.get("type") == "deal" and "hands" not in action)
        or (action.get("type") == "cut" and "starter" not in action))


SEALED_ONLY = frozenset({"/v1/games/contribute"})
"""Operations a plain-mode service answers 422 whatever the body (they need a sealed game)."""


def legality_known(case) -> bool:
    """Whether a positive ``case`` must be accepted: no rules beyond the schema,
    a body built legal here, or one a stateful step took from an earlier answer
    (its state and a listed legal action)."""
    meta = case.meta
    if case.path in SEALED_ONLY:
        return False
    if case.path not in LEGAL or meta is None or is_built(case):
        return True
    linked = meta.phase.name == TestPhase.STATEFUL and ParameterLocation.BODY not in meta.components
    # A client deck's deal or cut is listed without its cards (openapi.yaml,
    # LegalAction) and the service refuses it without them (422
    # cards_required), although openapi.yaml also says every listed legal
    # action can be sent back as is: test_schemathesis.py's
    # test_a_listed_client_deck_deal_is_accepted_as_listed fails on that
    # contradiction, once, instead of the stateful phase at random.
    return linked and not _bare_client_deal(case.body)


@schemathesis.hook
def flatmap_case(context, case):
    """Replace each generated positive body of a rule-bearing operation by a legal one."""
    meta = case.meta
    strategy = LEGAL.get(case.path)
    if (strategy is None or meta is None or not meta.generation.mode.is_positive
            or ParameterLocation.BODY not in meta.components):
        return st.just(case)

    def put(body: dict):
        case.body = _built(case.path, body)
        return case

    return strategy.map(put)


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    """Keep every failure, except "positive data accepted" for a body whose legality is not known."""
    return not isinstance(failure, RejectedPositiveData) or legality_known(case)
