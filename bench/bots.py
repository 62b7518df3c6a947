"""One request a bot turn (section ``bots``, ``BENCH_ONLY=bots make bench``): a platform seating a
computer opponent, before and after ``POST /v1/games/bots``.

The same seeded games are played under gunicorn (the repository's ``gunicorn.conf.py``, 127.0.0.1,
one keep-alive connection) two ways, alternately (ABAB, ``BENCH_BOTS_ROUNDS`` rounds): seat 0 is a
human (it takes its first legal action, through ``advance``; not counted), the other seats bots.
A *bot turn* is the run of bot actions between two human moves (or to game over):

* before: each bot action is three requests, ``POST /v1/games/suggest`` (the action),
  ``/v1/games/advance`` (play it) and ``/v1/games/view`` (the next seat's view);
* after: one ``POST /v1/games/bots`` a turn.

Printed per level and table: the requests a bot turn, its wall time (median and p90, the turn's
requests end to end), the ratio after / before, and each in units of the reference the harness
uses: one ``POST /empty`` of bench/empty_app.py (a bare falcon endpoint parsing the same JSON body,
its own gunicorn beside the service's), timed on the same bodies in the same rounds.  Both ways
play the same games (checked: the same final states).  Nothing fails on speed.

Environment: BENCH_BOTS_GAMES (games a table and level, default 3), BENCH_BOTS_ROUNDS (default 3).
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import time
from typing import Any

from . import harness
from .harness import percentile

GAMES = int(os.environ.get("BENCH_BOTS_GAMES", "3"))
ROUNDS = int(os.environ.get("BENCH_BOTS_ROUNDS", "3"))
TABLES = ((2, "greedy"), (2, "strong"), (4, "greedy"))


class _Client:
    """One keep-alive connection, opened again when the server closed it while idle (its keep-alive
    timeout: the empty app's connection waits while the service plays)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def post(self, path: str, body: Any) -> Any:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        for attempt in (0, 1):
            try:
                self.conn.request("POST", path, raw, {"Content-Type": "application/json"})
                resp = self.conn.getresponse()
                data = resp.read()
                break
            except (ConnectionError, http.client.RemoteDisconnected):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise
        if resp.status >= 300:
            raise RuntimeError(f"{path}: {resp.status} {data[:300]!r}")
        return json.loads(data)

    def close(self) -> None:
        self.conn.close()


def _human(c: _Client, answer: dict) -> dict:
    mine = next(a for a in answer["legal_actions"] if a["seat"] == 0)
    return c.post("/v1/games/advance", {"state": answer["state"], "action": mine})


def start(c: _Client, players: int, seed: str) -> dict:
    """A new game (its id seeds the strong bot: both ways play on from the same start)."""
    return c.post("/v1/games", {"options": {"players": players, "deck": "seeded", "seed": seed}, "dealer": 0})


def play(c: _Client, answer: dict, level: str, one_request: bool,
         bodies: list[bytes] | None = None) -> tuple[list[tuple[int, float]], Any]:
    """A game from ``answer``, seat 0 the human: (requests, seconds) of every bot turn, and the final state."""
    players = len(answer["view"]["hands"])
    bots = [{"seat": s, "level": level} for s in range(1, players)]
    turns = []
    while answer["to_act"]:
        if answer["to_act"] == [0]:  # the human, when no bot is to act (the bots discard first)
            answer = _human(c, answer)
            continue
        t = time.perf_counter()
        if one_request:
            raw = json.dumps({"state": answer["state"], "bots": bots}).encode()
            if bodies is not None:
                bodies.append(raw)
            answer = c.post("/v1/games/bots", raw)
            n = 1
        else:
            n = 0
            while [s for s in answer["to_act"] if s != 0]:
                seat = next(s for s in answer["to_act"] if s != 0)
                action = c.post("/v1/games/suggest", {"state": answer["state"], "seat": seat, "level": level})["action"]
                answer = c.post("/v1/games/advance", {"state": answer["state"], "action": action})
                nxt = answer["to_act"][0] if answer["to_act"] else None
                c.post("/v1/games/view", {"state": answer["state"], "seat": nxt})
                n += 3
        turns.append((n, time.perf_counter() - t))
    return turns, answer["state"]


def _empty(c: _Client, bodies: list[bytes]) -> list[float]:
    out = []
    if bodies:
        c.post("/empty", bodies[0])  # the connection opened again if it was closed while idle
    for raw in bodies:
        t = time.perf_counter()
        c.post("/empty", raw)
        out.append(time.perf_counter() - t)
    return out


def run() -> None:
    print("== one request a bot turn: suggest + advance + view a bot action, before; POST /v1/games/bots, after ==",
          flush=True)
    print(f"  ({GAMES} seeded games a line, seat 0 a human taking its first legal action (not counted), the other"
          f" seats bots; {ROUNDS} ABAB rounds, one keep-alive connection each to gunicorn.conf.py on 127.0.0.1;"
          " reference: one POST /empty of bench/empty_app.py with each /bots body)", flush=True)
    with harness.running(harness.SERVICE_APP, harness.EMPTY_APP) as (port, empty_port):
        service, empty = _Client(port), _Client(empty_port)
        try:
            for players, level in TABLES:
                before: list[tuple[int, float]] = []
                after: list[tuple[int, float]] = []
                ref: list[float] = []
                for r in range(ROUNDS):
                    for g in range(GAMES):
                        seed = f"bench-bots-{players}-{level}-{g}"
                        bodies: list[bytes] = []
                        first = start(service, players, seed)
                        if r == 0 and g == 0:  # warm both workers on this table
                            play(service, first, level, True)
                        if r % 2:  # ABAB: each way goes first every other round
                            turns_a, final_a = play(service, first, level, True, bodies)
                            turns_b, final_b = play(service, first, level, False)
                        else:
                            turns_b, final_b = play(service, first, level, False)
                            turns_a, final_a = play(service, first, level, True, bodies)
                        if final_a != final_b:
                            raise RuntimeError(f"{seed}: the two ways played different games")
                        before += turns_b
                        after += turns_a
                        ref += _empty(empty, bodies)
                req_b = statistics.mean(n for n, _ in before)
                req_a = statistics.mean(n for n, _ in after)
                t_b = [s for _, s in before]
                t_a = [s for _, s in after]
                unit = statistics.median(ref)
                print(f"  {players} players, {level:<6}: {len(after) // ROUNDS} bot turns a round;"
                      f" requests a turn {req_b:5.2f} -> {req_a:4.2f} (x{req_a / req_b:.2f});"
                      f" a turn p50 {statistics.median(t_b) * 1e3:7.2f} -> {statistics.median(t_a) * 1e3:7.2f} ms"
                      f" (x{statistics.median(t_a) / statistics.median(t_b):.2f}),"
                      f" p90 {percentile(t_b, 90) * 1e3:7.2f} -> {percentile(t_a, 90) * 1e3:7.2f} ms;"
                      f" in empty requests ({unit * 1e3:.2f} ms): {statistics.median(t_b) / unit:6.1f} ->"
                      f" {statistics.median(t_a) / unit:6.1f}", flush=True)
        finally:
            service.close()
            empty.close()


if __name__ == "__main__":
    run()
