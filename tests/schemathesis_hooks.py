"""schemathesis hooks, shared by pytest (imported from conftest) and the CLI
(``SCHEMATHESIS_HOOKS=tests/schemathesis_hooks.py``).

JSON Schema cannot say "no card twice, spelling-insensitive, and the starter
is not one of the cards" (``uniqueItems`` sees ``5H`` and ``5h`` as
different), nor "this play follows the rules", "this state is one a game
can reach" or "this record replays".  Such bodies are *invalid* for the
service (422), so they are dropped from *positive* generation only; negative
generation keeps them.  For the pegging and game operations the rules core
itself (not the HTTP layer under test) says whether a schema-valid body
breaks a rule.

The game checks assume a plain-mode service (no ``CRIBBAGE_STATE_SECRET``),
which is what the pytest run and the documented CLI run use: there a sealed
state string or a seat token is a 422, so it counts as breaking a rule.
"""

from __future__ import annotations

from typing import Any

import schemathesis

from service.core.cards import Card
from service.core.errors import CribbageError, MalformedCardError
from service.core.game import (Count, Cut, Deal, Discard, GameAction, GameState, apply_action, new_game,
                               parse_action, replay_record)
from service.core.game.state_json import from_json
from service.core.options import GameOptions
from service.core.play import Go, Play, PlayCard, replay, rule_on_go


class _CannotTell(Exception):
    """The core cannot say whether the body is valid: keep the case (let the service answer)."""


def _gives_a_card_twice(body: object) -> bool:
    if not isinstance(body, dict):
        return False
    texts = list(body.get("cards") or []) if isinstance(body.get("cards"), list) else []
    if "starter" in body:
        texts.append(body["starter"])
    seen: set[int] = set()
    for text in texts:
        try:
            card = Card.parse(text)
        except MalformedCardError:
            continue
        if card in seen:
            return True
        seen.add(card)
    return False


def _cards(texts):
    return [Card.parse(t) for t in texts]


def _pegging_score(body: dict) -> None:
    players, plays = body["players"], body["plays"]
    hands = [_cards(h) for h in body["hands"]] if "hands" in body else None
    actions = []
    for entry in plays:
        if ("card" in entry) == ("go" in entry) or entry["seat"] >= players:
            raise ValueError("not one entry")
        actions.append(PlayCard(entry["seat"], Card.parse(entry["card"])) if "card" in entry
                       else Go(entry["seat"]))
    play, _ = replay(Play.start(players, body["pone"], hands, body.get("tournament", False)), actions)
    if body.get("complete") and not play.hand_over:
        raise ValueError("not complete")


def _pegging_go(body: dict) -> None:
    if ("count" in body) == ("count_cards" in body):
        raise ValueError("count or count_cards")
    hand = _cards(body["hand"])
    if "count_cards" in body:
        cards = _cards(body["count_cards"])
        if len(set(cards + hand)) != len(cards) + len(hand) or sum(c.value for c in cards) > 30:
            raise ValueError("bad count")
        count = sum(c.value for c in cards)
    else:
        count = body["count"]
    rule_on_go(count, hand)


def _seat_at_table(seat: Any, players: int) -> None:
    if seat is not None and seat >= players:
        raise ValueError("no such seat")


def _state(raw: Any) -> GameState:
    """A state as a plain-mode service reads it (format 2, or format 1 through its converter)."""
    if not isinstance(raw, dict):
        raise ValueError("plain mode reads state objects, not sealed strings")
    if raw.get("version") == 1:
        try:
            from service.core.game.state_v1 import from_v1
        except ImportError:
            # No converter in the core yet: the core cannot tell, the service must answer.
            raise _CannotTell from None
        return from_v1(raw)
    return from_json(raw)


def _game_action(a: dict) -> GameAction:
    """The core action of a schema-valid ``action`` (the schema already fits its fields to its type)."""
    kind, seat = a["type"], a["seat"]
    if kind == "deal":
        hands = tuple(tuple(_cards(h)) for h in a["hands"]) if "hands" in a else None
        return Deal(seat, hands, tuple(_cards(a.get("crib", ()))))
    if kind == "discard":
        return Discard(seat, tuple(_cards(a["cards"])))
    if kind == "cut":
        return Cut(seat, Card.parse(a["starter"]) if "starter" in a else None)
    if kind == "play":
        return PlayCard(seat, Card.parse(a["card"]), a.get("claim"))
    if kind == "go":
        return Go(seat, a.get("claim"))
    if kind == "count":
        return Count(seat, a.get("claim"))
    raise ValueError(f"no action type {kind!r}")


def _start_game(body: dict) -> None:
    options = GameOptions.from_json(body.get("options", {}))
    _seat_at_table(body.get("view"), options.players)
    new_game(options, body.get("dealer"), _cards(body["cuts"]) if "cuts" in body else None)


def _advance_game(body: dict) -> None:
    if "seat_token" in body:
        raise ValueError("seat tokens belong to sealed games")
    state = _state(body["state"])
    action = _game_action(body["action"])
    _seat_at_table(body.get("view"), state.options.players)
    apply_action(state, action)


def _view_game(body: dict) -> None:
    if "seat_token" in body:
        raise ValueError("seat tokens belong to sealed games")
    state = _state(body["state"])
    _seat_at_table(body.get("seat"), state.options.players)


def _replay_game(body: dict) -> None:
    record = body["record"]
    options = GameOptions.from_json(record.get("options", {}))
    _seat_at_table(record["first_dealer"], options.players)
    replay_record(options, record["first_dealer"], record["game_id"],
                  [parse_action(text) for text in record["actions"]])


_RULES = {
    "/v1/pegging/score": _pegging_score,
    "/v1/pegging/go": _pegging_go,
    "/v1/games": _start_game,
    "/v1/games/advance": _advance_game,
    "/v1/games/view": _view_game,
    "/v1/games/replay": _replay_game,
}


def _breaks_a_rule(path: str, body: object) -> bool:
    check = _RULES.get(path)
    if check is None or not isinstance(body, dict):
        return False
    try:
        check(body)
    except _CannotTell:
        return False
    except (CribbageError, ValueError, KeyError, TypeError, AttributeError):
        return True
    return False


def is_positive(case) -> bool:
    meta = case.meta
    return meta is None or meta.generation.mode.is_positive


@schemathesis.hook
def filter_case(context, case) -> bool:
    positive = is_positive(case)
    if positive and case.path == "/v1/hands/score" and _gives_a_card_twice(case.body):
        return False
    if positive and _breaks_a_rule(case.path, case.body):
        return False
    return True
