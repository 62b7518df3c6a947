"""Write the answers of the advice operations' examples into openapi.yaml, from the service itself.

Each request example of ``POST /v1/discards``, ``/v1/pegging/advise``, ``/v1/games/suggest`` and
``/v1/odds`` is sent to the service in-process (plain mode, as the tests send it), and the response
example of the same name is replaced, in place, by the live answer (one line of JSON, which YAML reads
as it is).  The GET operations of ``GET_PATHS`` (``/v1/bots``, the bot catalogue: its figures are the
release's data) have one example, the 200's, replaced alike (``tests/http/test_http_catalogue.py``
compares it).  The answers depend on the advisors, the model of hidden cards and the win-probability
tables, so when one of them changes the examples are made again here (``tests/http/test_http_advice.py``
sends each and compares)::

    python tools/live_examples.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import falcon.testing
import orjson
import yaml

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "service" / "openapi.yaml"
PATHS = ("/v1/discards", "/v1/pegging/advise", "/v1/games/suggest", "/v1/odds")
GET_PATHS = ("/v1/bots",)


def _client() -> falcon.testing.TestClient:
    sys.path.insert(0, str(ROOT))
    from service.app import create_app

    return falcon.testing.TestClient(create_app())


def answers(doc: dict[str, Any], path: str, client: falcon.testing.TestClient) -> dict[str, tuple[int, Any]]:
    """Each request example's live answer (the request id left out), by its name."""
    op = doc["paths"][path]["post"]
    out = {}
    for name, example in op["requestBody"]["content"]["application/json"]["examples"].items():
        got = client.simulate_post(path, json=example["value"])
        body = dict(got.json)
        body.pop("request_id", None)
        out[name] = (got.status_code, body)
    return out


def rewrite(text: str, path: str, live: dict[str, tuple[int, Any]]) -> tuple[str, list[str]]:
    """``text`` with the response examples of ``path`` replaced by ``live``; the names replaced."""
    lines = text.split("\n")
    start = lines.index(f"  {path}:")
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"^  \S", lines[i]))
    responses = next(i for i in range(start, end) if lines[i].strip() == "responses:")
    status = None
    done = []
    i = responses
    while i < end:
        m = re.match(r"^\s+'?(\d{3})'?:$", lines[i])
        if m:
            status = int(m.group(1))
        m = re.match(r"^(\s+)(\w+):$", lines[i])
        if m and m.group(2) in live and live[m.group(2)][0] == status:
            j = i + 1
            while not lines[j].lstrip().startswith("value:"):
                j += 1
            indent = lines[j][:len(lines[j]) - len(lines[j].lstrip())]
            lines[j] = indent + "value: " + orjson.dumps(live[m.group(2)][1]).decode()
            done.append(m.group(2))
            i = j
        i += 1
    return "\n".join(lines), done


def rewrite_get(text: str, path: str, body: Any) -> str:
    """``text`` with the 200 example of ``GET path`` (one ``example:`` line) replaced by ``body``."""
    lines = text.split("\n")
    start = lines.index(f"  {path}:")
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"^  \S", lines[i]))
    ok = next(i for i in range(start, end) if lines[i].strip() == "'200':")
    j = next(i for i in range(ok, end) if lines[i].lstrip().startswith("example:"))
    indent = lines[j][:len(lines[j]) - len(lines[j].lstrip())]
    lines[j] = indent + "example: " + orjson.dumps(body).decode()
    return "\n".join(lines)


def main() -> int:
    text = SPEC.read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    client = _client()
    for path in PATHS:
        text, done = rewrite(text, path, answers(doc, path, client))
        print(f"{path}: {', '.join(done) or 'nothing'}")
    for path in GET_PATHS:
        got = client.simulate_get(path)
        assert got.status_code == 200, (path, got.text)
        text = rewrite_get(text, path, got.json)
        print(f"GET {path}: the 200 example")
    SPEC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
