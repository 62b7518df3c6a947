"""The game review, for ``make bench`` (section ``review``): what a whole game's review costs, and
what it finds.

* in-process, the CPU time (process time) of the review of seeded whole games to 121, strong
  seat 0 against greedy seat 1, for 2, 3 and 4 players (median and max over the games);
* over HTTP, ``POST /v1/games/review`` with each 2-player game's record, sequential keep-alive
  requests to gunicorn (gunicorn.conf.py) on 127.0.0.1: the latency (median, max);
* the longest legal game's record (bench/worst.py, 2,051 actions) in-process;
* what the review flags: the share of unforced decisions doubtful or worse, and the points lost
  a decision, of the strong level against itself and of the greedy level against it, over the
  same seeded packs.

Environment: BENCH_REVIEW_GAMES (games a line, default 10).
"""

from __future__ import annotations

import hashlib
import os
import statistics
import time
from typing import Any

from service.advice import bot
from service.advice.review import Review, review_record
from service.core.game import apply_action, new_game, parse_action
from service.core.options import GameOptions

from . import harness

GAMES = int(os.environ.get("BENCH_REVIEW_GAMES", "10"))


def played(seed: str, levels: tuple[str, ...], players: int = 2) -> tuple[GameOptions, Any, list[Any], dict[str, Any]]:
    """A seeded game to 121 between bot levels (seat s plays ``levels[s % len(levels)]``): its options,
    final state, actions and record (as ``/v1/games/review`` takes it)."""
    options = {"deck": "seeded", "seed": seed, "players": players}
    o = GameOptions(**options)  # type: ignore[arg-type]
    state, _ = new_game(o, dealer=0, game_id=hashlib.sha256(seed.encode()).hexdigest()[:32])
    record: list[str] = []
    while state.phase != "over":
        seat = state.to_act()[0]
        action = bot.suggest(bot.seat_view(state, seat), levels[seat % len(levels)]).action
        state, events = apply_action(state, action)
        record += [line for e in events if e.type == "deal_record" for line in e.record]
    return o, state, [parse_action(x) for x in record], {
        "game_id": state.game_id, "options": options, "first_dealer": 0, "actions": record}


def _timed_review(o: GameOptions, final: Any, actions: list[Any]) -> tuple[Review, float]:
    t = time.process_time()
    r = review_record(o, 0, final.game_id, actions, final)
    return r, time.process_time() - t


def in_process() -> None:
    print(f"-- reviews in-process: {GAMES} seeded games to 121 a line, strong seat 0 against greedy (CPU s a game,"
          " process time; BENCH_REVIEW_GAMES) --", flush=True)
    for players in (2, 3, 4):
        cpu, decisions = [], []
        for g in range(GAMES):
            o, final, actions, _ = played(f"bench-review-{players}-{g}", ("strong", "greedy"), players)
            r, seconds = _timed_review(o, final, actions)
            cpu.append(seconds)
            decisions.append(len(r.decisions))
        print(f"  {players} players: median {statistics.median(cpu):5.2f} s, max {max(cpu):5.2f} s CPU a game"
              f"  ({statistics.median(decisions):.0f} decisions a game)"
              + ("   (target: seconds, not minutes)" if players == 2 else ""), flush=True)
    from bench import worst

    record = worst.long_game()["record"]
    o = GameOptions(**record["options"])
    actions = [parse_action(x) for x in record["actions"]]
    from service.core.game import replay_record

    final, _ = replay_record(o, record["first_dealer"], record["game_id"], actions)
    r, seconds = _timed_review(o, final, actions)
    print(f"  the longest legal game ({len(actions):,} actions, {len(r.decisions):,} decisions): {seconds:5.2f} s CPU",
          flush=True)


def over_http() -> None:
    print("-- POST /v1/games/review over HTTP: 2-player records, sequential keep-alive requests to gunicorn"
          " (gunicorn.conf.py) on 127.0.0.1 --", flush=True)
    from bench.advice import _timed_posts

    bodies = [{"record": played(f"bench-review-2-{g}", ("strong", "greedy"))[3]} for g in range(GAMES)]
    with harness.running(harness.SERVICE_APP) as (port,):
        _timed_posts(port, "/v1/games/review", bodies[:2])  # warm a worker (the odds table is read once)
        times = _timed_posts(port, "/v1/games/review", bodies)
    print(f"  a whole 2-player game: median {statistics.median(times):5.2f} s, max {max(times):5.2f} s"
          f"  ({len(times)} requests)", flush=True)


def flagged() -> None:
    print(f"-- what the review flags: {GAMES} seeded 2-player games a line (unforced decisions doubtful or worse,"
          " points lost a decision) --", flush=True)
    for label, levels, seats in (("the strong level against itself", ("strong", "strong"), (0, 1)),
                                 ("the greedy level (seat 1) against strong", ("strong", "greedy"), (1,))):
        errors = decisions = 0
        lost = 0.0
        for g in range(GAMES):
            o, final, actions, _ = played(f"bench-review-2-{g}", levels)
            r = review_record(o, 0, final.game_id, actions, final)
            for s in seats:
                errors += r.seats[s].errors
                decisions += r.seats[s].decisions
                lost += r.seats[s].loss_points
        print(f"  {label:<42}: {errors} of {decisions} flagged ({errors / max(1, decisions):.1%}),"
              f" {lost / max(1, decisions):.3f} points lost a decision", flush=True)


def run() -> None:
    print("== the game review ==", flush=True)
    harness.run_parts((in_process, over_http, flagged))
