"""Benchmarks: `make bench`.  Prints figures; never fails on time.

The machine is small, shared and noisy, so every figure with a target is a
ratio to a reference measured beside it, in the same run:

1. The rules core in-process: show_total and score_show over a fixed random
   set of deals; then side by side with PyPI cribbage-scorer's
   show_calc_score over the same 20,000 deals, each side in its own
   interpreter (theirs in a cached temporary venv), ABAB (bench/reference.py).
2. Whole random 2-player games through the engine, side by side with
   OpenSpiel's C++ cribbage, and the state's size (bench/games.py).
3. distribution() in CPU seconds, beside bench/distribution.c (every deal
   scored from scratch, built with cc -O2 when a compiler exists).
4. HTTP in-process: raw WSGI calls of the empty endpoint and the service's
   hot endpoints, then what the middleware, each schema field and the answer
   cost (bench/inprocess.py).
5. HTTP side by side (ratios): each line is the service's req/s over a
   reference's, both under the repository's gunicorn.conf.py on 127.0.0.1,
   measured alternately (ABAB) with the same load (wrk when on PATH), with
   the median of the rounds, their spread and each server's CPU time a
   request (bench/harness.py).  References: bench/empty_app.py (a bare
   falcon endpoint parsing the same JSON bodies) and bench/peer_flask.py
   (Flask + cribbage-scorer, from the cached venv).  Lines: GET /healthz;
   POST /v1/hands/score (200 random hands, cycled) with the answer cache and
   without; the same against the Flask peer; POST /v1/pegging/score and
   /v1/pegging/go (200 random legal bodies each, made through the core's
   Play); POST /v1/games/advance (the bodies of 5 seeded games) with the
   state cache and without.
6. The hands batch: items/s through POST /v1/hands/score-batch with
   1,000-item batches, in-process and under gunicorn, beside scoring the same
   items in-process (bench/batch.py; section ``batch``); standings of 1,000
   result lines and a 4,096-entrant bracket in-process (section ``tournament``).
7. Advice and bots (bench/advice.py): the discard advisor in-process (ms a
   6-card and a 5-card deal, each model), its p50 / p99 over HTTP, the
   pegging advisor's latency with its default budget, and the strong bot
   against the greedy one over BENCH_BOT_GAMES (default 2,000) seeded
   2-player games: the win rate, its 95 % interval, points a hand pegged
   and counted by each side (section ``advice``).
   The board-aware bot (bench/board.py, section ``board``): duplicate
   pairs against the strong level from late boards (both sides at 90 or
   more) and over whole games, and against the greedy level; win rates with
   95 % intervals and the CPU time of a decision it plays for the game; the
   board level now against as it shipped before on the same late pairs,
   compared pair by pair.
   The game review (bench/review.py, section ``review``): the CPU time of a
   whole game's review for 2, 3 and 4 players and of the longest legal game,
   ``POST /v1/games/review`` over HTTP, and what it flags of the strong level
   against itself and of the greedy level.
   The chance of winning (bench/calibration.py, section ``calibration``):
   the martingale check (first deals of the strong level from 0-0, 2, 3
   and 4 players, every seat asking at six moments of the deal: each mean
   against the chance before the deal, goal within 0.01) and the outcome
   calibration (whole games of the strong level: predictions by tenths
   against the games won, the Brier score and the log loss).  Worlds and
   latency (bench/worlds.py, section ``worlds``): for 2, 3 and 4 players,
   the strong bot's play decisions and pegging advice, p50 and p99 of the
   CPU and the fewest worlds, and a whole game's review.  The bots
   against their previous versions (bench/previous.py, section
   ``previous``, BENCH_PREVIOUS an earlier checkout): the strong level over
   duplicate whole games, the board level from late boards, 95 % intervals
   from the pairs.
   One request a bot turn (bench/bots.py, section ``bots``): the same
   seeded games, a human seat and bots, played with suggest + advance +
   view a bot action and with one POST /v1/games/bots a bot turn, ABAB:
   requests and wall time a bot turn, the ratio, and each in units of one
   POST /empty of the empty app (the harness's reference).
   The CPU of a bot decision (bench/decisions.py, section ``decisions``):
   seeded 2-player self-play games of the greedy and the strong level,
   p50, p99 and mean of a discard and of a play (the bot catalogue's costs).
8. Overload, slow clients and the worker (section ``overload``,
   bench/overload.py): p50/p99 under wrk -c1000 with the worker's load
   shedding and without; the longest /healthz wait while 8 clients trickle
   request heads or 16 send nothing, this worker vs plain gthread; the hot
   path's ratio to the empty endpoint and its CPU a request under each worker.
9. Worst cases (section ``worst``, bench/worst.py): every POST operation's
   costliest body at the contract's limits (a documented generator), its
   latency and server CPU a request under gunicorn beside a plain hand
   score's, and the growth of its CPU from half the input to all of it.

A section that fails (the engine or the API mid-change) prints its error
and the others still run.  Every loop is bounded in count and in time;
traffic goes to 127.0.0.1 only.

Environment: BENCH_SECONDS (per side-by-side measurement, default 3),
BENCH_ROUNDS (ABAB rounds, default 5), BENCH_CONNECTIONS (concurrent
keep-alive connections, default 8), BENCH_DEALS (core deals, default
200000), BENCH_ROUNDS_INPROCESS (default 25), BENCH_SKIP_DISTRIBUTION=1,
BENCH_ONLY (comma-separated section names, e.g. ``side_by_side``),
BENCH_BOT_GAMES, BENCH_ADVICE_DEALS (bench/advice.py), BENCH_BOARD_LATE_PAIRS,
BENCH_BOARD_PAIRS, BENCH_BOARD_GREEDY_PAIRS, BENCH_BOARD_PAIRED_PAIRS (bench/board.py),
BENCH_REVIEW_GAMES (bench/review.py), BENCH_CALIBRATION_GAMES,
BENCH_CALIBRATION_SAMPLES, BENCH_CALIBRATION_WHOLE, BENCH_CALIBRATION_PLAYERS,
BENCH_CALIBRATION_WORKERS (bench/calibration.py), BENCH_WORLDS_GAMES,
BENCH_WORLDS_PLAYERS (bench/worlds.py), BENCH_BOTS_GAMES, BENCH_BOTS_ROUNDS (bench/bots.py).
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import (advice, board, bodies, bots, calibration, decisions, harness, inprocess, overload,  # noqa: E402
                   previous, reference, review, worlds, worst)

N_DEALS = int(os.environ.get("BENCH_DEALS", "200000"))
N_PEER_DEALS = 20000
SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "8"))
NO_CACHE = {"CRIBBAGE_HAND_CACHE": "0", "CRIBBAGE_STATE_CACHE": "0"}
PEER_APP = "bench.peer_flask:app"

# for scripts that imported these from here
score_requests = bodies.score_requests
advance_requests = bodies.advance_requests


def deals(n: int, seed: int = 2026) -> list[tuple[tuple[int, int, int, int], int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        five = rng.sample(range(52), 5)
        out.append((tuple(five[:4]), five[4]))
    return out


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def bench_core() -> None:
    from service.core.cards import CARDS
    from service.core.show import score_show, show_total

    print("== rules core, in-process, one core ==")
    ints = deals(N_DEALS)

    def totals():
        f = show_total
        for hand, starter in ints:
            f(hand, starter)

    t = best_of(3, totals)
    print(f"show_total  (plain ints) : {N_DEALS / t:12,.0f} hands/s  ({t / N_DEALS * 1e9:6.0f} ns/hand, {N_DEALS:,} deals, best of 3)")

    n_full = min(N_DEALS, 20000)
    cards = [(tuple(CARDS[c] for c in hand), CARDS[starter]) for hand, starter in ints[:n_full]]

    def full():
        for hand, starter in cards:
            score_show(hand, starter).items

    t = best_of(3, full)
    print(f"score_show  (+ .items)   : {n_full / t:12,.0f} hands/s  ({t / n_full * 1e6:6.1f} us/hand, {n_full:,} deals, best of 3)")

    # the two paths agree on these deals
    assert all(show_total(h, s) == score_show(h, s).total for h, s in cards[:2000])
    reference.bench_show_vs_peer(deals(N_PEER_DEALS))


def bench_distribution() -> None:
    if os.environ.get("BENCH_SKIP_DISTRIBUTION"):
        return
    reference.bench_distribution_vs_c()


def bench_in_process() -> None:
    inprocess.bench(bodies.score_requests(), bodies.pegging_requests(), bodies.go_requests())


def bench_compression() -> None:
    """gzip's sizes and cost in-process (bench/compression.py)."""
    from bench import compression

    compression.bench()


def bench_games() -> None:
    """Random games side by side with OpenSpiel, and the state's size (bench/games.py)."""
    from bench import games

    games.bench_random_games()
    games.bench_state_sizes()


def _error(what: str, exc: BaseException) -> None:
    last = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" ({Path(last.filename).name}:{last.lineno})" if last else ""
    print(f"{what}: skipped -- {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}{where}",
          flush=True)


def _record(what: str, make) -> tuple[list[harness.Request] | None, str, Exception | None]:
    """(bodies, a note, None), or (None, "", the error) when the API cannot make them now."""
    try:
        t = time.perf_counter()
        made = make()
        sizes = [len(b) for _, _, b in made]
        return made, (f"    ({len(made):,} {what} checked in-process in {time.perf_counter() - t:.1f} s, "
                      f"{min(sizes):,}-{max(sizes):,} bytes, mean {sum(sizes) / len(sizes):,.0f})"), None
    except Exception as exc:  # the API may be mid-change: skip this line only
        return None, "", exc


def bench_side_by_side() -> None:
    print("== HTTP side by side (ratios) ==")
    tool = "wrk" if shutil.which("wrk") else "python"
    print(f"(target / reference req/s, medians of {ROUNDS} ABAB round{'s' if ROUNDS != 1 else ''} of {SECONDS:g} s, "
          f"{CONNECTIONS} keep-alive connections, all under gunicorn.conf.py on 127.0.0.1; load: {tool}"
          + ("" if tool == "wrk" else " -- no wrk on PATH: the Python client is the bottleneck and pulls "
             "ratios toward 1; `apt-get install wrk`") + "; server CPU: its master and workers, "
          "user + system, a request)", flush=True)
    scores, score_note, score_error = _record("hand bodies", lambda: bodies.check(bodies.score_requests()))
    pegging, pegging_note, pegging_error = _record("pegging bodies",
                                                   lambda: bodies.check(bodies.pegging_requests()))
    gos, go_note, go_error = _record("go bodies", lambda: bodies.check(bodies.go_requests()))
    advances, advance_note, advance_error = _record("advance bodies of 5 games",
                                                    lambda: bodies.advance_requests()[0])
    peer = reference.peer_python()
    # (label, requests, its error, server, reference, reference label, note)
    lines = [
        ("GET /healthz", [("GET", "/healthz", b"")], None, "service", "empty", "empty app's /healthz", ""),
        ("POST /v1/hands/score", scores, score_error, "service", "empty", "empty endpoint", score_note),
        ("POST /v1/hands/score, no answer cache", scores, score_error, "no cache", "empty", "empty endpoint", ""),
        ("POST /v1/hands/score", scores, score_error, "service", "peer", "Flask + cribbage-scorer",
         "" if peer else "    (no cribbage-scorer venv: the peer line is skipped)"),
        ("POST /v1/pegging/score", pegging, pegging_error, "service", "empty", "empty endpoint", pegging_note),
        ("POST /v1/pegging/go", gos, go_error, "service", "empty", "empty endpoint", go_note),
        ("POST /v1/games/advance", advances, advance_error, "service", "empty", "empty endpoint", advance_note),
        ("POST /v1/games/advance, no state cache", advances, advance_error, "no cache", "empty", "empty endpoint", ""),
    ]
    apps: dict[str, str | tuple[str, Path]] = {"service": harness.SERVICE_APP, "empty": harness.EMPTY_APP}
    if peer is not None:
        apps["peer"] = (PEER_APP, peer.with_name("gunicorn"))
    width = max(len(label) for label, *_ in lines)
    try:
        with harness.running(*apps.values()) as started, harness.running(harness.SERVICE_APP, env=NO_CACHE) as (nc,):
            ports = dict(zip(apps, started), **{"no cache": nc})
            for label, requests, error, target, ref, ref_label, note in lines:
                if error is not None:
                    _error(f"{label:<{width}} (making its bodies in-process)", error)
                    continue
                if ref not in ports:
                    print(note, flush=True)
                    continue
                reference_requests = requests if ref == "peer" else None
                try:
                    harness.side_by_side(label, requests, reference_requests, seconds=SECONDS,
                                         connections=CONNECTIONS, rounds=ROUNDS, reference_label=ref_label,
                                         ports=(ports[target], ports[ref]), width=width)
                    if note:
                        print(note, flush=True)
                except Exception as exc:
                    _error(label, exc)
    except Exception as exc:  # a server did not start
        _error("HTTP side by side", exc)


def bench_overload() -> None:
    overload.bench_all()


def bench_batch() -> None:
    """POST /v1/hands/score-batch: items/s and the ratio to scoring in-process (bench/batch.py)."""
    from bench import batch

    batch.bench()


def bench_tournament() -> None:
    """Standings of 1,000 result lines and a 4,096-entrant bracket, in-process (bench/batch.py)."""
    from bench import batch

    batch.bench_standings()


SECTIONS = {
    "core": bench_core,
    "games": bench_games,
    "distribution": bench_distribution,
    "in_process": bench_in_process,
    "compression": bench_compression,
    "side_by_side": bench_side_by_side,
    "batch": bench_batch,
    "tournament": bench_tournament,
    "advice": advice.run,
    "bots": bots.run,
    "board": board.run,
    "review": review.run,
    "calibration": calibration.run,
    "worlds": worlds.run,
    "previous": previous.run,
    "decisions": decisions.run,
    "overload": bench_overload,
    "worst": worst.bench,
}


def main() -> None:
    from service.core import engine

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {engine.KERNEL} rules kernel ({engine.WHY})",
          flush=True)
    only = [s.strip() for s in os.environ.get("BENCH_ONLY", "").split(",") if s.strip()]
    for name, section in SECTIONS.items():
        if only and name not in only:
            continue
        try:
            section()
        except Exception as exc:  # one broken section (code mid-change) does not hide the others
            _error(section.__name__, exc)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
