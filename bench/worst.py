"""Every POST operation's worst case at the contract's limits, and what it costs.

:func:`bodies` is the documented generator: for each POST operation of
openapi.yaml, the body that makes the service do the most work the contract
allows (its sizes, counts, nesting, ties and positions at their limits), at
``scale`` 1, and the same body with half its input at ``scale`` 0.5 (for the
growth ratio).  Every body is legal: an error answer stops early and would
measure nothing.  tests/system/test_hostile.py sends each one to a real gunicorn
and expects its answer within the usual deadline.

The worst cases, and why each is the worst (``fixed``: the input's size is
bounded by the rules, not by a count the client chooses):

* ``/v1/hands/score`` (fixed): 5-5-5-J with a claim of 0 under muggins and
  tournament rules: the judge lists every item missed.
* ``/v1/hands/score-batch``: 1,000 such items, distinct deals scoring 8 or
  more (the per-item schema path; a plain item takes the fast path).
* ``/v1/pegging/score`` (fixed: 16 cards and the goes): the 4-player play
  with the most entries of 200 seeded random plays, hands known, a claim of 0
  on every entry under muggins and tournament rules.
* ``/v1/pegging/go`` (fixed): the longest count (13 cards: A A A A 2 2 2 2 3
  3 3 3 4) and a hand of four.
* ``/v1/games`` (fixed): 4 players, every switch on, a seed of 200 characters.
* ``/v1/games/advance`` and ``/v1/games/view`` (fixed: a deal's actions): the
  4-player state of the deal with the most actions in :func:`long_game`,
  before its last show; every action is replayed (the state cache is a
  worker's own: a state from elsewhere is replayed whole).
* ``/v1/games/contribute`` (fixed) has no case here: a plain server answers it 422 whatever
  the body, and on a sealed one it reads a state of deal 1 with no action yet (a view's cost) and
  hashes twice.
* ``/v1/games/replay``: :func:`long_game`'s record, the longest legal game
  found: 2 players, a client deck dealing the same 13 cards every deal,
  whose hands and crib show nothing, played for the fewest points: 2 a deal,
  2,051 actions over 121 deals (a random game has about 200 actions).
* ``/v1/games/review`` (fixed: a finished game, bounded by the rules): :func:`long_game`'s
  record, every one of its 1,449 decisions valued by the evaluation engine over at least 16
  worlds each (a game longer than a typical one gets fewer worlds a play, never fewer than
  16), and each of its forced plays valued by the position it reached, over 16 worlds in a game of
  typical length and 4 here (``review.FORCED_FEWEST``: a forced play flags nothing): the whole
  costs about 3.7 s of CPU (2.9 s before forced plays were valued so, 5.5 s with 16 worlds each,
  which took more than the hostile test's 10 s in CI; the rejection sampler works hardest here,
  the other seat's throw being one the strong level never makes), where a typical game's review
  costs about half a second.
* ``/v1/discards`` (fixed): the ``random`` model's exact crib over every
  unseen card, with the deal that costs most of 2, 3 and 4 players.
* ``/v1/pegging/advise`` (bounded by the search's position cap, 1,000,000: 16 worlds of a
  4-player lead):
  200 samples asked at a 4-player lead, and an exact solve of the 4-player
  lead with the most positions found by a search (about 90,000).
* ``/v1/games/suggest`` (bounded by the same cap): the strong bot at a
  4-player lead.
* ``/v1/games/bots`` (bounded by ``max_actions``, 32, each action a suggestion): both
  seats of a 2-player game at the ``board`` level from a late board (both at 80, where a
  deal's every discard and play is valued for the game, and the run reaches the next
  deal), 32 actions; the costliest of the boards tried here (61-90 each side: 0.8-1.6 s
  of CPU in-process; a 4-player table of ``strong`` bots, 32 actions: about 0.6 s).
* ``/v1/odds`` (bounded by its time budget): 200 samples asked from a seat's
  view at the start of a 4-player deal's discards (the most of the deal left to
  play out), and a 3-player board position at 0-0 (2,000 whole games simulated).
* ``/v1/matches/score``: as many copies of :func:`long_game`'s record as fit
  the body limit (15 games at most), each replayed.
* ``/v1/tournaments/standings``: 2,000 lines, 4,000 players of 40-character
  names, every one tied on every key (the head-to-head and playoff groups).
* ``/v1/tournaments/bracket``: 1,024 names of 40 characters.

The bench section (``worst``, :func:`bench`) sends each body to a gunicorn
(gunicorn.conf.py, 127.0.0.1, answer and state caches off) a few times on one
connection and prints the median latency and the server's CPU time a request
(master and workers, from /proc) beside a plain ``POST /v1/hands/score``'s,
then the same at half the input and the ratio of the two CPU times (input
x2: linear is about 2).  Goal: no worst case above 0.5 s of CPU here.
"""

from __future__ import annotations

import functools
import os
import random
import statistics
import time
from typing import Any, Callable

import orjson

try:
    from bench import harness
except ImportError:  # run as bench/worst.py
    import harness  # type: ignore[no-redef]

HEADERS = {"Content-Type": "application/json"}
NO_CACHE = {"CRIBBAGE_HAND_CACHE": "0", "CRIBBAGE_STATE_CACHE": "0"}
REPEATS = int(os.environ.get("WORST_REPEATS", "5"))
DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]
PLAIN_HAND = ("POST", "/v1/hands/score", b'{"cards":["5H","5C","5S","JD"],"starter":"5D"}')
CLAIMED_HAND = {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "claim": 0, "muggins": True,
                "tournament": True, "players": 4, "seat": 3, "scores": [110, 118]}
ZERO_DEAL = (["2C", "8H", "6S", "AD", "2D", "4D"], ["8C", "7D", "QS", "6H", "3D", "QC"], "KD",
             ["AD", "2D"], ["7D", "QC"])
"""Two 6-card hands, the starter and each seat's discards: both hands and the crib show
nothing (no fifteen, pair, run, flush or nobs; the starter is no jack), and the play
can be held to 2 points whoever deals (the fewest of 147 such deals found at random)."""
WORST_SOLVE = ["3H", "5D", "KC", "2C", "5C", "9D", "7D", "JD", "8H", "6S", "TH", "4D", "7H", "QD", "2D", "JH"]
"""Four hands for the play (seat 0 first) whose 4-player lead searched the most positions
(90,388) in a hill-climb over deals; random deals took 30,000 on average."""


# ---------------------------------------------------------------- in-process, to build bodies


@functools.lru_cache(maxsize=1)
def _client():
    import falcon.testing

    from service.app import create_app

    return falcon.testing.TestClient(create_app(sealer=None, collect_metrics=False))


def post(path: str, body: Any) -> dict:
    """The service's answer in-process (2xx, or raises: a worst case must be legal)."""
    raw = body if isinstance(body, bytes) else orjson.dumps(body)
    r = _client().simulate_post(path, body=raw, headers=HEADERS)
    if not 200 <= r.status_code < 300:
        raise RuntimeError(f"{path} answered {r.status_code}: {r.text[:400]}")
    return r.json


def _fewest_points(play) -> int:
    """The fewest points the rest of a play can score, both seats playing for the fewest."""
    if play.hand_over:
        return 0
    return min(sum(s.points for s in event.scores) + _fewest_points(after)
               for after, event in (play.apply(a) for a in play.legal_actions()))


@functools.lru_cache(maxsize=2)
def _cheapest_line(pone: int) -> tuple:
    """The zero deal's play for the fewest points (every deal with this pone plays the same)."""
    from service.core.cards import SPELLINGS
    from service.core.play import Play

    h0, h1, _, d0, d1 = ZERO_DEAL
    play = Play.start(2, pone, [[SPELLINGS[c] for c in h if c not in d] for h, d in ((h0, d0), (h1, d1))])
    line = []
    while not play.hand_over:
        def cost(action) -> int:
            after, event = play.apply(action)
            return sum(s.points for s in event.scores) + _fewest_points(after)

        action = min(play.legal_actions(), key=cost)
        line.append(action)
        play, _ = play.apply(action)
    return tuple(line)


@functools.lru_cache(maxsize=1)
def long_game() -> dict:
    """The longest legal game found (see the module docstring): its record (``game_id``,
    ``options``, ``first_dealer``, ``actions``) and every state it passed through."""
    from service.core.play import PlayCard

    h0, h1, starter, d0, d1 = ZERO_DEAL
    answer = post("/v1/games", {"options": {"deck": "client"}, "dealer": 0})
    record: list[str] = []
    states: list[dict] = []
    line: list = []  # this deal's play, still to come
    for _ in range(20_000):
        if answer["phase"] == "over":
            break
        states.append(answer["state"])
        legal = answer["legal_actions"]
        kind = legal[0]["type"]
        if kind == "deal":
            action = {**legal[0], "hands": [h0, h1], "crib": []}
            line = list(_cheapest_line(1 - legal[0]["seat"]))
        elif kind == "discard":
            seat = legal[0]["seat"]
            action = {"type": "discard", "seat": seat, "cards": d0 if seat == 0 else d1}
        elif kind == "cut":
            action = {**legal[0], "starter": starter}
        elif kind in ("play", "go"):
            chosen = line.pop(0)
            action = ({"type": "play", "seat": chosen.seat, "card": str(chosen.card)} if type(chosen) is PlayCard
                      else {"type": "go", "seat": chosen.seat})
        else:
            action = legal[0]
        answer = post("/v1/games/advance", {"state": answer["state"], "action": action})
        for event in answer["events"]:
            if event["type"] == "deal_record":
                record += event["record"]
    else:
        raise RuntimeError("the long game did not end")
    final = answer["state"]
    return {"record": {"game_id": final["game_id"], "options": final["options"],
                       "first_dealer": final["first_dealer"], "actions": record},
            "states": states}


def _four_player_states() -> list[dict]:
    """The states of a seeded random 4-player game, each with its legal actions."""
    rng = random.Random(17)
    answer = post("/v1/games", {"options": {"players": 4, "deck": "seeded", "seed": "worst"}, "dealer": 0})
    out = []
    while answer["phase"] != "over" and len(out) < 2000:
        out.append(answer)
        answer = post("/v1/games/advance", {"state": answer["state"], "action": rng.choice(answer["legal_actions"])})
    return out


def _longest_deal_state() -> tuple[dict, dict]:
    """(state, action): the 4-player state with the most actions in its deal, and its next action."""
    best = max(_four_player_states(), key=lambda a: len(a["state"]["actions"]))
    return best["state"], best["legal_actions"][0]


def _pegging_play(scale: float) -> dict:
    """The 4-player play with the most entries of 200 seeded random ones (see the docstring)."""
    from bench.bodies import _entry, _random_play

    rng = random.Random(2617)
    plays = []
    while len(plays) < 200:
        players, pone, hands, _, actions = _random_play(rng)
        if players == 4:
            plays.append((len(actions), pone, hands, actions))
    _, pone, hands, actions = max(plays, key=lambda p: p[0])
    cut = len(actions) if scale >= 1 else round(len(actions) * scale)
    return {"players": 4, "pone": pone, "hands": [[str(c) for c in h] for h in hands],
            "plays": [{**_entry(a), "claim": 0} for a in actions[:cut]], "complete": scale >= 1,
            "muggins": True, "tournament": True}


def _claimed(n: int) -> list[dict]:
    """``n`` distinct seeded deals scoring 8 or more, each claimed 0 as :data:`CLAIMED_HAND` (an
    answer cache would otherwise answer all but the first)."""
    from service.core.cards import SPELLINGS
    from service.core.show import show_total

    rng = random.Random(2618)
    out: dict[tuple, dict] = {}
    while len(out) < n:
        five = rng.sample(DECK, 5)
        if show_total([SPELLINGS[c] for c in five[:4]], SPELLINGS[five[4]]) >= 8:
            out[tuple(five)] = {**CLAIMED_HAND, "cards": five[:4], "starter": five[4]}
    return list(out.values())


def _standings(scale: float) -> dict:
    n = round(2000 * scale)
    name = "{}{:0>38}"  # 40 characters: a letter, a sign, 38 digits
    return {"results": [{"player": name.format("P-", i), "opponent": name.format("O-", i), "game_points": 0,
                         "games_won": 0, "spread": 0, "round": 1000} for i in range(n)]}


def _discards() -> dict:
    """Of 2, 3 and 4 players under the random model, the deal whose answer costs most in-process."""
    candidates = [{"cards": DECK[:6], "dealer": True, "model": "random"},
                  {"cards": DECK[:5], "dealer": True, "model": "random"},
                  {"cards": DECK[:5], "players": 3, "dealer": True, "model": "random"},
                  {"cards": DECK[:5], "players": 4, "dealer": False, "partner_deals": True, "model": "random"}]

    def cost(body: dict) -> float:
        t = time.process_time()
        post("/v1/discards", body)
        return time.process_time() - t

    return max(candidates, key=lambda b: min(cost(b) for _ in range(3)))


def _suggest() -> dict:
    """The strong bot for the seat to lead a 4-player play."""
    for a in _four_player_states():
        s = a["state"]
        if a["phase"] == "play" and s["actions"] and s["actions"][-1].startswith("cut"):
            return {"state": s, "seat": a["to_act"][0], "level": "strong"}
    raise RuntimeError("no 4-player play began")


def _bots() -> dict:
    """Two ``board`` bots from a late board (both at 80), 32 actions (the docstring)."""
    from bench.board import late_start
    from service.boundary.state import state_to_json

    state = late_start("worst-bots", 0, (80, 80), "ab" * 16)
    return {"state": state_to_json(state), "bots": [{"seat": 0, "level": "board"}, {"seat": 1, "level": "board"}],
            "max_actions": 32}


def _odds_within() -> dict:
    """200 samples from seat 1's view at the start of a 4-player deal's discards."""
    for a in _four_player_states():
        if a["phase"] == "discard" and len(a["state"]["actions"]) == 1:
            return {"state": a["state"], "seat": 1, "samples": 200}
    raise RuntimeError("no 4-player deal was dealt")


def _match(scale: float, limit: int) -> dict:
    record = long_game()["record"]
    one = len(orjson.dumps({"record": record})) + 1
    fit = max(1, min(15, (limit - 200) // one))
    return {"games": [{"record": record}] * max(1, round(fit * scale))}


# ---------------------------------------------------------------- the generator


Worst = tuple[str, str, Callable[[float], Any], bool]
"""(path, what, body at a scale, whether the input's size scales)."""


def cases() -> list[Worst]:
    """Every POST operation's worst case (module docstring), as body makers."""
    from service.app import DEFAULT_MAX_BODY_BYTES, body_limits

    limit = body_limits(DEFAULT_MAX_BODY_BYTES).get("/v1/matches/score", DEFAULT_MAX_BODY_BYTES)
    lead = {"players": 4, "pone": 1, "seat": 1, "hand": WORST_SOLVE[4:8]}
    return [
        ("/v1/hands/score", "5-5-5-J claimed 0, muggins, tournament", lambda s: CLAIMED_HAND, False),
        ("/v1/hands/score-batch", "1,000 distinct claimed items", lambda s: {"items": _claimed(round(1000 * s))},
         True),
        ("/v1/pegging/score", "the longest 4-player play, every entry claimed", _pegging_play, True),
        ("/v1/pegging/go", "a 13-card count", lambda s: {
            "count_cards": ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C"],
            "hand": ["4D", "4H", "4S", "5C"], "tournament": True}, False),
        ("/v1/games", "4 players, every switch, a 200-character seed", lambda s: {
            "options": {"players": 4, "deck": "seeded", "seed": "s" * 200, "ten_value_ties": True,
                        "tournament": True, "muggins": True, "muggins_in_play": True, "skunk": True,
                        "double_skunk_games": 4, "lurch": True, "loser_deals_first": True}, "dealer": 3}, False),
        ("/v1/games/advance", "the longest 4-player deal, replayed", lambda s: dict(
            zip(("state", "action"), _longest_deal_state())), False),
        ("/v1/games/view", "the longest 4-player deal, replayed", lambda s: {
            "state": _longest_deal_state()[0], "seat": 0}, False),
        ("/v1/games/replay", "the longest legal game", lambda s: {"record": {
            **long_game()["record"],
            "actions": long_game()["record"]["actions"][:round(len(long_game()["record"]["actions"]) * s)]}},
         True),
        ("/v1/games/review", "the longest legal game's record", lambda s: {"record": long_game()["record"]}, False),
        ("/v1/discards", "the random model's costliest deal", lambda s: _discards(), False),
        ("/v1/pegging/advise", "200 samples at a 4-player lead", lambda s: {**lead, "samples": 200}, False),
        ("/v1/pegging/advise", "an exact solve of the costliest 4-player lead found", lambda s: {
            **lead, "solve": True, "hands": [WORST_SOLVE[4 * i:4 * i + 4] for i in range(4)]}, False),
        ("/v1/games/suggest", "the strong bot at a 4-player lead", lambda s: _suggest(), False),
        ("/v1/games/bots", "two board bots from a late board, 32 actions", lambda s: _bots(), False),
        ("/v1/odds", "200 samples from a seat's view, a 4-player deal's discards", lambda s: _odds_within(), False),
        ("/v1/odds", "a 3-player position at 0-0, simulated", lambda s: {
            "players": 3, "target": 121, "scores": [0, 0, 0], "dealer": 0}, False),
        ("/v1/matches/score", "the longest game's record, as often as fits", lambda s: _match(s, limit), True),
        ("/v1/tournaments/standings", "2,000 lines, 4,000 players, every one tied", _standings, True),
        ("/v1/tournaments/bracket", "1,024 names of 40 characters", lambda s: {
            "names": [f"N-{i:0>38}" for i in range(round(1024 * s))]}, True),
    ]


def bodies(scale: float = 1.0) -> list[tuple[str, str, bytes]]:
    """(path, what, body) of every worst case at ``scale`` (1: the contract's limits), each
    checked 2xx in-process."""
    out = []
    for path, what, make, _ in cases():
        body = orjson.dumps(make(scale))
        post(path, body)
        out.append((path, what, body))
    return out


# ---------------------------------------------------------------- the bench section


def _timed(port: int, path: str, body: bytes, repeats: int = REPEATS) -> tuple[float, float]:
    """(median seconds of an answer, the server's CPU seconds a request) over ``repeats``
    requests on one keep-alive connection, or as many more as take about a second (the
    CPU time is counted in ticks of 10 ms)."""
    conn = harness._Conn(port)
    raw = harness._prebuilt([("POST", path, body)], port)[0]
    try:
        t = time.perf_counter()
        conn.exchange(raw)  # warm: the worker's first sight of this body
        repeats = max(repeats, min(500, int(1.0 / max(time.perf_counter() - t, 1e-4))))
        cpu = harness.server_cpu(port)
        waits = []
        for _ in range(repeats):
            t = time.perf_counter()
            status = conn.exchange(raw)
            waits.append(time.perf_counter() - t)
            if not 200 <= status < 300:
                raise RuntimeError(f"{path} answered {status}")
        after = harness.server_cpu(port)
    finally:
        conn.close()
    per = (after - cpu) / repeats if cpu is not None and after is not None else float("nan")
    return statistics.median(waits), per


def bench() -> None:
    print("== worst cases: every POST operation at the contract's limits (bench/worst.py) ==", flush=True)
    t = time.perf_counter()
    made = [(path, what, scales, orjson.dumps(make(1.0)), orjson.dumps(make(0.5)) if scales else None)
            for path, what, make, scales in cases()]
    for path, _, _, full, half in made:
        post(path, full)
        if half is not None:
            post(path, half)
    print(f"  (bodies made and checked 2xx in-process in {time.perf_counter() - t:.1f} s; gunicorn, 2 workers, "
          f"answer and state caches off; {REPEATS} requests or more (about a second's) each on one connection: "
          "median latency, server CPU a request; growth: CPU at the full input / at half of it, linear is about 2)", flush=True)
    with harness.running(harness.SERVICE_APP, env=NO_CACHE) as (port,):
        hand_wait, hand_cpu = _timed(port, PLAIN_HAND[1], PLAIN_HAND[2], 500)
        print(f"  {'a plain POST /v1/hands/score (the reference)':<78} {hand_wait * 1e3:8.2f} ms "
              f"{hand_cpu * 1e3:8.2f} ms CPU", flush=True)
        worst = 0.0
        for path, what, scales, full, half in made:
            wait, cpu = _timed(port, path, full)
            worst = max(worst, cpu)
            growth = ""
            if half is not None:
                _, cpu_half = _timed(port, path, half)
                growth = f"  growth x{cpu / cpu_half:4.2f}" if cpu_half > 0 else "  growth (too quick to see)"
            label = f"{path} {what} ({len(full) / 1024:,.0f} KiB)"
            print(f"  {label:<78} {wait * 1e3:8.1f} ms {cpu * 1e3:8.1f} ms CPU  "
                  f"x{cpu / hand_cpu if hand_cpu else float('nan'):7,.0f} hand score"
                  + (growth if scales else "  (fixed size)"), flush=True)
        print(f"  the costliest: {worst:.2f} s of server CPU (goal: 0.5 s)", flush=True)


if __name__ == "__main__":
    bench()
