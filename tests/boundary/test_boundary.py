"""The JSON boundary: the core knows no JSON and no request field; locations and what a viewer is told.

* An ast scan of ``service/core``: no JSON library imported, nothing of the
  edge (falcon, marshmallow, :mod:`service.http`, :mod:`service.boundary`),
  no string naming a request field (``"state/"``, ``"options/"`` ...), no
  ``*_json`` function, no JSON text written by hand (a string holding
  ``"key":``, as the show's document templates did before they moved to
  :mod:`service.boundary.show`); and nowhere in ``service/`` a location
  re-spelled by assigning ``.field``.
* An ast scan of ``service/http/resources``: no resource composes an answer
  document (a dict written with string keys in a function, other than a
  problem's error entry, a ValidationError's messages or headers; ``dict(k=...)``;
  a NamedTuple's ``_asdict``; JSON text in a string); each answer is written by
  :mod:`service.boundary`, which imports neither falcon nor marshmallow.
* Locations: each layer adds where its part sits; the pointer is RFC 6901.
* :mod:`service.core.game.observe`: counts worked out from the rules (a
  2-player deal: 6 cards each, 2 discarded, so C(6, 2) = 15 legal discards a
  seat), not read off the code.
"""

from __future__ import annotations

import ast
import random
import re
from math import comb
from pathlib import Path

import falcon.testing
import pytest

from service.app import create_app
from service.boundary.pointers import pointer
from service.core.errors import IllegalError, MalformedError, located
from service.core.game import DealRecorded, Discard, Discarded, apply_action, legal, new_game
from service.core.game.observe import (EVERYONE, UnseenDiscard, events_seen, legal_in_error, legal_told,
                                       table_seen)
from service.core.options import GameOptions

SERVICE = Path(__file__).resolve().parents[2] / "service"
CORE = SERVICE / "core"
EDGE_MODULES = ("json", "orjson", "ujson", "simplejson", "marshmallow", "falcon", "service.http", "service.boundary")
REQUEST_PREFIXES = ("state/", "options/", "action/", "record/", "items/", "games/", "/state", "/options",
                    "/action", "/record")
JSON_TEXT = re.compile(r'[{\[,]\s*"[^"\s]+"\s*:|"\w+":\S')
"""JSON text in a string: an object's key after ``{``, ``[`` or ``,``, or a key
glued to its value (compact JSON); prose such as ``{"seat": 0}`` in a
docstring is the first kind too, so the core's docstrings use none."""


def _trees(root: Path) -> list[tuple[Path, ast.AST]]:
    return [(p, ast.parse(p.read_text(), str(p))) for p in sorted(root.rglob("*.py"))]


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _strings(tree: ast.AST) -> list[str]:
    """Every string literal, the literal parts of f-strings included."""
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _edge_imports(tree: ast.AST) -> set[str]:
    return {name for name in _imported(tree) if any(name == m or name.startswith(m + ".") for m in EDGE_MODULES)}


def test_the_core_imports_no_json_and_nothing_of_the_edge() -> None:
    bad = {(p.relative_to(SERVICE).as_posix(), name) for p, tree in _trees(CORE) for name in _edge_imports(tree)}
    assert not bad


def test_the_core_names_no_request_field() -> None:
    bad = [(p.relative_to(SERVICE).as_posix(), s) for p, tree in _trees(CORE) for s in _strings(tree)
           if s.startswith(REQUEST_PREFIXES)]
    assert not bad


def test_the_core_writes_no_json() -> None:
    bad = [(p.relative_to(SERVICE).as_posix(), n.name) for p, tree in _trees(CORE)
           for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and "json" in n.name.lower()]
    assert not bad


def test_the_core_holds_no_json_text() -> None:
    """No template or fragment of a JSON document in the core's strings (the show's
    document was written that way, as text, before it moved to the boundary)."""
    bad = [(p.relative_to(SERVICE).as_posix(), s[:60]) for p, tree in _trees(CORE) for s in _strings(tree)
           if JSON_TEXT.search(s)]
    assert not bad


def test_the_scans_see_what_they_look_for() -> None:
    """The scans above fail on the code they forbid (they cannot pass by seeing nothing)."""
    tree = ast.parse('import orjson\nfrom json import dumps\nraise E(at=f"state/{k}")\ndef to_json(): pass\n')
    assert {"orjson", "json"} <= _imported(tree)
    assert any(s.startswith(REQUEST_PREFIXES) for s in _strings(tree))
    # the show's document as the core once wrote it, and other ways of writing JSON by hand
    for text in ('{"kind":"%s","cards":[%s],"points":%d}', '],"subtotals":{"fifteen":%d', ',"claim":',
                 '{"seat": 0}', '[{ "a" : 1}]'):
        assert any(JSON_TEXT.search(s) for s in _strings(ast.parse(f"x = {text!r}"))), text
    for prose in ("the count said aloud", 'a "go" is true when given', "ACC 8.4.b: a false claim",
                  "an entry has either a card or a go", "{seat}: {n}"):
        assert not JSON_TEXT.search(prose), prose
    assert len(_trees(CORE)) >= 15 and any(p.name == "observe.py" for p, _ in _trees(CORE))


def test_no_location_is_respelled_by_assignment() -> None:
    """A location grows by ``within``/``located``, never by ``exc.field = f"x/{exc.field}"``."""
    bad = [(p.relative_to(SERVICE).as_posix(), n.lineno) for p, tree in _trees(SERVICE) for n in ast.walk(tree)
           if isinstance(n, (ast.Assign, ast.AugAssign))
           for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
           if isinstance(t, ast.Attribute) and t.attr == "field"]
    assert not bad


# -- the resources write no answer themselves ------------------------------------

RESOURCES = SERVICE / "http" / "resources"
BOUNDARY = SERVICE / "boundary"
ERROR_ENTRY = {"field", "reason"}
"""A problem's error entry (RFC 9457, the HTTP layer's own document): ``{"field": pointer, "reason": text}``."""


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _in_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def _called(call: ast.AST) -> str | None:
    """The name a call calls (``f`` of ``f(...)``, ``m`` of ``x.m(...)``)."""
    if not isinstance(call, ast.Call):
        return None
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _allowed_dict(node: ast.Dict, parents: dict[ast.AST, ast.AST]) -> bool:
    """A dict written with string keys that is no answer document: a problem's error
    entry; a ValidationError's messages (keyed by the request's fields); headers;
    or, outside any function, a named table (``PAGES = {...}``, a schema per type)."""
    keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
    parent = parents.get(node)
    if keys == ERROR_ENTRY:
        return True
    if isinstance(parent, ast.Call) and parent.args[:1] == [node] and _called(parent) == "ValidationError":
        return True
    if isinstance(parent, ast.keyword) and parent.arg == "headers":
        return True
    return not _in_function(node, parents) and isinstance(parent, (ast.Assign, ast.AnnAssign))


def answers_composed(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a module composes an answer document itself: (line, what)."""
    parents = _parents(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                              for k in node.keys) and not _allowed_dict(node, parents):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            found.append((node.lineno, f"a dict of {keys[:4]}"))
        elif _called(node) == "dict" and isinstance(node, ast.Call) and node.keywords:
            found.append((node.lineno, "dict(key=...)"))
        elif _called(node) in ("_asdict", "asdict"):
            found.append((node.lineno, "a record's fields as an answer (_asdict)"))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))
              and not isinstance(parents.get(node), ast.Expr)):  # a docstring may show JSON
            text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if JSON_TEXT.search(text):
                found.append((node.lineno, f"JSON text {text[:30]!r}"))
    return found


def test_no_resource_composes_an_answer_document() -> None:
    """A resource parses and validates, calls the core (or advice, tournament) and
    serialises what a :mod:`service.boundary` function returns: no resource module
    writes an answer's fields itself."""
    bad = [(p.name, line, what) for p, tree in _trees(RESOURCES) for line, what in answers_composed(tree)]
    assert not bad


def test_the_resource_scan_sees_what_it_looks_for() -> None:
    """The scan fails on the answers the resources once wrote themselves, and passes
    the dicts that are no answer (it cannot pass by seeing nothing)."""
    composed = [
        'def respond(resp, state):\n    resp.media = {"state": token, "game_id": state.game_id}\n',
        'class Health:\n    BODY = b\'{"status":"ok"}\'\n',
        'def on_post(req, resp):\n    resp.data = orjson.dumps({"standings": [t._asdict() for t in s.table]})\n',
        'def on_post(req, resp):\n    resp.data = b\'{"results":[\' + b",".join(out) + b"]}"\n',
        'def _json(o):\n    return {"action": play_action_json(o.action), "own": o.own}\n',
        'def on_post(req, resp):\n    resp.media = dict(seat=seat, level=level)\n',
        'def f():\n    match: dict[str, Any] = {"match": m, "seeds": list(p.seeds)}\n',
    ]
    for text in composed:
        assert answers_composed(ast.parse(text)), text
    allowed = [
        'def f():\n    raise invalid_request([{"field": "/items", "reason": reason}])\n',
        'def f():\n    raise ValidationError({"hands": ["give every seat\'s hands"]})\n',
        'def f():\n    raise ProblemError(503, headers={"Cache-Control": "no-store"})\n',
        'PAGES = {"scorer": "scorer.html"}\nclass E:\n    _LIMITS = {"spread": (0, 10)}\n',
        'def f():\n    """Entries ``{"seat": s, "card": c}``."""\n    return orjson.dumps(match_json(m))\n',
    ]
    for text in allowed:
        assert not answers_composed(ast.parse(text)), text
    assert len(_trees(RESOURCES)) >= 10 and any(p.name == "games.py" for p, _ in _trees(RESOURCES))


def test_the_boundary_knows_no_http() -> None:
    """The boundary writes JSON shapes of the core's values: nothing of falcon, marshmallow or the HTTP layer."""
    bad = {(p.name, name) for p, tree in _trees(BOUNDARY) for name in _imported(tree)
           if name.split(".")[0] in ("falcon", "marshmallow") or name.startswith("service.http")}
    bad |= {(p.name, f"{'.' * n.level}{n.module}") for p, tree in _trees(BOUNDARY) for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and n.level > 1}  # nothing from above the package, relatively
    assert not bad and len(_trees(BOUNDARY)) >= 15


# -- locations -----------------------------------------------------------------


def test_each_layer_adds_where_its_part_sits() -> None:
    with pytest.raises(MalformedError) as exc, located("state"), located("actions"):
        raise MalformedError("no", at=(3, "cards", 0))
    assert exc.value.at == ("state", "actions", 3, "cards", 0)
    assert pointer(exc.value.at) == "/state/actions/3/cards/0"
    assert exc.value.field == "state/actions/3/cards/0"


def test_a_slash_path_is_read_as_steps() -> None:
    assert MalformedError("no", field="hands/1").at == ("hands", 1)
    assert MalformedError("no", at=("plays",), field="2").at == ("plays", 2)
    assert MalformedError("no").at == () and pointer(()) == ""


def test_pointers_escape_as_rfc_6901_says() -> None:
    assert pointer(("options", "a/b~c")) == "/options/a~1b~0c"


@pytest.fixture(scope="module")
def client() -> falcon.testing.TestClient:
    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


@pytest.mark.parametrize("body, field", [
    ({"options": {"players": 5}}, "/options/players"),
    ({"options": {"colour/shade": 1}}, "/options/colour~1shade"),   # a key holding "/" (RFC 6901)
    ({"options": []}, "/options"),
])
def test_a_core_error_is_answered_at_its_pointer(client: falcon.testing.TestClient, body: dict, field: str) -> None:
    r = client.simulate_post("/v1/games", json=body)
    assert r.status_code == 422
    assert [e["field"] for e in r.json["errors"]] == [field]
    assert r.json["detail"].startswith(field + ": ")


# -- what a viewer sees and is told -----------------------------------------------


def _discarding(players: int = 2):
    state, _ = new_game(GameOptions(players=players, deck="seeded", seed="observe"), dealer=0)
    state, _ = apply_action(state, legal(state)[0])  # the deal
    return state


def test_legal_actions_told_to_each_viewer() -> None:
    state = _discarding()
    assert len(legal_told(state, EVERYONE)) == 2 * comb(6, 2)
    for seat in (0, 1):
        told = legal_told(state, seat)
        assert len(told) == comb(6, 2) and {a.seat for a in told} == {seat}
    assert legal_told(state, None) == []  # a spectator acts for no seat


def test_an_illegal_moves_legal_actions_as_each_viewer_may_see_them() -> None:
    state = _discarding()
    with pytest.raises(IllegalError) as exc:
        apply_action(state, Discard(0, state.position.hands[1][:2]))  # seat 1's cards
    assert len(legal_in_error(exc.value, EVERYONE)) == 2 * comb(6, 2)
    assert {a.seat for a in legal_in_error(exc.value, 0)} == {0}
    assert len(legal_in_error(exc.value, 0)) == comb(6, 2)
    assert legal_in_error(exc.value, None) == []


def test_a_discard_is_seen_by_its_seat_only_and_a_record_by_every_viewer() -> None:
    """A deal's record comes only once every card it names is public (the crib counted, or the
    game over): every viewer is told it (tests/core/game/test_game_properties.py checks when it comes)."""
    state = _discarding()
    mine = state.position.hands[0][:2]
    state, events = apply_action(state, Discard(0, mine))
    (discarded,) = events
    assert type(discarded) is Discarded
    assert events_seen(events, 0) == [discarded] and events_seen(events, EVERYONE) == [discarded]
    for viewer in (1, None):
        assert events_seen(events, viewer) == [UnseenDiscard(discarded.deal, 0, 2)]
    record = DealRecorded(1, ("deal 0",))
    assert events_seen([record], EVERYONE) == [record]
    assert events_seen([record], 0) == [record] and events_seen([record], None) == [record]


def test_each_viewer_sees_its_own_hand_and_nothing_else_before_the_play() -> None:
    state = _discarding(3)
    hands, crib = state.position.hands, state.position.crib
    everyone = table_seen(state, EVERYONE)
    assert everyone.hands == hands and everyone.crib == crib
    for seat in range(3):
        seen = table_seen(state, seat)
        assert seen.hands[seat] == hands[seat]
        assert all(c is None for s, h in enumerate(seen.hands) if s != seat for c in h)
        assert all(c is None for c in seen.crib)  # 3 players: one card straight to the crib, unseen
    spectator = table_seen(state, None)
    assert all(c is None for h in spectator.hands for c in h)


def test_what_a_seat_knows_is_its_own_cards_the_starter_and_the_play() -> None:
    """At every step of random 2, 3 and 4-player games, each seat knows (``seat_seen``)
    the cards it was dealt, or kept after its discard, its own discards, the starter once
    turned and every card or go played this deal, as the rules give them (the test's own
    record of the deal, not observe.py); each of those cards is one ``visible_cards``
    lets it see; and the bot's view is made of exactly that."""
    from service.advice.bot import seat_view
    from service.core.game import Cut, Deal, Go, PlayCard, Phase
    from service.core.game.observe import seat_seen, visible_cards

    rng = random.Random(19)
    steps = 0
    for players in (2, 3, 4):
        state, _ = new_game(GameOptions(players=players, deck="seeded", seed=f"seen-{players}"), dealer=0)
        dealt: dict[int, tuple] = {}
        laid: dict[int, tuple] = {}
        starter = None
        plays: list = []
        for _ in range(150):
            if state.phase is Phase.OVER:
                break
            action = rng.choice(legal(state))
            state, events = apply_action(state, action)
            if type(action) is Deal or any(type(e) is DealRecorded for e in events):
                dealt = {s: tuple(h) for s, h in enumerate(state.position.hands)}  # a new deal
                laid, starter, plays = {}, None, []
            if type(action) is Discard:
                laid[action.seat] = tuple(action.cards)
                dealt[action.seat] = tuple(c for c in dealt[action.seat] if c not in action.cards)
            elif type(action) is Cut:
                starter = state.position.starter
            elif type(action) in (PlayCard, Go):
                plays.append(action)
            for seat in range(players):
                known = seat_seen(state, seat)
                visible = visible_cards(state, seat)
                assert set(known.hand) == set(dealt.get(seat, ())), (seat, action)
                assert known.discards == laid.get(seat, ())
                assert known.starter == starter and list(known.plays) == plays
                cards = [*known.hand, *known.discards, *([starter] if starter is not None else [])]
                assert visible is None or set(cards) <= visible
                view = seat_view(state, seat)
                assert (view.hand, view.discards, view.starter, view.plays) == tuple(known)
                steps += 1
    assert steps > 500
