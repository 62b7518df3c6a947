"""Write the sealed-record examples of ``POST /v1/games/replay`` and ``/v1/games/contribute`` into
openapi.yaml.

A sealed game (format 3) to 61, first legal action each time, played under the test secret the
sealed examples use (tests/http/test_schemathesis.py's ``EXAMPLE_SECRET``); its whole record, sealed, is
the request; the service's answers to it and to the record altered are the responses.  Run after a
change of the record's shape: ``python tools/record_examples.py``.  The lines between the
``BEGIN sealed record`` and ``END sealed record`` markers are replaced.
"""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import falcon.testing

from service.app import create_app
from service.seal import Sealer

ROOT = pathlib.Path(__file__).resolve().parent.parent
SECRET = "x" * 32


def sealed_record(c: falcon.testing.TestClient) -> dict[str, Any]:
    r = c.simulate_post("/v1/games", json={"options": {"target": 61}})
    body, tokens = r.json, r.json["seat_tokens"]
    while body["phase"] != "over":
        seat = body["to_act"][0]
        v = c.simulate_post("/v1/games/view", json={"state": body["state"], "seat_token": tokens[seat]}).json
        body = c.simulate_post("/v1/games/advance", json={"state": body["state"], "action": v["legal_actions"][0],
                                                          "seat_token": tokens[seat]}).json
    record: dict[str, Any] = body["record"]
    return record


def altered(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its last count claiming a point more: sealed no more."""
    return {**record, "actions": record["actions"][:-1] + [record["actions"][-1] + " =1"]}


def block(indent: int, items: dict[str, tuple[str, Any]]) -> list[str]:
    pad = " " * indent
    out = []
    for name, (summary, value) in items.items():
        out += [f"{pad}{name}:", f"{pad}  summary: {json.dumps(summary)}", f"{pad}  value: {json.dumps(value)}"]
    return out


def main() -> None:
    c = falcon.testing.TestClient(create_app(sealer=Sealer(SECRET), collect_metrics=False, state_format_writes=3))
    record = sealed_record(c)
    good = c.simulate_post("/v1/games/replay", json={"record": record})
    bad = c.simulate_post("/v1/games/replay", json={"record": altered(record)})
    assert good.status_code == 200 and bad.status_code == 422, (good.text, bad.text)
    start = c.simulate_post("/v1/games", json={}).json
    contribution = {"state": start["state"], "seat_token": start["seat_tokens"][0], "contribution": "5e" * 32}
    given = c.simulate_post("/v1/games/contribute", json=contribution)
    plain = falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))
    plain_state = plain.simulate_post("/v1/games", json={"dealer": 0}).json["state"]
    refused = plain.simulate_post("/v1/games/contribute", json={"state": plain_state, "contribution": "5e" * 32})
    assert given.status_code == 200 and refused.status_code == 422, (given.text, refused.text)
    blocks = {
        "contribute request": block(14, {
            "sealedContribution": ("Seat 0 adds its entropy to a committed game, before the first deal", contribution),
            "plainGame": ("A plain game takes none (its platform sees the deck seed)",
                          {"state": plain_state, "contribution": "5e" * 32})}),
        "contribute 200": block(16, {
            "sealedContribution": ("Seat 0's view: the new state and every contribution so far", given.json)}),
        "contribute 422": block(16, {"plainGame": ("Contributions belong to sealed games", refused.json)}),
        "request": block(14, {
            "sealedRecord": ("A finished sealed game's whole record, as its last answer gave it", {"record": record}),
            "sealedRecordAltered": ("The same record, its last count altered", {"record": altered(record)})}),
        "200": block(16, {"sealedRecord": ("The sealed record: its seal checked, replayed and verified", good.json)}),
        "422": block(16, {"sealedRecordAltered": ("A sealed record altered after it was sealed", bad.json)}),
    }
    path = ROOT / "service" / "openapi.yaml"
    text = path.read_text(encoding="utf-8")
    for where, lines in blocks.items():
        pattern = re.compile(rf"(?m)^( *)# BEGIN sealed record {where}\n(.*\n)*?\1# END sealed record {where}\n")
        m = pattern.search(text)
        assert m is not None, where
        pad = m.group(1)
        new = f"{pad}# BEGIN sealed record {where}\n" + "".join(line + "\n" for line in lines) \
            + f"{pad}# END sealed record {where}\n"
        text = text[:m.start()] + new + text[m.end():]
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
