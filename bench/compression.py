"""What gzip (service/http/compression.py) saves and costs, in-process.

* Sizes: the answers of the bench bodies (hands/score, games/advance, plain
  and sealed), /openapi.yaml and /metrics, as sent and gzip-compressed.
* Cost: raw WSGI calls of the same app built with the middleware
  (``CRIBBAGE_GZIP_MIN_BYTES`` default) and without it (``0``), with and
  without ``Accept-Encoding: gzip``; min over interleaved rounds (see
  bench/inprocess.py).  The hot path, small hand scores, is below the
  threshold: its line should be the same with the middleware as without,
  up to the middleware's own call.
"""

from __future__ import annotations

import os
import statistics
import zlib
from typing import Callable

import falcon.testing

from bench import bodies, inprocess

SECRET = "b" * 32


def _app(gzip_min: str, sealed: bool = False):
    from service.app import create_app
    from service.seal import Sealer

    old = os.environ.get("CRIBBAGE_GZIP_MIN_BYTES")
    os.environ["CRIBBAGE_GZIP_MIN_BYTES"] = gzip_min
    try:
        return create_app(collect_metrics=False, sealer=Sealer(SECRET) if sealed else None)
    finally:
        if old is None:
            os.environ.pop("CRIBBAGE_GZIP_MIN_BYTES", None)
        else:
            os.environ["CRIBBAGE_GZIP_MIN_BYTES"] = old


def _calls(app, requests, accept: str | None) -> Callable[[int], None]:
    return inprocess._wsgi(app, requests, {"Accept-Encoding": accept} if accept else None)


def _sizes(app, requests) -> tuple[list[int], list[int]]:
    client = falcon.testing.TestClient(app)
    plain, packed = [], []
    for method, path, body in requests:
        r = client.simulate_request(method, path, body=body or None,
                                    headers={"Content-Type": "application/json", "Accept-Encoding": "gzip"})
        packed.append(len(r.content))
        plain.append(len(zlib.decompress(r.content, 47)) if r.headers.get("content-encoding") == "gzip"
                     else len(r.content))
    return plain, packed


def _line(label: str, plain: list[int], packed: list[int]) -> None:
    compressed = sum(1 for a, b in zip(plain, packed) if a != b)
    print(f"  {label:<34} median {statistics.median(plain):7.0f} B -> {statistics.median(packed):7.0f} B"
          f"  (total {sum(packed) / sum(plain):5.1%}; {compressed}/{len(plain)} compressed)", flush=True)


def bench() -> None:
    scores = bodies.score_requests()
    advances, _ = bodies.advance_requests()
    with_gzip, without = _app("1024"), _app("0")
    print("== gzip (service/http/compression.py): answer sizes, as sent to a client accepting gzip ==")
    _line("POST /v1/hands/score (200 hands)", *_sizes(with_gzip, scores))
    _line("POST /v1/games/advance (plain)", *_sizes(with_gzip, advances))
    sealed = _app("1024", sealed=True)
    start = falcon.testing.TestClient(sealed).simulate_post("/v1/games", json={"dealer": 0})
    _line("POST /v1/games (sealed)", *_sizes(sealed, [("POST", "/v1/games", b'{"dealer": 0}')]))
    print(f"    (a sealed start answer: {len(start.content)} B uncompressed)")
    for path in ("/openapi.yaml", "/metrics"):
        _line(f"GET {path}", *_sizes(with_gzip, [("GET", path, b"")]))

    print(f"== gzip: cost a call, raw WSGI (min over {inprocess.ROUNDS} interleaved rounds of {inprocess.N}) ==")
    cases = {
        "hands/score, no middleware": _calls(without, scores, "gzip"),
        "hands/score, middleware, no Accept-Encoding": _calls(with_gzip, scores, None),
        "hands/score, middleware, gzip accepted": _calls(with_gzip, scores, "gzip, deflate, br"),
        "games/advance, no middleware": _calls(without, advances, "gzip"),
        "games/advance, middleware, gzip accepted": _calls(with_gzip, advances, "gzip, deflate, br"),
    }
    inprocess._print(inprocess.measure(cases), width=48)
