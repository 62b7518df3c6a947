"""Command line for the cribbage rules service: ``cribbage-service``.

Subcommands
-----------
``score 5H 5C 5S JD --starter 5D [--crib] [--json]``
    Count a hand (or, with ``--crib``, the crib): one line per scoring item
    (kind, cards, points), the subtotals per kind, the spoken call and the
    total; ``--json`` prints the document ``POST /v1/hands/score`` answers
    (``cards``, ``starter``, ``crib``, ``total``, ``breakdown``,
    ``subtotals``, ``call``).  Bad input (an unknown card, a card given twice,
    not four cards) prints a message on stderr and exits with status 2.
``distribution [--crib] [--json]``
    Count every one of the 12,994,800 (four cards, starter) deals and print
    how many score each total 0..29, the mean and the impossible totals.
``serve [--host HOST] [--port PORT]``
    Run the HTTP service under gunicorn with the package's settings
    (:mod:`service.gunicorn_conf`, the same as the checkout's
    ``gunicorn.conf.py``), so an installed wheel serves without a checkout;
    the environment variables of the README's "Configuration" apply.

``--version`` prints the service's release.  Output cut short by its reader
(``cribbage-service distribution | head -1``) ends quietly, with status 141
as a Unix tool killed by SIGPIPE.  The rules are docs/rules.md.

Only the rules core is imported here; the web stack is gunicorn's business.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import Sequence

from service._version import __version__
from service.boundary.show import show_json_text
from service.core.cards import Card, parse_cards
from service.core.errors import CribbageError
from service.core.show import KINDS, ShowScore, score_show

GUNICORN_CONF = "python:service.gunicorn_conf"
"""The gunicorn settings, a module of the package (gunicorn's ``-c python:<module>``)."""

CLOSED_PIPE_STATUS = 128 + signal.SIGPIPE
"""The status when the reader of stdout went away: what a shell reports for a tool killed by SIGPIPE."""


def _print_score(score: ShowScore) -> None:
    what = "crib" if score.crib else "hand"
    print(f"{what}: {' '.join(str(c) for c in score.hand)}  starter: {score.starter}")
    if score.items:
        width = max(len(" ".join(str(c) for c in i.cards)) for i in score.items)
        for item in score.items:
            cards = " ".join(str(c) for c in item.cards)
            print(f"  {item.kind:<8} {cards:<{width}}  {item.points:>2}")
    else:
        print("  (no scoring combinations)")
    subtotals = score.subtotals
    print("subtotals: " + ", ".join(f"{k} {subtotals[k]}" for k in KINDS))
    print(f"call: {score.call}")
    print(f"total: {score.total}")


def _cmd_score(args: argparse.Namespace) -> int:
    try:
        hand = parse_cards(args.cards)
        starter = Card.parse(args.starter)
        score = score_show(hand, starter, crib=args.crib)
    except CribbageError as exc:
        print(f"cribbage-service score: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(show_json_text(score))
    else:
        _print_score(score)
    return 0


def _cmd_distribution(args: argparse.Namespace) -> int:
    from service.core.distribution import distribution

    dist = distribution(args.crib)
    deals = dist.deals
    if args.json:
        print(json.dumps({
            "crib": dist.crib,
            "deals": deals,
            "counts": {str(t): n for t, n in enumerate(dist.counts)},
            "mean": dist.mean,
            "impossible": dist.impossible,
        }))
        return 0
    print(f"{'crib' if dist.crib else 'hand'} totals over every deal of four cards and a starter")
    print(f"{'total':>5}  {'count':>10}  {'percent':>9}")
    for total, n in enumerate(dist.counts):
        print(f"{total:>5}  {n:>10,}  {100 * n / deals:>8.4f}%")
    print(f"deals: {deals:,}")
    print(f"mean: {dist.mean:.4f}")
    print("impossible: " + (", ".join(str(t) for t in dist.impossible) or "none"))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    argv = ["gunicorn", "-c", GUNICORN_CONF, "service.app:app"]
    if args.host is not None:
        os.environ["HOST"] = args.host  # the settings bind HOST:PORT
    if args.port is not None:
        os.environ["PORT"] = str(args.port)
    # Prefer the gunicorn installed beside this Python (the virtualenv's), so
    # `serve` works even when that bin directory is not on PATH.
    local = Path(sys.executable).parent / "gunicorn"
    program = str(local) if local.exists() else "gunicorn"
    try:
        os.execvp(program, argv)
    except OSError as exc:  # gunicorn not installed or not on PATH
        print(f"cribbage-service serve: cannot run gunicorn: {exc}", file=sys.stderr)
        return 1
    return 0  # not reached: execvp replaces the process


def port_number(text: str) -> int:
    port = int(text)
    if not 0 <= port <= 65535:
        raise ValueError(text)
    return port


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cribbage-service",
        description="Cribbage rules: count a hand, tabulate every hand, or serve the HTTP API.",
        epilog="The rules: docs/rules.md.  The API: GET /docs of a running service.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    score = sub.add_parser(
        "score",
        help="count a hand or crib (four cards plus the starter)",
        description="Count four cards and the starter: fifteens, pairs, runs, flush, nobs.",
    )
    score.add_argument("cards", nargs="+", metavar="CARD",
                       help="the four hand (or crib) cards, e.g. 5H 10C TS Q♦")
    score.add_argument("--starter", "-s", required=True, metavar="CARD", help="the starter card")
    score.add_argument("--crib", action="store_true",
                       help="count as the crib (a flush needs all five cards)")
    score.add_argument("--json", action="store_true", help="print JSON instead of text")
    score.set_defaults(func=_cmd_score)

    dist = sub.add_parser(
        "distribution",
        help="how many of the 12,994,800 deals score each total",
        description="Count every (four cards, starter) deal.",
    )
    dist.add_argument("--crib", action="store_true", help="count the deals as cribs")
    dist.add_argument("--json", action="store_true", help="print JSON instead of a table")
    dist.set_defaults(func=_cmd_distribution)

    serve = sub.add_parser(
        "serve",
        help="run the HTTP service under gunicorn",
        description="Run the HTTP service (the API, /docs, the playground) under gunicorn with the "
                    "package's settings (service/gunicorn_conf.py), in the foreground until stopped "
                    "(SIGTERM or Ctrl-C: the requests in hand are finished first).",
        epilog="Environment: HOST (default 0.0.0.0), PORT (8000), WEB_CONCURRENCY (worker processes: "
               "one a CPU, 2 to 8), GUNICORN_THREADS (4), CRIBBAGE_STATE_SECRET (sealed games), "
               "CRIBBAGE_MAX_BODY_BYTES, CRIBBAGE_OPENAPI and the others of the README's "
               "\"Configuration\".",
    )
    serve.add_argument("--host", metavar="HOST", help="address to listen on (sets HOST)")
    serve.add_argument("--port", type=port_number, metavar="PORT", help="port to listen on (sets PORT)")
    serve.set_defaults(func=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version, or a usage error already printed by argparse
            return exc.code if isinstance(exc.code, int) else 2
        status: int = args.func(args)
        sys.stdout.flush()  # here, where a closed pipe can still be caught
        return status
    except BrokenPipeError:
        # The reader went away (`| head -1`).  Python would try stdout again at exit and
        # print a traceback: point it at /dev/null and stop, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE_STATUS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
