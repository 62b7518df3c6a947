"""The play's answers as JSON: ``POST /v1/pegging/score`` and ``POST /v1/pegging/go``.

A score answer is the table, the events (:func:`.scores.peg_event_json`, a
judged claim with its ruling), each seat's totals (and the partnerships'
with four players) and what comes next: the seat to act, the count and the
legal actions in the notation of ``plays``.  A go answer is the core's
ruling on a go, the renege's penalty named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.core.claims import Settled
from service.core.go import GoRuling
from service.core.options import side_totals
from service.core.play import PegEvent, Play

from .actions import play_action_json
from .scores import peg_event_json

RENEGE_RULE = "ACC 7.3 renege"


def pegging_score_json(pone: int, play: Play, events: Sequence[PegEvent], settled: Sequence[Settled | None],
                       totals: list[int]) -> dict[str, Any]:
    """The adjudicated play: ``settled`` is each event's claim as the table
    settled it (None: no claim), ``totals`` each seat's points pegged."""
    players = play.players
    return {
        "players": players,
        "pone": pone,
        "events": [peg_event_json(i, e) if st is None else peg_event_json(i, e, st.scores, st.ruling)
                   for i, (e, st) in enumerate(zip(events, settled))],
        "totals": totals,
        "partnerships": side_totals(players, totals) if players == 4 else None,
        "hand_over": play.hand_over,
        "next": {
            "seat": play.turn,
            "count": play.count,
            "count_cards": [str(c) for c in play.count_cards],
            "legal": [play_action_json(a) for a in play.legal_actions()],
        },
    }


def go_ruling_json(ruling: GoRuling) -> dict[str, Any]:
    """Whether the seat may say go; what a renege costs (the core's penalty,
    nothing at the lead, where a go is refused) and to whom."""
    return {
        "legal": ruling.legal,
        "count": ruling.count,
        "playable": [str(c) for c in ruling.playable],
        "penalty": {"points": ruling.penalty, "to": "opponent", "rule": RENEGE_RULE} if ruling.penalty else None,
    }
