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

The rules are docs/rules.md.
``serve``
    Run the HTTP service under gunicorn with the repository's
    ``gunicorn.conf.py``.

Only the rules core is imported here; the web stack is gunicorn's business.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Sequence

from service.core.cards import Card, parse_cards
from service.core.errors import CribbageError
from service.core.show import KINDS, ShowScore, score_show

GUNICORN_CONF = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"
"""The gunicorn configuration at the repository root, next to the package."""


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
        print(score.to_json_text())
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
    argv = ["gunicorn", "-c", str(GUNICORN_CONF), "service.app:app"]
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cribbage-service",
        description="Cribbage rules: count a hand, tabulate every hand, or serve the HTTP API.",
    )
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

    serve = sub.add_parser("serve", help="run the HTTP service under gunicorn")
    serve.set_defaults(func=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed by argparse
        return exc.code if isinstance(exc.code, int) else 2
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
