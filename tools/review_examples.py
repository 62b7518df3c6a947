"""Write the examples of ``POST /v1/games/review`` into openapi.yaml (between its ``BEGIN review``
and ``END review`` comment lines), from a seeded game the service plays and reviews itself.

The answers depend on the advisors and on the win-probability table, so when either changes
the examples are made again here (``tests/http/test_review_http.py`` sends each and compares)::

    python tools/review_examples.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import falcon.testing

from service.advice import bot
from service.app import create_app
from service.boundary.state import state_to_json
from service.core.game import apply_action, new_game
from service.core.options import GameOptions

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "service" / "openapi.yaml"
OPTIONS = {"deck": "seeded", "seed": "openapi-example", "target": 61}
GAME_ID = "5f1c0a7e9b2d4c6e8a0b1c2d3e4f5061"
LEVELS = {0: "strong", 1: "greedy"}
"""Seat 0 plays the strong bot, seat 1 the greedy one: the review has something to say."""


def example_game() -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """A seeded 61-point game, strong against greedy: its final state, its record and its first deal."""
    state, _ = new_game(GameOptions(**OPTIONS), dealer=0, game_id=GAME_ID)  # type: ignore[arg-type]
    record: list[str] = []
    first_deal: list[str] = []
    while state.phase != "over":
        seat = state.to_act()[0]
        state, events = apply_action(state, bot.suggest(bot.seat_view(state, seat), LEVELS[seat]).action)
        for e in events:
            if e.type == "deal_record":
                first_deal = first_deal or list(e.record)
                record.extend(e.record)
    game = {"game_id": GAME_ID, "options": OPTIONS, "first_dealer": 0}
    return state_to_json(state), {**game, "actions": record}, first_deal


def examples() -> dict[str, list[tuple[str, str, Any]]]:
    """Per block: (name, summary, value)."""
    state, record, first_deal = example_game()
    requests = [
        ("finishedState", "A finished game's state: its last deal reviewed", {"state": state}),
        ("wholeGame", "A finished game's record (61 points, strong seat 0 against greedy seat 1)", {"record": record}),
        ("unfinished", "The record of a game not over (its first deal)",
         {"record": {**{k: v for k, v in record.items() if k != "actions"}, "actions": first_deal}}),
    ]
    client = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))
    answers: dict[str, list[tuple[str, str, Any]]] = {"request": [], "response": [], "problem": []}
    for name, summary, body in requests:
        answers["request"].append((name, summary, body))
        got = client.simulate_post("/v1/games/review", json=body)
        value = dict(got.json)
        value.pop("request_id", None)
        answers["response" if got.status_code == 200 else "problem"].append((name, summary, value))
    return answers


def write(spec: Path = SPEC) -> None:
    text = spec.read_text(encoding="utf-8")
    for block, items in examples().items():
        pattern = re.compile(rf"^( *)# BEGIN review {block} examples[^\n]*\n.*?^ *# END review {block} examples\n",
                             re.M | re.S)
        match = pattern.search(text)
        if match is None:
            raise SystemExit(f"no BEGIN/END review {block} examples block in {spec}")
        pad = match.group(1)
        lines = [match.group(0).splitlines(keepends=True)[0]]
        for name, summary, value in items:
            lines += [f"{pad}{name}:\n", f"{pad}  summary: {json.dumps(summary)}\n",
                      f"{pad}  value: {json.dumps(value, separators=(', ', ': '))}\n"]
        lines.append(f"{pad}# END review {block} examples\n")
        text = text[:match.start()] + "".join(lines) + text[match.end():]
    spec.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
