"""The WSGI application: ``service.app:app``.

:func:`create_app` wires the thin HTTP layer (:mod:`service.http`) around the
rules core (:mod:`service.core`): parse and validate with marshmallow, call the
core, serialise with orjson.  Every error is ``application/problem+json``.

Configuration (environment, read when the app is created):

``CRIBBAGE_MAX_BODY_BYTES``
    largest request body accepted, default 65536; larger is 413 (the batch,
    standings and bracket take more: :mod:`service.http.limits`).
``CRIBBAGE_OPENAPI``
    another OpenAPI document to serve than the package's (``service/openapi.yaml``).
``CRIBBAGE_HAND_CACHE``
    answers of ``POST /v1/hands/score`` each worker keeps, default 4096; 0: none.
``CRIBBAGE_STATE_CACHE``
    game states each worker remembers having answered, default 2048; 0: none.
``CRIBBAGE_STATE_SECRET``
    when set (16 bytes or more), game states travel sealed (see :mod:`service.seal`).
``CRIBBAGE_LOG_LEVEL``
    ``debug``, ``info`` (default), ``warning`` or ``error``.
``CRIBBAGE_GZIP_MIN_BYTES``
    smallest response body sent gzip-compressed to a client that accepts it,
    default 1024; 0: never compress (:mod:`service.http.compression`).
``CRIBBAGE_GIT_REVISION``
    the git commit ``GET /version`` reports (the image sets it when built).
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import falcon
import structlog

from service.core import engine
from service.core.errors import CribbageError

from .http import head, media
from .http.compression import DEFAULT_MIN_SIZE as DEFAULT_GZIP_MIN_BYTES
from .http.compression import Compression
from .http import limits
from .http.limits import DEFAULT_MAX_BODY_BYTES, body_limits  # noqa: F401  (importable from here too)
from .http.limits import env_int as _env_int
from .http.middleware import Edge
from .http.problems import ProblemError, from_core_error, render_problem
from .http.resources import advice, batch, bots, games, hands, meta, odds, pages, pegging, problem_pages, tournaments
from .http.resources import review
from .boundary import state as state_format
from .seal import Sealer, sealer_from_env

log = structlog.get_logger("service.app")


def configure_logging() -> None:
    """JSON lines on stderr, once per process (a no-op if structlog is set up)."""
    if structlog.is_configured():
        return
    level = getattr(logging, os.environ.get("CRIBBAGE_LOG_LEVEL", "info").upper(), logging.INFO)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )


def _core_error(req: falcon.Request, resp: falcon.Response, ex: CribbageError, params: dict[str, Any]) -> None:
    raise from_core_error(ex)


def _unexpected_error(req: falcon.Request, resp: falcon.Response, ex: Exception, params: dict[str, Any]) -> None:
    log.error(
        "unhandled exception",
        request_id=getattr(req.context, "request_id", None),
        method=req.method,
        path=req.path,
        exc_info=ex,
    )
    raise ProblemError(
        500,
        "internal-error",
        "Internal server error",
        "the server failed to answer this request; quote the request id when reporting it",
    )


_KERNEL_SAID = False


def _say_which_kernel() -> None:
    """One log line a process: which rules kernel runs, and why not the compiled one when it is not."""
    global _KERNEL_SAID
    if not _KERNEL_SAID:
        _KERNEL_SAID = True
        if engine.KERNEL == "compiled":
            log.info("rules kernel", kernel=engine.KERNEL, why=engine.WHY)
        else:
            log.warning("rules kernel", kernel=engine.KERNEL, why=engine.WHY)


def create_app(*, max_body_bytes: int | None = None, collect_metrics: bool = True,
               sealer: Sealer | None | bool = True, gzip_min_bytes: int | None = None,
               state_cache: int | None = None,
               state_format_writes: int | None = None) -> falcon.App[falcon.Request, falcon.Response]:
    """Build the falcon application.  Arguments override the environment:
    ``max_body_bytes`` (else ``CRIBBAGE_MAX_BODY_BYTES``), ``collect_metrics``,
    ``sealer`` (``True``: from ``CRIBBAGE_STATE_SECRET``; ``None``: plain
    states; or a :class:`~service.seal.Sealer`), ``gzip_min_bytes`` (else
    ``CRIBBAGE_GZIP_MIN_BYTES``; 0: no compression) and ``state_cache`` (else
    ``CRIBBAGE_STATE_CACHE``; 0: every state is replayed) and ``state_format_writes`` (else
    ``CRIBBAGE_STATE_FORMAT``: the state format written, 2 or 3)."""
    configure_logging()
    _say_which_kernel()
    if sealer is True:
        sealer = sealer_from_env()
    limit = limits.max_body_bytes() if max_body_bytes is None else max_body_bytes
    middleware: list[Edge | Compression] = [Edge(limit, collect_metrics=collect_metrics, limits=body_limits(limit))]
    gzip_min = _env_int("CRIBBAGE_GZIP_MIN_BYTES", DEFAULT_GZIP_MIN_BYTES) if gzip_min_bytes is None \
        else gzip_min_bytes
    if gzip_min:
        middleware.append(Compression(min_size=gzip_min))
    app = falcon.App(middleware=middleware, router=head.Router())
    media.install(app)
    app.set_error_serializer(render_problem)
    app.add_error_handler(Exception, _unexpected_error)
    app.add_error_handler(CribbageError, _core_error)

    app.add_route("/healthz", meta.Health())
    document = meta.OpenAPIDocument()
    app.add_route("/openapi.yaml", document)
    app.add_route("/readyz", meta.Ready(app, state="sealed" if sealer else "plain"))
    app.add_route("/version", meta.Version(document.data))
    app.add_route("/problems/{slug}", problem_pages.ProblemPage())
    app.add_route("/docs", meta.Docs())
    app.add_static_route("/docs/static", meta.swagger_ui_dir())
    app.add_route("/metrics", meta.Metrics())

    hand_score = hands.HandScore(_env_int("CRIBBAGE_HAND_CACHE", 4096))
    app.add_route("/v1/hands/score", hand_score)
    app.add_route("/v1/hands/score-batch", batch.HandScoreBatch(hand_score))
    app.add_route("/v1/matches/score", tournaments.MatchScore())
    app.add_route("/v1/tournaments/standings", tournaments.Standings())
    app.add_route("/v1/tournaments/bracket", tournaments.Bracket())
    app.add_route("/v1/pegging/score", pegging.PeggingScore())
    app.add_route("/v1/pegging/go", pegging.PeggingGo())
    cache = _env_int("CRIBBAGE_STATE_CACHE", 2048) if state_cache is None else state_cache
    writes = _env_int("CRIBBAGE_STATE_FORMAT", state_format.VERSION) if state_format_writes is None \
        else state_format_writes
    if writes not in (state_format.VERSION, state_format.NEXT):
        raise ValueError(f"CRIBBAGE_STATE_FORMAT is {state_format.VERSION} or {state_format.NEXT}")
    reader = games.StateReader(sealer or None, cache, writes)
    app.add_route("/v1/games", games.GameStart(reader))
    app.add_route("/v1/games/advance", games.GameAdvance(reader))
    app.add_route("/v1/games/view", games.GameView(reader))
    app.add_route("/v1/games/contribute", games.GameContribute(reader))
    app.add_route("/v1/games/replay", games.GameReplay(sealer or None))
    app.add_route("/v1/discards", advice.Discards())
    app.add_route("/v1/pegging/advise", advice.PeggingAdvise())
    app.add_route("/v1/games/suggest", advice.GameSuggest(reader))
    app.add_route("/v1/games/bots", advice.GameBots(reader))
    app.add_route("/v1/games/review", review.GameReview(reader))
    app.add_route("/v1/odds", odds.Odds(reader))
    app.add_route("/v1/bots", bots.Bots(gzip_min))

    # The playground (service/web/static/): pages on the API above, no build step, no CDN.
    files = pages.load_static()
    app.add_route("/", pages.Page(files))
    app.add_route("/play/{page}", pages.Page(files))
    app.add_route("/play/static/{name}", pages.Asset(files))
    return app


app = create_app()
