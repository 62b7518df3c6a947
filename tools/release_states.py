"""Print the game states a release writes, as JSON, for tests/states/<release>.json.

Run from a checkout of the release (``git archive <tag> | tar -x -C DIR``; then
``PYTHONPATH=DIR python tools/release_states.py <commit> > tests/states/<release>.json``):
a seeded game played 40 actions in (the third deal, with a history and pegs),
first legal action each time, plain and sealed under a test secret.  A later
release must still read every file there (tests/system/test_state_versions.py).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import falcon.testing

from service._version import __version__
from service.app import create_app
from service.seal import Sealer

SECRET = "rollout fixtures: a test secret of 32+ characters"
STEPS = 40


def play(client: falcon.testing.TestClient, sealed: bool) -> tuple[dict[str, Any], list[str] | None]:
    r = client.simulate_post("/v1/games", json={"options": {"deck": "seeded", "seed": "r" * 32}})
    assert r.status_code == 201, r.text
    body, tokens = r.json, r.json.get("seat_tokens")
    for _ in range(STEPS):
        acts = body["legal_actions"]
        if sealed:  # the seat to act sees its own legal actions
            seat = body["to_act"][0]
            v = client.simulate_post("/v1/games/view", json={"state": body["state"], "seat_token": tokens[seat]})
            acts = v.json["legal_actions"]
        req = {"state": body["state"], "action": acts[0]}
        if sealed:
            req["seat_token"] = tokens[acts[0]["seat"]]
        r = client.simulate_post("/v1/games/advance", json=req)
        assert r.status_code == 200, r.text
        body = r.json
    return body, tokens


def main() -> None:
    plain, _ = play(falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False)), False)
    sealed, tokens = play(falcon.testing.TestClient(create_app(sealer=Sealer(SECRET), collect_metrics=False)), True)
    print(json.dumps({"release": __version__, "commit": sys.argv[1] if len(sys.argv) > 1 else None,
                      "seq": plain["seq"], "plain": plain["state"],
                      "sealed": {"secret": SECRET, "state": sealed["state"], "seat_tokens": tokens}}, indent=1))


if __name__ == "__main__":
    main()
