"""The game state as JSON (format version 2): round trips, and every forgery rejected.

A v2 state is where the deal began plus the deal's actions in the record
notation; ``from_json`` replays them, so a derived fact is never read and a
forged one cannot get in.  Whatever it is handed, it either returns a state
that plays on or raises :class:`MalformedError` naming the field -- never
anything else.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Callable, Iterator

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.core.cards import CARDS
from service.core.errors import MalformedError, NewerVersionError, located
from service.core.game import (
    Count,
    Cut,
    Deal,
    GameAction,
    GameState,
    apply_action,
    legal,
    new_game,
    parse_action,
)
from service.boundary.state import VERSION, state_from_json, state_to_json
from service.boundary.views import view_json
from service.core.options import GameOptions

# -- states to work on ----------------------------------------------------------


def _choose(state: GameState, rnd: random.Random) -> GameAction:
    """A random legal action, with cards filled in for a client deck."""
    a = rnd.choice(legal(state))
    o, pos = state.options, state.position
    if o.deck == "client" and type(a) is Deal:
        deck = list(CARDS)
        rnd.shuffle(deck)
        k, n = o.cards_dealt, o.players
        return Deal(a.seat, tuple(tuple(deck[i * k:(i + 1) * k]) for i in range(n)),
                    tuple(deck[n * k:n * k + o.dealt_to_crib]))
    if o.deck == "client" and type(a) is Cut:
        used = {c for h in pos.hands for c in h} | set(pos.crib)
        return Cut(a.seat, rnd.choice([c for c in CARDS if c not in used]))
    if type(a) is Count and o.muggins and rnd.random() < 0.5:
        return Count(a.seat, rnd.randint(0, 29))
    return a


def _game(options: GameOptions, seed: int) -> Iterator[GameState]:
    rnd = random.Random(seed)
    if options.deck == "client":
        g, _ = new_game(options, dealer=seed % options.players)
    else:  # a random deck's seed fixed here, so that every run works on the same states
        g, _ = new_game(options, deck_seed=None if options.deck == "seeded" else f"{seed:032x}")
    yield g
    while g.phase != "over":
        g, _ = apply_action(g, _choose(g, rnd))
        yield g


CONFIGS = [
    GameOptions(deck="seeded", seed="json-2"),
    GameOptions(players=3, deck="seeded", seed="json-3", target=61),
    GameOptions(players=4, deck="seeded", seed="json-4", tournament=True),
    GameOptions(five_and_two=True, deck="client", target=61, muggins=True),
    GameOptions(players=3, deck="client", target=61, skunk=True),
    GameOptions(players=4, muggins=True, muggins_in_play=True, target=61),
]

ALL_STATES = [s for i, o in enumerate(CONFIGS) for s in _game(o, i)]
SERVER = CONFIGS[0]
CLIENT = CONFIGS[3]


def _first(phase: str, options: GameOptions | None = None, pred: Callable[[GameState], bool] = lambda s: True
           ) -> GameState:
    for s in ALL_STATES:
        if s.phase == phase and (options is None or s.options == options) and pred(s):
            return s
    raise LookupError(phase)


def _json(state: GameState) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(state_to_json(state)))


def _play_state(options: GameOptions = SERVER, deal: int = 2) -> dict[str, Any]:
    """A state in the play of a later deal, some cards in the count."""
    return _json(_first("play", options, lambda s: len(s.position.play.count_cards) >= 2 and s.deal >= deal))


def _deal_1(phase: str, options: GameOptions = SERVER) -> dict[str, Any]:
    return _json(_first(phase, options, lambda s: s.deal == 1))


def _reject(data: Any, field: str | None) -> MalformedError:
    """The error reading ``data`` as the ``state`` of a request (located there, as the HTTP layer does)."""
    with pytest.raises(MalformedError) as exc, located("state"):
        state_from_json(data)
    if field is not None:
        assert exc.value.field == field, (exc.value.field, exc.value.message)
    return exc.value


def _mutated(f: Callable[[dict[str, Any]], Any], base: dict[str, Any] | None = None) -> dict[str, Any]:
    data = copy.deepcopy(base if base is not None else _play_state())
    f(data)
    return data


def _index(data: dict[str, Any], kind: str, k: int = 0) -> int:
    """The index of the k-th action of ``kind`` in the state's actions."""
    found = [i for i, t in enumerate(data["actions"]) if t.split(" ")[0] == kind]
    return found[k]


# -- round trips -----------------------------------------------------------------


def test_every_phase_is_covered() -> None:
    for o in CONFIGS:
        phases = {s.phase for s in ALL_STATES if s.options == o}
        assert phases == {"deal", "discard", "cut", "play", "show", "over"}, o
        assert max(s.deal for s in ALL_STATES if s.options == o) >= 3, o


def test_round_trip_every_state() -> None:
    for s in ALL_STATES:
        data = state_to_json(s)
        wire = orjson.loads(orjson.dumps(data))
        assert wire == data
        back = state_from_json(wire)
        assert back == s
        assert state_to_json(back) == data
        assert legal(back) == legal(s)


def test_restored_state_plays_on_identically() -> None:
    """Deals and cuts included: a service deck's pack is committed by the deck seed."""
    rnd = random.Random(7)
    for s in ALL_STATES[::3]:
        if s.phase == "over":
            continue
        a = _choose(s, rnd)
        x, ex = apply_action(s, a)
        y, ey = apply_action(state_from_json(_json(s)), a)
        assert x == y and ex == ey


def test_to_json_shape() -> None:
    data = _play_state()
    assert data["version"] == VERSION == 2
    assert set(data) == {"version", "game_id", "seq", "options", "first_dealer", "deal", "dealer", "pegs",
                         "deck_seed", "history", "actions"}
    assert data["options"] == {"deck": "seeded", "seed": "json-2"}  # only what differs from the defaults
    assert len(data["game_id"]) == 32 and len(data["deck_seed"]) == 32 and len(data["history"]) == 64
    assert all(isinstance(t, str) for t in data["actions"])
    assert [parse_action(t) for t in data["actions"]] == list(state_from_json(data).actions)
    assert data["actions"][0].startswith(f"deal {data['dealer']} ")  # the dealt cards, in the record
    assert data["seq"] > len(data["actions"])
    client = _json(_first("play", CLIENT))
    assert client["deck_seed"] is None


def test_a_deal_start_holds_no_cards() -> None:
    data = _json(_first("deal", SERVER, lambda s: s.deal >= 2))
    assert data["actions"] == [] and data["seq"] > 0
    assert not any(isinstance(v, str) and v in {str(c) for c in CARDS} for v in data.values())


# -- forgeries, field by field --------------------------------------------------------


@pytest.mark.parametrize("key, value", [
    ("phase", "play"), ("hands", [["5H"]]), ("to_act", [0]), ("scores", [[0, 0], [0, 0]]),
    ("crib", []), ("starter", "5H"), ("play", None), ("shown", 0), ("result", None), ("log", []),
    ("deck", []), ("hand", 1), ("winner", None), ("legal", []), ("secret", "x"), ("view", 0),
    ("Version", 2), ("", 0),
])
def test_unknown_and_derived_fields_are_rejected(key: str, value: Any) -> None:
    e = _reject(_mutated(lambda d: d.update({key: value})), f"state/{key}")
    assert repr(key) in e.message


@pytest.mark.parametrize("key", sorted(state_to_json(ALL_STATES[0])))
def test_missing_fields(key: str) -> None:
    e = _reject(_mutated(lambda d: d.pop(key)), f"state/{key}")
    assert key in e.message


def _cards_of(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _deal_text(data: dict[str, Any]) -> tuple[str, list[list[str]], list[str]]:
    kind, seat, cards = data["actions"][0].split(" ")
    hands, _, crib = cards.partition("/")
    return f"{kind} {seat}", [_cards_of(h) for h in hands.split(".")], _cards_of(crib)


def _with_deal(data: dict[str, Any], hands: list[list[str]], crib: list[str]) -> None:
    head = data["actions"][0].split(" ")[:2]
    data["actions"][0] = " ".join(head) + " " + ".".join("".join(h) for h in hands) + "/" + "".join(crib)


@pytest.mark.parametrize("options", [SERVER, CONFIGS[1]], ids=["2 players", "3 players"])
def test_a_card_swapped_in_a_service_deal(options: GameOptions) -> None:
    """The service dealt these cards from the committed pack: a recorded deal
    that differs in any card is not this game's."""
    base = _play_state(options)
    _, hands, crib = _deal_text(base)
    dealt = {c for h in hands for c in h} | set(crib)
    spare = next(str(c) for c in CARDS if str(c) not in dealt)

    def undealt_card(d: dict[str, Any]) -> None:
        h = copy.deepcopy(hands)
        h[0][0] = spare
        _with_deal(d, h, crib)

    def two_seats_swap(d: dict[str, Any]) -> None:
        h = copy.deepcopy(hands)
        h[0][0], h[1][0] = h[1][0], h[0][0]
        _with_deal(d, h, crib)

    def reordered_hand(d: dict[str, Any]) -> None:
        h = copy.deepcopy(hands)
        h[1].reverse()
        _with_deal(d, h, crib)

    def no_cards(d: dict[str, Any]) -> None:
        d["actions"][0] = " ".join(d["actions"][0].split(" ")[:2])

    forgeries = [undealt_card, two_seats_swap, reordered_hand, no_cards]
    if crib:
        def crib_swapped(d: dict[str, Any]) -> None:
            h = copy.deepcopy(hands)
            c = list(crib)
            h[0][0], c[0] = c[0], h[0][0]
            _with_deal(d, h, c)
        forgeries.append(crib_swapped)
    for forge in forgeries:
        _reject(_mutated(forge, base), "state/actions/0")


def test_a_forged_starter() -> None:
    base = _play_state()
    i = _index(base, "cut")
    kind, seat, starter = base["actions"][i].split(" ")
    in_use = {c for t in base["actions"][:i] for c in _cards_of(t.split(" ")[2].replace(".", "").replace("/", ""))}
    for forged in [next(str(c) for c in CARDS if str(c) not in in_use and str(c) != starter), None]:
        text = f"{kind} {seat}" + (f" {forged}" if forged else "")
        _reject(_mutated(lambda d: d["actions"].__setitem__(i, text), base), f"state/actions/{i}")
    # with a client deck the starter must not be a card already dealt
    client = _json(_first("play", CLIENT))
    j = _index(client, "cut")
    dealt = client["actions"][0].split(" ")[2][:2]
    _reject(_mutated(lambda d: d["actions"].__setitem__(j, f"cut {client['actions'][j].split()[1]} {dealt}"),
                     client), f"state/actions/{j}")


def test_actions_that_do_not_replay() -> None:
    client = _json(_first("play", CLIENT, lambda s: len(s.position.play.played) >= 2 and s.deal >= 2))
    for base in (_play_state(), client):
        n = (base["options"].get("players", 2))
        i = _index(base, "play", 1)
        kind, seat, card = base["actions"][i].split(" ")[:3]
        # a play out of turn: the same card laid by the next seat
        _reject(_mutated(lambda d: d["actions"].__setitem__(i, f"play {(int(seat) + 1) % n} {card}"), base),
                f"state/actions/{i}")
        # a play of a card the seat does not hold: the starter
        c = _index(base, "cut")
        starter = base["actions"][c].split(" ")[2]
        _reject(_mutated(lambda d: d["actions"].__setitem__(i, f"play {seat} {starter}"), base),
                f"state/actions/{i}")
        # a discard of a card not held
        k = _index(base, "discard")
        who, laid = base["actions"][k].split(" ")[1:3]
        _reject(_mutated(lambda d: d["actions"].__setitem__(k, f"discard {who} {starter + laid[2:]}"), base),
                f"state/actions/{k}")
        # an action taken twice, dropped, or moved
        _reject(_mutated(lambda d: d["actions"].insert(i, d["actions"][i]), base), f"state/actions/{i + 1}")
        _reject(_mutated(lambda d: d["actions"].pop(0), base), "state/actions/0")
        _reject(_mutated(lambda d: d["actions"].append(d["actions"][0]), base),
                f"state/actions/{len(base['actions'])}")
        # a line that is not an action at all
        _reject(_mutated(lambda d: d["actions"].__setitem__(i, "shuffle 0"), base), f"state/actions/{i}")
        _reject(_mutated(lambda d: d["actions"].__setitem__(i, 7), base), f"state/actions/{i}")


def test_a_finished_deal_is_not_a_state() -> None:
    """The crib's count ends the deal: a state holding it should have started the next deal."""
    o = CLIENT
    for s, nxt in zip(ALL_STATES, ALL_STATES[1:]):
        if s.options == o == nxt.options and s.phase == "show" and nxt.deal == s.deal + 1:
            break
    else:
        raise LookupError("no deal end")
    data = _json(s)
    data["actions"].append(f"count {s.dealer}")
    data["seq"] += 1
    _reject(data, f"state/actions/{len(data['actions']) - 1}")


def test_a_claim_out_of_range_in_an_action() -> None:
    base = _json(_first("show", CLIENT, lambda s: s.position.shown >= 1))
    i = _index(base, "count")
    seat = base["actions"][i].split(" ")[1]
    _reject(_mutated(lambda d: d["actions"].__setitem__(i, f"count {seat} =30"), base), f"state/actions/{i}")


def test_a_foreign_game_id_at_deal_1() -> None:
    """At the first deal the history is the genesis of this game id, options and first dealer."""
    for phase in ("deal", "discard", "play"):
        base = _deal_1(phase)
        other = "f" * 32 if base["game_id"] != "f" * 32 else "e" * 32
        _reject(_mutated(lambda d: d.update(game_id=other), base), "state/history")
        _reject(_mutated(lambda d: d.update(history="0" * 64), base), "state/history")
        # other rules than the game began with
        _reject(_mutated(lambda d: d["options"].update(target=61), base), "state/history")
        _reject(_mutated(lambda d: d["options"].update(muggins=True), base), "state/history")
    # another first dealer (and so dealer)
    base = _deal_1("discard")
    _reject(_mutated(lambda d: d.update(first_dealer=1 - d["first_dealer"], dealer=1 - d["dealer"]), base),
            "state/history")


def test_the_dealer_follows_the_first_dealer() -> None:
    for base in (_play_state(), _deal_1("cut"), _json(_first("deal", CONFIGS[2], lambda s: s.deal >= 3))):
        n = base["options"].get("players", 2)
        assert base["dealer"] == (base["first_dealer"] + base["deal"] - 1) % n
        for delta in range(1, n):
            _reject(_mutated(lambda d: d.update(dealer=(d["dealer"] + delta) % n), base), "state/dealer")
            _reject(_mutated(lambda d: d.update(deal=d["deal"] + delta), base), "state/dealer")


def test_pegs() -> None:
    base = _play_state()
    f0, b0 = base["pegs"][0]
    assert f0 >= b0 >= 0
    _reject(_mutated(lambda d: d["pegs"].__setitem__(0, [f0, f0 + 1]), base), "state/pegs/0")   # back > front
    _reject(_mutated(lambda d: d["pegs"].__setitem__(1, [121, 100]), base), "state/pegs/1")     # at the target
    _reject(_mutated(lambda d: d["pegs"].__setitem__(1, [500, 100]), base), "state/pegs/1")
    _reject(_mutated(lambda d: d["pegs"].__setitem__(0, [f0, -1]), base), "state/pegs/0")
    _reject(_mutated(lambda d: d["pegs"].__setitem__(0, [-1, -2]), base), "state/pegs/0")
    _reject(_mutated(lambda d: d["pegs"].__setitem__(0, [f0]), base), "state/pegs/0")
    _reject(_mutated(lambda d: d["pegs"].__setitem__(0, [float(f0), b0]), base), "state/pegs/0")
    _reject(_mutated(lambda d: d["pegs"].__setitem__(0, [True, False]), base), "state/pegs/0")
    _reject(_mutated(lambda d: d["pegs"].__setitem__(0, {"front": f0, "back": b0}), base), "state/pegs/0")
    _reject(_mutated(lambda d: d["pegs"].append([0, 0]), base), "state/pegs")
    _reject(_mutated(lambda d: d["pegs"].pop(), base), "state/pegs")
    # in a 61 game the front stays below 61
    g61 = _json(_first("play", CONFIGS[1], lambda s: s.deal >= 2))
    _reject(_mutated(lambda d: d["pegs"].__setitem__(2, [61, 0]), g61), "state/pegs/2")
    # nobody has scored before the first deal's actions
    d1 = _deal_1("discard")
    _reject(_mutated(lambda d: d["pegs"].__setitem__(1, [5, 0]), d1), "state/pegs/1")


def test_seq() -> None:
    base = _play_state()
    n = len(base["actions"])
    _reject(_mutated(lambda d: d.update(seq=n - 1), base), "state/seq")
    _reject(_mutated(lambda d: d.update(seq=0), base), "state/seq")
    _reject(_mutated(lambda d: d.update(seq=-1), base), "state/seq")
    _reject(_mutated(lambda d: d.update(seq=10**12), base), "state/seq")
    # at the first deal seq is exactly the deal's actions
    d1 = _deal_1("play")
    e = _reject(_mutated(lambda d: d.update(seq=d["seq"] + 1), d1), None)
    assert e.field in ("state/seq", "state/history"), e.field


@pytest.mark.parametrize("deal", [0, -1, 201, 10**12, 10**30])
def test_deal_out_of_range(deal: int) -> None:
    _reject(_mutated(lambda d: d.update(deal=deal)), "state/deal")


@pytest.mark.parametrize("seed", ["zz" * 16, "AB" * 16, "ab" * 15 + "a", "ab" * 17, "", " " + "ab" * 16, 0, [],
                                  "ab" * 16 + "\n"])
def test_bad_deck_seed(seed: Any) -> None:
    _reject(_mutated(lambda d: d.update(deck_seed=seed)), "state/deck_seed")


def test_deck_seed_is_kept_exactly_when_the_service_deals() -> None:
    _reject(_mutated(lambda d: d.update(deck_seed=None)), "state/deck_seed")
    client = _json(_first("play", CLIENT, lambda s: s.deal >= 2))
    _reject(_mutated(lambda d: d.update(deck_seed="ab" * 16), client), "state/deck_seed")


def test_another_deck_seed_is_another_pack() -> None:
    base = _play_state()
    _reject(_mutated(lambda d: d.update(deck_seed="0" * 32 if d["deck_seed"] != "0" * 32 else "1" * 32), base),
            "state/actions/0")


@pytest.mark.parametrize("version", [4, 1, 0, -1, 99, "2", 2.0, True, None, [2], {"v": 2}])
def test_unknown_version(version: Any) -> None:
    _reject(_mutated(lambda d: d.update(version=version)), "state/version")


@pytest.mark.parametrize("key, value", [
    ("game_id", "G" * 32), ("game_id", "ab" * 15), ("game_id", "AB" * 16), ("game_id", None), ("game_id", 5),
    ("history", "ab" * 31), ("history", "AB" * 32), ("history", "x" * 64), ("history", None),
])
def test_bad_hex_fields(key: str, value: Any) -> None:
    _reject(_mutated(lambda d: d.update({key: value})), f"state/{key}")


def test_bad_options() -> None:
    _reject(_mutated(lambda d: d["options"].update(players=5)), "state/options/players")
    _reject(_mutated(lambda d: d["options"].update(target=100)), "state/options/target")
    _reject(_mutated(lambda d: d["options"].update(colour="red")), "state/options/colour")
    _reject(_mutated(lambda d: d["options"].update(muggins="yes")), "state/options/muggins")
    _reject(_mutated(lambda d: d["options"].update(seed=None)), "state/options/seed")
    _reject(_mutated(lambda d: d["options"].update(players=True)), "state/options/players")
    _reject(_mutated(lambda d: d.update(options=[])), "state/options")
    # another player count: the pegs (one per side) no longer fit
    _reject(_mutated(lambda d: d["options"].update(players=3)), "state/pegs")


def test_actions_field() -> None:
    _reject(_mutated(lambda d: d.update(actions="deal 0")), "state/actions")
    _reject(_mutated(lambda d: d.update(actions={"0": "deal 0"})), "state/actions")
    _reject(_mutated(lambda d: d.update(actions=["count 0"] * 101, seq=1000)), "state/actions")
    _reject(_mutated(lambda d: d["actions"].append(None)), f"state/actions/{len(_play_state()['actions'])}")


@pytest.mark.parametrize("garbage", [None, 1, "state", [], [1, 2, 3], 1.5, True, [{"version": 2}]])
def test_not_an_object_names_the_state(garbage: Any) -> None:
    _reject(garbage, "state")


@pytest.mark.parametrize("garbage", [{}, {"version": 2}, {"version": 1}, {"version": 2, "options": {}},
                                     {k: None for k in state_to_json(ALL_STATES[0])}])
def test_partial_objects(garbage: Any) -> None:
    _reject(garbage, None)


# Junk of every JSON type in every field: each value is of a type (or range) the
# field cannot take, so each must be a MalformedError naming that field.
_NOT_INT = [None, True, False, 1.5, "1", "", [], [1], {}, {"a": 1}, -1, 2**70]
_NOT_HEX = [None, True, 0, 1.5, "", "x", "g" * 32, [], ["ab" * 16], {}, {"a": 1}]
JUNK: dict[str, list[Any]] = {
    "version": _NOT_INT + [4],
    "seq": _NOT_INT,
    "first_dealer": _NOT_INT + [2],
    "deal": _NOT_INT + [0],
    "dealer": _NOT_INT + [2],
    "game_id": _NOT_HEX,
    "history": _NOT_HEX + ["ab" * 16],
    "deck_seed": _NOT_HEX + ["ab" * 32],
    "options": [None, True, 0, 1.5, "", "x", [], [{}], {"players": "2"}, {"bogus": 1}, {"target": None}],
    "pegs": [None, True, 0, 1.5, "", {}, [], [[0, 0]], [[0, 0]] * 3, [["0", 0], [0, 0]], [[0.0, 0], [0, 0]],
             [[True, False], [0, 0]], [[0], [0]], [None, None], [[0, 0, 0], [0, 0]], [{}, {}]],
    "actions": [None, True, 0, 1.5, "", "deal 0", {}, [1], [None], [[]], [{}], ["junk"], ["deal 0"] * 101],
}


@pytest.mark.parametrize("key, value", [(k, v) for k, vs in JUNK.items() for v in vs])
def test_junk_in_each_field(key: str, value: Any) -> None:
    e = _reject(_mutated(lambda d: d.update({key: value})), None)
    assert e.field == f"state/{key}" or e.field.startswith(f"state/{key}/"), e.field


def test_deal_cards_is_no_longer_a_field() -> None:
    """``deal_cards`` (format 1's pack, given outright) went with format 1: an unknown field."""
    _reject(_mutated(lambda d: d.update(deal_cards="5H" * 52)), "state/deal_cards")


def test_format_1_is_refused_saying_so() -> None:
    """A format-1 state is refused on its version, with a sentence that says format 1 is
    no longer read (whatever else it holds); any other version is refused as well, a newer
    one as a :class:`NewerVersionError` naming the formats read (tests/system/test_state_versions.py)."""
    e = _reject({"version": 1, "phase": "deal", "log": []}, "state/version")
    assert "format 1 is no longer read" in e.message and not isinstance(e, NewerVersionError)
    e = _reject(_mutated(lambda d: d.update(version=0)), "state/version")
    assert "format 2 only" in e.message and not isinstance(e, NewerVersionError)
    e = _reject(_mutated(lambda d: d.update(version=4, future_field=1)), "state/version")
    assert isinstance(e, NewerVersionError) and (e.version, e.reads) == (4, (2, 3)), e.message


# -- fuzzing: only MalformedError, or a state that works ------------------------------------

STATE_KEYS = sorted(state_to_json(ALL_STATES[0]))
CARD_TEXTS = [str(c) for c in CARDS]
SAMPLES = [_json(s) for s in ALL_STATES[::11]] + [_json(s) for s in ALL_STATES if s.phase == "over"] + [
    _play_state()]

scalars = (st.none() | st.booleans() | st.integers(min_value=-3, max_value=130) | st.integers()
           | st.floats() | st.text(max_size=6) | st.sampled_from(CARD_TEXTS)
           | st.sampled_from(["deal 0", "discard 1 5H6C", "cut 1", "play 0 5H", "go 1", "count 0 =3",
                              "ab" * 16, "ab" * 32, "seeded", "client"]))
keys = st.sampled_from(STATE_KEYS + ["deal_cards", "players", "target", "deck", "seed", "muggins"]) | st.text(
    max_size=4)
junk = st.recursive(scalars, lambda kids: st.lists(kids, max_size=5) | st.dictionaries(keys, kids, max_size=5),
                    max_leaves=20)
state_like = st.fixed_dictionaries({}, optional={k: junk for k in STATE_KEYS})


def _only_malformed(data: Any) -> None:
    try:
        state = state_from_json(data)
    except MalformedError:
        return
    # accepted: it must be a state that reads back the same and plays on
    out = state_to_json(state)
    assert state_from_json(orjson.loads(orjson.dumps(out))) == state
    for seat in [None, *range(state.options.players)]:
        view_json(state, seat)
    acts = legal(state)
    if acts and not (state.options.deck == "client" and type(acts[0]) in (Deal, Cut)):
        apply_action(state, acts[0])


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(junk)
def test_fuzz_junk(data: Any) -> None:
    _only_malformed(data)


@FUZZ
@given(state_like)
def test_fuzz_state_shaped_junk(data: Any) -> None:
    _only_malformed(data)


@FUZZ
@given(st.sampled_from(SAMPLES), st.sampled_from(STATE_KEYS), junk)
def test_fuzz_junk_in_one_field(base: dict[str, Any], key: str, value: Any) -> None:
    _only_malformed(_mutated(lambda d: d.update({key: value}), base))


def _set(root: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = root
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return root


def _get(root: Any, path: tuple) -> Any:
    for p in path:
        root = root[p]
    return root


@st.composite
def _path(draw: st.DrawFn, data: Any) -> tuple:
    """A path into ``data``: a top-level key, then deeper with probability 2/3 a level."""
    path: tuple = ()
    node = data
    while isinstance(node, (dict, list)) and node and (not path or draw(st.integers(0, 2))):
        key = draw(st.sampled_from(sorted(node, key=str) if isinstance(node, dict) else range(len(node))))
        path += (key,)
        node = node[key]
    return path


@st.composite
def mutated_states(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 3))):
        if not isinstance(data, dict):
            break
        path = draw(_path(data))
        old = _get(data, path)
        how = draw(st.sampled_from(["junk", "delete", "nudge", "card", "text", "append", "pop", "swap"]))
        if how == "junk":
            data = _set(data, path, draw(junk))
        elif how == "delete" and path:
            parent = _get(data, path[:-1])
            del parent[path[-1]]
        elif how == "nudge" and isinstance(old, int) and not isinstance(old, bool):
            data = _set(data, path, old + draw(st.sampled_from([-1, 1, 2, 52, -100])))
        elif how == "card" and isinstance(old, str) and len(old) >= 2:
            # one card (two characters) of an action line replaced
            i = draw(st.integers(0, len(old) - 2))
            data = _set(data, path, old[:i] + draw(st.sampled_from(CARD_TEXTS)) + old[i + 2:])
        elif how == "text" and isinstance(old, str):
            i = draw(st.integers(0, len(old)))
            data = _set(data, path, old[:i] + draw(st.text(max_size=3)) + old[i + 1:])
        elif how == "append" and isinstance(old, list):
            old.append(draw(st.sampled_from(CARD_TEXTS) | junk))
        elif how == "pop" and isinstance(old, list) and old:
            old.pop(draw(st.integers(0, len(old) - 1)))
        elif how == "swap" and path:
            other = draw(_path(data))
            if other and other[:len(path)] != path and path[:len(other)] != other:
                a, b = copy.deepcopy(_get(data, path)), copy.deepcopy(_get(data, other))
                data = _set(data, path, b)
                data = _set(data, other, a)
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_states())
def test_fuzz_mutations_of_valid_states(data: Any) -> None:
    _only_malformed(data)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SAMPLES), st.sampled_from(STATE_KEYS))
def test_fuzz_each_key_dropped_or_nulled(data: dict[str, Any], key: str) -> None:
    for f in (lambda d: d.pop(key), lambda d: d.update({key: None}), lambda d: d.update({key: {}})):
        _only_malformed(_mutated(f, data))
