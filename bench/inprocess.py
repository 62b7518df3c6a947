"""What one request costs in-process, and what each piece of it costs.

The machine is shared: every figure is the *minimum* over many short rounds
(``ROUNDS`` of ``N`` calls), the rounds of all cases interleaved, so that a
busy moment slows every case alike and the minimum is what the code costs.

* Raw WSGI calls (no server, no sockets, no test client): the empty falcon
  endpoint and the service's hot endpoints, with and without the answer cache.
* The middleware (:class:`service.http.middleware.Edge`): the same falcon app
  with and without it, and its pieces alone (request id, a metrics update,
  CORS on a request with ``Origin``).
* The schemas: ``HandScoreRequest.load`` and each field's ``deserialize``,
  marshmallow's floor (an empty schema), the "no card twice" check.
* The answer: ``score_show`` + ``show_json_text`` (the boundary's JSON), and a cache hit.
"""

from __future__ import annotations

import io
import os
import time
from typing import Callable

import falcon
import falcon.testing
import orjson

ROUNDS = int(os.environ.get("BENCH_ROUNDS_INPROCESS", "25"))
N = 300  # calls a round


def _wsgi(app: falcon.App, requests: list[tuple[str, str, bytes]],
          extra_headers: dict[str, str] | None = None) -> Callable[[int], None]:
    envs = []
    for method, path, body in requests:
        headers = {"Content-Type": "application/json"} if body else {}
        headers.update(extra_headers or {})
        envs.append((falcon.testing.create_environ(path, method=method, body=body, headers=headers), body))
    statuses: list[str] = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    def run(n: int) -> None:
        m = len(envs)
        for i in range(n):
            env, body = envs[i % m]
            env = env.copy()
            env["wsgi.input"] = io.BytesIO(body)
            for _ in app(env, start_response):
                pass
        bad = [s for s in statuses if not s.startswith("2")]
        if bad:
            raise RuntimeError(f"{bad[0]} from {envs[0][0]['PATH_INFO']}")
        statuses.clear()

    return run


def _loop(fn: Callable[[object], object], items: list) -> Callable[[int], None]:
    def run(n: int) -> None:
        m = len(items)
        for i in range(n):
            fn(items[i % m])
    return run


def measure(cases: dict[str, Callable[[int], None]], rounds: int = ROUNDS, n: int = N) -> dict[str, float]:
    """Microseconds a call: the minimum over ``rounds`` interleaved rounds of ``n`` calls."""
    best = dict.fromkeys(cases, float("inf"))
    for f in cases.values():
        f(10)  # warm up (and fail early)
    for _ in range(rounds):
        for name, f in cases.items():
            t = time.perf_counter()
            f(n)
            best[name] = min(best[name], (time.perf_counter() - t) / n)
    return {name: v * 1e6 for name, v in best.items()}


def _print(costs: dict[str, float], base: str | None = None, width: int = 44) -> None:
    for name, us in costs.items():
        extra = f"  (+{us - costs[base]:5.1f} over {base})" if base and name != base else ""
        print(f"  {name:<{width}} {us:7.2f} us{extra}", flush=True)


def bench(scores, pegging, gos) -> None:
    from bench import empty_app
    from service.app import create_app
    from service.http.middleware import Edge
    from service.http.resources import meta

    print(f"== HTTP in-process, raw WSGI calls (min over {ROUNDS} interleaved rounds of {N}) ==", flush=True)
    service = create_app()
    no_cache = create_app()
    from service.http.resources.hands import HandScore
    no_cache.add_route("/v1/hands/score", HandScore(cache_size=0))
    _print(measure({
        "empty app POST /empty": _wsgi(empty_app.app, [("POST", "/empty", b) for _, _, b in scores]),
        "POST /v1/hands/score": _wsgi(service, scores),
        "POST /v1/hands/score, no answer cache": _wsgi(no_cache, scores),
        "POST /v1/pegging/score": _wsgi(service, pegging),
        "POST /v1/pegging/go": _wsgi(service, gos),
        "empty app GET /healthz": _wsgi(empty_app.app, [("GET", "/healthz", b"")]),
        "GET /healthz": _wsgi(service, [("GET", "/healthz", b"")]),
    }), base="empty app POST /empty")

    print("-- the middleware (service.http.middleware.Edge) --", flush=True)

    def bare(*middleware):
        app = falcon.App(middleware=list(middleware))
        app.add_route("/healthz", meta.Health())
        return _wsgi(app, [("GET", "/healthz", b"")])

    from service.http import metrics
    from service.http.wire import new_request_id

    cors = falcon.CORSMiddleware(allow_origins="*", expose_headers=["X-Request-ID"])
    req = falcon.Request(falcon.testing.create_environ("/healthz", headers={"Origin": "https://example.org"}))
    resp = falcon.Response()
    costs = measure({
        "falcon app, no middleware, GET /healthz": bare(),
        "the same with Edge": bare(Edge(65536)),
        "the same with Edge, no metrics": bare(Edge(65536, collect_metrics=False)),
        "request id (new_request_id: getrandbits)": _loop(lambda _: new_request_id(), [0]),
        "metrics.observe (buffered)": _loop(lambda _: metrics.observe("GET", "/healthz", 200, 0.0004), [0]),
        "CORS headers, a request with Origin": _loop(
            lambda _: cors.process_response(req, resp, None, True), [0]),
    })
    base = costs.pop("falcon app, no middleware, GET /healthz")
    print(f"  {'falcon app, no middleware, GET /healthz':<44} {base:7.2f} us")
    for name, us in costs.items():
        extra = f"  (+{us - base:5.1f})" if name.startswith("the same") else ""
        print(f"  {name:<44} {us:7.2f} us{extra}")
    metrics.flush()

    print("-- the schema (marshmallow) of POST /v1/hands/score, and the answer --", flush=True)
    from marshmallow import Schema

    from service.core.show import score_show
    from service.http.resources.hands import show_body
    from service.http.schemas import Cards, CardField, HandScoreRequest, StrictBoolean

    datas = [orjson.loads(b) for _, _, b in scores]
    schema = HandScoreRequest()
    loaded = [schema.load(d) for d in datas]
    cards, card, flag, empty = Cards(4, what="a hand"), CardField(), StrictBoolean(), Schema()
    cached = HandScore().body
    for d in loaded:
        cached(d["cards"], d["starter"], d["crib"])
    _print(measure({
        "orjson.loads (the body)": _loop(orjson.loads, [b for _, _, b in scores]),
        "HandScoreRequest().load": _loop(schema.load, datas),
        "  marshmallow's floor: Schema().load({})": _loop(lambda _: empty.load({}), [0]),
        "  cards: Cards(4).deserialize": _loop(lambda d: cards.deserialize(d["cards"]), datas),
        "  starter: CardField().deserialize": _loop(lambda d: card.deserialize(d["starter"]), datas),
        "  crib: StrictBoolean().deserialize": _loop(lambda d: flag.deserialize(d["crib"]), datas),
        "  no card twice (DistinctCardsSchema)": _loop(schema._no_card_twice, loaded),
        "score_show": _loop(lambda d: score_show(d["cards"], d["starter"], d["crib"]), loaded),
        "the answer: show_body (show_json_text, bytes)": _loop(lambda d: show_body(d["cards"], d["starter"], d["crib"]),
                                                        loaded),
        "the answer from the cache (a hit)": _loop(lambda d: cached(d["cards"], d["starter"], d["crib"]), loaded),
    }))
