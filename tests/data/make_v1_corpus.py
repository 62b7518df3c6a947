"""How tests/data/v1_states.json was made (run once at commit 99a863f, before state v2).

Kept as a record: it imports the v1 engine (``service.core.game`` with
``GameAction``, ``service.core.state_json``), which state v2 replaced, so it
runs only on a checkout of that commit:  ``git checkout 99a863f -- service``
then ``python tests/data/make_v1_corpus.py``.
"""

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from service.core.game import apply_action, legal_actions, new_game  # noqa: E402
from service.core.options import GameOptions  # noqa: E402
from service.core.state_json import to_json  # noqa: E402
from service.seal import Sealer  # noqa: E402

SECRET = "v1-corpus-secret-0123456789abcdef"
MIXES = [
    {"players": 2},
    {"players": 2, "five_and_two": True, "target": 61},
    {"players": 2, "tournament": True, "muggins": True, "muggins_in_play": True, "skunk": True},
    {"players": 3},
    {"players": 3, "tournament": True, "muggins": True, "lurch": True},
    {"players": 4},
    {"players": 4, "muggins": True, "skunk": True, "double_skunk_games": 4, "loser_deals_first": True},
    {"players": 2, "deck": "random"},
]


def main() -> None:
    sealer = Sealer(SECRET)
    out = []
    for m, mix in enumerate(MIXES):
        opts = dict(mix)
        if opts.get("deck") != "random":
            opts.update(deck="seeded", seed=f"v1-corpus-{m}")
        rng = random.Random(m)
        state = new_game(GameOptions(**opts), dealer=m % opts["players"])
        seen: dict[str, int] = {}
        step = 0
        while True:
            # Keep the first two states of each phase, and every 25th step.
            key = state.phase
            if seen.get(key, 0) < 2 or step % 25 == 0 or state.phase == "over":
                seen[key] = seen.get(key, 0) + 1
                plain = to_json(state)
                out.append({"name": f"mix{m}-step{step}-{state.phase}", "options": opts,
                            "plain": plain, "sealed": sealer.seal(plain)})
            if state.phase == "over":
                break
            legal = legal_actions(state)
            action = rng.choice(legal)
            if action.type in ("count", "play", "go") and (state.options.muggins and rng.random() < 0.3):
                from dataclasses import replace
                action = replace(action, claim=rng.randrange(0, 5))
            state, _ = apply_action(state, action)
            step += 1
    path = Path(__file__).with_name("v1_states.json")
    path.write_text(json.dumps({"secret": SECRET, "states": out}, separators=(",", ":")))
    print(f"{len(out)} states, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
