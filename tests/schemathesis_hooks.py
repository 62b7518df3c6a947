"""schemathesis hooks, shared by pytest (imported from conftest) and the CLI
(``SCHEMATHESIS_HOOKS=tests/schemathesis_hooks.py``).

JSON Schema cannot say "no card twice, spelling-insensitive, and the starter
is not one of the cards" (``uniqueItems`` sees ``5H`` and ``5h`` as
different), nor "this play follows the rules" or "this state is one a game
can reach".  Such bodies are *invalid* for the service (422), so they are
dropped from *positive* generation only; negative generation keeps them.
For the pegging and game operations the rules core itself (not the HTTP
layer under test) says whether a schema-valid body breaks a rule.
"""

from __future__ import annotations

import schemathesis
from marshmallow import ValidationError

from service.core.cards import Card
from service.core.errors import CribbageError, MalformedCardError
from service.core.game import apply_action, new_game
from service.http.actions import game_action_from
from service.http.resources.games import ActionSchema
from service.core.options import GameOptions
from service.core.play import Go, Play, PlayCard, replay, rule_on_go
from service.core.state_json import from_json


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


def _start_game(body: dict) -> None:
    cuts = _cards(body["cuts"]) if "cuts" in body else None
    options = GameOptions(**body.get("options", {}))
    if body.get("view") is not None and body["view"] >= options.players:
        raise ValueError("view")
    new_game(options, body.get("dealer"), cuts)


def _advance_game(body: dict) -> None:
    state = from_json(body["state"])
    action = game_action_from(ActionSchema().load(body["action"]))
    if body.get("view") is not None and body["view"] >= state.players:
        raise ValueError("view")
    apply_action(state, action)


_RULES = {
    "/v1/pegging/score": _pegging_score,
    "/v1/pegging/go": _pegging_go,
    "/v1/games": _start_game,
    "/v1/games/advance": _advance_game,
}


def _breaks_a_rule(path: str, body: object) -> bool:
    check = _RULES.get(path)
    if check is None or not isinstance(body, dict):
        return False
    try:
        check(body)
    except (CribbageError, ValidationError, ValueError, KeyError, TypeError):
        return True
    return False


@schemathesis.hook
def filter_case(context, case) -> bool:
    meta = case.meta
    positive = meta is None or meta.generation.mode.is_positive
    if positive and case.path == "/v1/hands/score" and _gives_a_card_twice(case.body):
        return False
    if positive and _breaks_a_rule(case.path, case.body):
        return False
    return True
