"""The game state as JSON: round trips, and every inconsistency rejected.

``from_json`` must accept exactly the states a game can reach and reject
anything else with a :class:`MalformedError` naming the field; whatever junk it
is handed, it may only raise :class:`CribbageError` (a ``ValueError``).
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
from service.core.errors import CribbageError, MalformedError
from service.core.game import GameAction, GameState, apply_action, legal_actions, new_game
from service.core.options import GameOptions
from service.core.state_json import VERSION, from_json, to_json
from service.core.views import hidden_cards, view

# -- states to work on ----------------------------------------------------------


def _choose(state: GameState, rnd: random.Random) -> GameAction:
    """A random legal action, with cards filled in for a client deck."""
    a = rnd.choice(legal_actions(state))
    o = state.options
    if o.deck == "client" and a.type == "deal":
        deck = list(CARDS)
        rnd.shuffle(deck)
        k, n = o.cards_dealt, o.players
        hands = tuple(tuple(deck[i * k:(i + 1) * k]) for i in range(n))
        crib = tuple(deck[n * k:n * k + o.dealt_to_crib])
        return GameAction("deal", a.seat, hands=hands, crib=crib)
    if o.deck == "client" and a.type == "cut":
        used = {c for h in state.hands for c in h} | set(state.crib)
        return GameAction("cut", a.seat, starter=rnd.choice([c for c in CARDS if c not in used]))
    return a


def _game(options: GameOptions, seed: int, *, dealer: int = 0) -> Iterator[GameState]:
    rnd = random.Random(seed)
    g = new_game(options, dealer=dealer) if options.deck == "client" else new_game(options)
    yield g
    while g.phase != "over":
        g, _ = apply_action(g, _choose(g, rnd))
        yield g


CONFIGS = [
    GameOptions(deck="seeded", seed="json-2"),
    GameOptions(players=3, deck="seeded", seed="json-3", target=61),
    GameOptions(players=4, deck="seeded", seed="json-4", tournament=True, target=61),
    GameOptions(five_and_two=True, deck="client", target=61, muggins=True),
    GameOptions(players=3, deck="client", target=61, skunk=True),
]


def _all_states() -> list[GameState]:
    out = []
    for i, o in enumerate(CONFIGS):
        out.extend(_game(o, i))
    return out


ALL_STATES = _all_states()


def _first(phase: str, options: GameOptions | None = None, pred: Callable[[GameState], bool] = lambda s: True
           ) -> GameState:
    for s in ALL_STATES:
        if s.phase == phase and (options is None or s.options == options) and pred(s):
            return s
    raise LookupError(phase)


SERVER = CONFIGS[0]


def _play_state() -> dict[str, Any]:
    """A server-deck state in the play with some cards in the count."""
    return to_json(_first("play", SERVER, lambda s: len(s.pegging.count_cards) >= 2 and s.hand >= 2))


def _reject(data: Any, field: str | None) -> MalformedError:
    with pytest.raises(MalformedError) as exc:
        from_json(data)
    if field is not None:
        assert exc.value.field == field, (exc.value.field, exc.value.message)
    return exc.value


# -- round trips -----------------------------------------------------------------


def test_every_phase_is_covered() -> None:
    for o in CONFIGS:
        phases = {s.phase for s in ALL_STATES if s.options == o}
        assert phases == {"deal", "discard", "cut", "play", "show", "over"}, o


def test_round_trip_every_state() -> None:
    for s in ALL_STATES:
        data = to_json(s)
        wire = orjson.loads(orjson.dumps(data))
        assert wire == data
        back = from_json(wire)
        assert to_json(back) == data
        assert legal_actions(back) == legal_actions(s)
        assert back.scores == s.scores and back.hands == s.hands and back.deck == s.deck


def test_restored_state_plays_on_identically() -> None:
    rnd = random.Random(7)
    for s in ALL_STATES[::3]:
        if s.phase == "over":
            continue
        a = _choose(s, rnd)
        if a.type == "deal" and s.options.deck != "client":
            continue  # a fresh deal draws from the deck: same for a seeded deck, tested below
        restored = from_json(orjson.loads(orjson.dumps(to_json(s))))
        x, ex = apply_action(s, a)
        y, ey = apply_action(restored, a)
        assert to_json(x) == to_json(y) and ex == ey


def test_to_json_shape() -> None:
    data = _play_state()
    assert data["version"] == VERSION == 1
    assert set(data) == {"version", "options", "phase", "hand", "dealer", "first_dealer", "to_act", "scores",
                         "hands", "crib", "starter", "deck", "play", "shown", "result", "log"}
    assert set(data["play"]) == {"turn", "count", "count_cards", "passed", "last_player", "played"}
    assert all(isinstance(c, str) and len(c) == 2 for h in data["hands"] for c in h)
    n = sum(len(h) for h in data["hands"]) + len(data["crib"]) + len(data["deck"]) + 1
    assert n == 52


# -- rejections, field by field --------------------------------------------------------


def _mutated(f: Callable[[dict[str, Any]], None], base: dict[str, Any] | None = None) -> dict[str, Any]:
    data = copy.deepcopy(base if base is not None else _play_state())
    f(data)
    return data


@pytest.mark.parametrize("version", [0, 2, 99, -1])
def test_unknown_version(version: int) -> None:
    e = _reject(_mutated(lambda d: d.update(version=version)), "state/version")
    assert str(version) in e.message


def test_card_in_two_places() -> None:
    def hand_in_crib(d): d["crib"][0] = d["hands"][0][0]
    def starter_in_hand(d): d["starter"] = d["hands"][1][2]
    def deck_has_hand_card(d): d["deck"][5] = d["hands"][1][3]
    def same_card_two_hands(d): d["hands"][0][3] = d["hands"][1][3]
    def spelled_differently(d): d["deck"][0] = d["hands"][0][0].lower()
    for f in (hand_in_crib, starter_in_hand, deck_has_hand_card, same_card_two_hands, spelled_differently):
        _reject(_mutated(f), "state")


def test_53_and_51_cards() -> None:
    def add(d): d["deck"].append(d["hands"][0][0])     # 53: some card twice
    def drop(d): d["deck"].pop()                        # 51
    def drop_all(d): d["deck"] = []
    _reject(_mutated(add), "state")
    e = _reject(_mutated(drop), "state/deck")
    assert "51" in e.message
    _reject(_mutated(drop_all), "state/deck")
    # a card moved from the deck to a hand is still 52, but the hand size is wrong
    _reject(_mutated(lambda d: d["hands"][0].append(d["deck"].pop())), "state/hands")


def test_scores_must_add_up_to_the_log() -> None:
    base = _play_state()
    assert any(entry.get("points") for entry in base["log"])
    def front_up(d): d["scores"][0]["front"] += 1
    def log_points(d):
        for entry in d["log"]:
            if entry.get("scores"):
                entry["scores"][0]["points"] += 1
                return
    def log_side(d):
        for entry in d["log"]:
            if entry.get("scores"):
                entry["scores"][0]["side"] = 1 - entry["scores"][0]["side"]
                return
    def drop_entry(d):
        d["log"] = [e for e in d["log"] if not e.get("scores")]
    for f in (front_up, log_points, log_side, drop_entry):
        _reject(_mutated(f, base), "state/scores")
    _reject(_mutated(lambda d: d["scores"][0].update(back=d["scores"][0]["front"] + 1), base), "state/scores/0")
    _reject(_mutated(lambda d: d["scores"][1].update(back=-1), base), "state/scores/1")
    _reject(_mutated(lambda d: d["scores"].append({"front": 0, "back": 0}), base), "state/scores")
    _reject(_mutated(lambda d: d["log"][-1].update(scores=[{"side": 7, "points": 1}]), base), "state/log/%d"
            % (len(base["log"]) - 1))


def test_wrong_hand_size_for_the_phase() -> None:
    def hand_to_deck(d): d["deck"].append(d["hands"][1].pop())
    _reject(_mutated(hand_to_deck), "state/hands")
    _reject(_mutated(lambda d: d["deck"].append(d["crib"].pop())), "state/crib")
    # discard phase: hands of 6 (or 4 once discarded), never 5 in a 2-player six-card game
    disc = to_json(_first("discard", SERVER))
    _reject(_mutated(lambda d: d["deck"].append(d["hands"][0].pop()), disc), "state/hands")
    _reject(_mutated(lambda d: d["deck"].append(d["crib"].pop()) if d["crib"] else d["crib"].append(
        d["deck"].pop()), disc), "state/crib")
    # every seat holding 4 is not the discard any more
    def all_discarded(d):
        for h in d["hands"]:
            while len(h) > 4:
                d["crib"].append(h.pop())
    _reject(_mutated(all_discarded, disc), "state/hands")
    # before the deal no cards are out
    deal = to_json(_first("deal", SERVER, lambda s: s.hand >= 1))
    _reject(_mutated(lambda d: d["hands"][0].append("AS"), deal), "state/hands")


def test_starter_and_deck_fit_the_phase() -> None:
    cut = to_json(_first("cut", SERVER))
    _reject(_mutated(lambda d: d.update(starter=d["deck"].pop(0)), cut), "state/starter")
    _reject(_mutated(lambda d: d["deck"].append(d.pop("starter")) or d.update(starter=None)), "state/starter")
    _reject(_mutated(lambda d: d.update(deck=None)), "state/deck")
    # a client deck keeps no deck
    client_play = to_json(_first("play", CONFIGS[3]))
    used = {c for h in client_play["hands"] for c in h} | set(client_play["crib"]) | {client_play["starter"]}
    spare = [str(c) for c in CARDS if str(c) not in used]
    _reject(_mutated(lambda d: d.update(deck=spare), client_play), "state/deck")


def test_count_mismatch() -> None:
    _reject(_mutated(lambda d: d["play"].update(count=d["play"]["count"] + 1)), "state/play/count")
    _reject(_mutated(lambda d: d["play"]["count_cards"].pop(0)), "state/play/count")
    _reject(_mutated(lambda d: d["play"]["count_cards"].reverse()), "state/play/count_cards")


def test_play_consistency() -> None:
    base = _play_state()
    assert base["play"]["last_player"] is not None
    n = base["options"]["players"]
    _reject(_mutated(lambda d: d["play"].update(last_player=(d["play"]["last_player"] + 1) % n), base),
            "state/play/last_player")
    _reject(_mutated(lambda d: d["play"].update(last_player=None), base), "state/play/last_player")
    _reject(_mutated(lambda d: d["play"].update(turn=None), base), "state/play/turn")
    _reject(_mutated(lambda d: d["play"].update(passed=[9]), base), "state/play/passed")
    _reject(_mutated(lambda d: d["play"]["played"].append(d["deck"][0]), base), "state/play/played")
    _reject(_mutated(lambda d: d["play"].update(bogus=1), base), "state/play/bogus")
    _reject(_mutated(lambda d: d.update(play=None), base), "state/play")
    _reject(_mutated(lambda d: d.update(to_act=[(d["to_act"][0] + 1) % n]), base), "state/to_act")
    # a play where none is in progress
    _reject(_mutated(lambda d: d.update(play=base["play"]), to_json(_first("cut", SERVER))), "state/play")


def test_phase_shown_and_result() -> None:
    base = _play_state()
    _reject(_mutated(lambda d: d.update(phase="pegging"), base), "state/phase")
    _reject(_mutated(lambda d: d.update(shown=1), base), "state/shown")
    show = to_json(_first("show", SERVER))
    _reject(_mutated(lambda d: d.update(shown=-1), show), "state/shown")
    _reject(_mutated(lambda d: d.update(shown=3), show), "state/shown")
    _reject(_mutated(lambda d: d.update(result={"winner": 0}), base), "state/scores")
    over = to_json(_first("over", SERVER))
    _reject(_mutated(lambda d: d.update(result=None), over), "state/result")
    _reject(_mutated(lambda d: d["result"].update(winner=1 - d["result"]["winner"]), over), "state/result")
    _reject(_mutated(lambda d: d.update(phase="show"), over), None)


def test_seats_in_range() -> None:
    for key in ("dealer", "first_dealer"):
        _reject(_mutated(lambda d: d.update({key: 2})), f"state/{key}")
        _reject(_mutated(lambda d: d.update({key: -1})), f"state/{key}")


BAD_TYPES: dict[str, list[Any]] = {
    "version": ["1", 1.0, True, None, [1]],
    "options": [[], "x", None, 2],
    "phase": [1, None, ["play"]],
    "hand": ["3", 3.0, True, None],
    "dealer": ["0", 0.0, False, None],
    "first_dealer": ["0", 1.5, None],
    "scores": [{}, "0-0", None, [[0, 0], [0, 0]], [{"front": 1.0, "back": 0}, {"front": 0, "back": 0}],
               [{"front": True, "back": False}, {"front": 0, "back": 0}]],
    "hands": [{}, "AS", None, [1, 2], [[1, 2, 3, 4], [5, 6, 7, 8]]],
    "crib": [{}, "AS", 5],
    "starter": [5, ["AS"], {"card": "AS"}],
    "deck": [{}, "AS", 0],
    "play": [[], "x", 3],
    "shown": ["0", 0.5, None],
    "result": [[], "x", 3],
    "log": [{}, "x", None, [1], [[]], ["deal"]],
    "to_act": ["1", 1, None, {}],
}


@pytest.mark.parametrize("key, value", [(k, v) for k, vs in BAD_TYPES.items() for v in vs])
def test_bad_types(key: str, value: Any) -> None:
    e = _reject(_mutated(lambda d: d.update({key: value})), None)
    assert e.field is not None and (e.field == f"state/{key}" or e.field.startswith(f"state/{key}/")), e.field


@pytest.mark.parametrize("key", sorted(to_json(ALL_STATES[0])))
def test_missing_fields(key: str) -> None:
    e = _reject(_mutated(lambda d: d.pop(key)), f"state/{key}")
    assert key in e.message


def test_play_field_errors_name_the_play() -> None:
    """Regression (fixed in b88c3e3): ``_read_play`` read the play with a ``_Reader`` that named fields
    "state/<key>", so a missing, mistyped or out-of-range play field was
    reported as "state/turn", "state/count" ... (a top-level field that does
    not exist) instead of "state/play/turn", "state/play/count" ...
    """
    cases = [(key, lambda d, key=key: d["play"].pop(key))
             for key in ("turn", "count", "count_cards", "passed", "last_player", "played")]
    cases += [("count", lambda d: d["play"].update(count="12")),
              ("turn", lambda d: d["play"].update(turn=5)),
              ("turn", lambda d: d["play"].update(turn="0")),
              ("last_player", lambda d: d["play"].update(last_player=-1)),
              ("played", lambda d: d["play"].update(played="AS")),
              ("passed", lambda d: d["play"].update(passed="0"))]
    wrong = []
    for key, f in cases:
        with pytest.raises(MalformedError) as exc:
            from_json(_mutated(f))
        if exc.value.field != f"state/play/{key}":
            wrong.append((key, exc.value.field))
    assert wrong == []


def test_unknown_fields() -> None:
    _reject(_mutated(lambda d: d.update(secret="x")), "state/secret")
    _reject(_mutated(lambda d: d.update(view=0)), "state/view")


def test_bad_options() -> None:
    _reject(_mutated(lambda d: d["options"].update(players=5)), "state/options/players")
    _reject(_mutated(lambda d: d["options"].update(target=100)), "state/options/target")
    _reject(_mutated(lambda d: d["options"].update(colour="red")), "state/options/colour")
    _reject(_mutated(lambda d: d["options"].update(muggins="yes")), "state/options/muggins")
    _reject(_mutated(lambda d: d["options"].update(seed=None)), "state/options/seed")
    # fewer players than the state has hands
    _reject(_mutated(lambda d: d["options"].update(players=3)), None)


@pytest.mark.parametrize("garbage", [None, 1, "state", b"{}", [], [1, 2, 3], {}, {"version": 1}, 1.5, True,
                                     [{"version": 1}], {1: 2}, {"version": 1, "options": {}}])
def test_garbage(garbage: Any) -> None:
    _reject(garbage, None)


def test_not_an_object_names_the_state() -> None:
    for garbage in (None, [], "x", 3):
        _reject(garbage, "state")


def test_cards_are_named_by_position() -> None:
    _reject(_mutated(lambda d: d["hands"][1].__setitem__(2, "ZZ")), "state/hands/1/2")
    _reject(_mutated(lambda d: d["hands"][1].__setitem__(2, 7)), "state/hands/1/2")
    _reject(_mutated(lambda d: d["crib"].__setitem__(0, "11H")), "state/crib/0")
    _reject(_mutated(lambda d: d["deck"].__setitem__(3, None)), "state/deck/3")
    _reject(_mutated(lambda d: d["play"]["played"].__setitem__(0, "XX")), "state/play/played/0")


def test_bad_starter_names_the_field() -> None:
    """Regression (fixed in b88c3e3): an unreadable starter raised MalformedCardError with field None
    (``Card.parse`` was called without naming the field); expected "state/starter"."""
    _reject(_mutated(lambda d: d.update(starter="ZZ")), "state/starter")


def test_card_played_twice_names_the_field() -> None:
    """Regression (fixed in b88c3e3): a card twice in play.played raised DuplicateCardError with field None;
    expected "state/play/played" like every other play inconsistency."""
    def twice(d): d["play"]["played"].insert(0, d["play"]["played"][0])
    _reject(_mutated(twice), "state/play/played")


def test_accepted_log_entries_do_not_break_the_view() -> None:
    """Regression (fixed in b88c3e3): from_json accepted log entries the rest of the core cannot read.

    A log entry without "type" (``{}``) or a discard whose "cards" is not a
    list passed from_json (only "scores" were checked), and then ``view`` and
    ``hidden_cards`` failed with KeyError/TypeError (a 500, not a 4xx).  Either
    from_json rejects these (field "state/log/<i>") or the view copes.
    """
    base = _play_state()
    for entry in ({}, {"hand": 1}, {"type": "discard", "hand": base["hand"], "seat": 0, "cards": 5}):
        data = _mutated(lambda d: d["log"].append(entry), base)
        try:
            state = from_json(data)
        except MalformedError as exc:
            where = f"state/log/{len(base['log'])}"
            assert exc.field == where or exc.field.startswith(where + "/"), exc.field
            continue
        for seat in (None, 0, 1):
            view(state, seat)
            hidden_cards(state, seat)


# -- fuzzing -----------------------------------------------------------------------------

STATE_KEYS = sorted(to_json(ALL_STATES[0]))
CARD_TEXTS = [str(c) for c in CARDS]

scalars = (st.none() | st.booleans() | st.integers(min_value=-3, max_value=130)
           | st.integers() | st.floats() | st.text(max_size=6) | st.sampled_from(CARD_TEXTS)
           | st.sampled_from(["deal", "discard", "cut", "play", "show", "over", "front", "back", "type"]))
keys = st.sampled_from(STATE_KEYS + ["turn", "count", "played", "front", "back", "type", "scores", "points",
                                     "side", "players", "winner"]) | st.text(max_size=4)
junk = st.recursive(scalars, lambda kids: st.lists(kids, max_size=5) | st.dictionaries(keys, kids, max_size=5),
                    max_leaves=20)
state_like = st.fixed_dictionaries({}, optional={k: junk for k in STATE_KEYS})


def _check_only_cribbage_errors(data: Any) -> None:
    try:
        state = from_json(data)
    except CribbageError:
        return
    # accepted: it must be a usable state
    out = to_json(state)
    legal_actions(state)
    assert from_json(orjson.loads(orjson.dumps(out))) is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk)
def test_fuzz_junk(data: Any) -> None:
    _check_only_cribbage_errors(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state_like)
def test_fuzz_state_shaped_junk(data: Any) -> None:
    _check_only_cribbage_errors(data)


SAMPLES = ([to_json(s) for s in ALL_STATES[::9]] + [to_json(s) for s in ALL_STATES if s.phase == "over"]
           + [_play_state()])


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
    """A path into ``data``: a top-level key, then deeper with probability 2/3 a level
    (so the long log does not drown the other fields)."""
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
        how = draw(st.sampled_from(["junk", "delete", "nudge", "card", "append", "pop", "swap"]))
        if how == "junk":
            data = _set(data, path, draw(junk))
        elif how == "delete" and path:
            parent = _get(data, path[:-1])
            del parent[path[-1]]
        elif how == "nudge" and isinstance(old, int) and not isinstance(old, bool):
            data = _set(data, path, old + draw(st.sampled_from([-1, 1, 2, 52])))
        elif how == "card" and isinstance(old, str):
            data = _set(data, path, draw(st.sampled_from(CARD_TEXTS)))
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
    _check_only_cribbage_errors(data)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SAMPLES), st.sampled_from(STATE_KEYS))
def test_fuzz_each_key_dropped_or_nulled(data: dict[str, Any], key: str) -> None:
    for f in (lambda d: d.pop(key), lambda d: d.update({key: None}), lambda d: d.update({key: {}})):
        _check_only_cribbage_errors(_mutated(f, data))
