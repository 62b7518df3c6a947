"""A game as one viewer sees it, as JSON: the ``view`` of every game answer.

Which cards the viewer sees is :mod:`service.core.game.observe`'s to say;
this writes the position with the hidden cards as ``null``.
"""

from __future__ import annotations

from typing import Any

from service.advice.odds_deal import at_deal_start
from service.core.game import GameState, Phase, result
from service.core.game.observe import SECRET_OPTIONS, Seen, Viewer, table_seen
from service.core.options import Outcome

from .options import options_to_json


def _seen(cards: Seen) -> list[str | None]:
    return [None if c is None else str(c) for c in cards]


def view_json(state: GameState, viewer: Viewer) -> dict[str, Any]:
    """The position as ``viewer`` sees it (:data:`~service.core.game.observe.EVERYONE`: everything)."""
    pos = state.position
    table = table_seen(state, viewer)
    play = pos.play
    outcome = result(state)
    return {
        "seat": viewer if isinstance(viewer, int) else None,
        "game_id": state.game_id, "seq": state.seq, "deal": pos.deal, "phase": pos.phase,
        "dealer": pos.dealer, "pone": pos.pone, "first_dealer": pos.first_dealer,
        "to_act": pos.to_act(),
        "scores": [{"front": f, "back": b} for f, b in pos.pegs],
        "hands": [_seen(h) for h in table.hands],
        "crib": _seen(table.crib),
        "starter": str(pos.starter) if pos.starter is not None else None,
        "play": None if play is None else {
            "turn": play.turn, "count": play.count,
            "count_cards": [str(c) for c in play.count_cards],
            "passed": sorted(play.passed), "last_player": play.last_player,
            "played": [str(c) for c in play.played],
        },
        "shown": pos.shown,
        "next_count": ("crib" if pos.counting_crib() else "hand") if pos.phase is Phase.SHOW else None,
        "result": outcome_json(outcome),
        "win_probability": win_probability(state, outcome),
    }


def win_probability(state: GameState, outcome: Outcome | None) -> list[float] | None:
    """Each side's chance of winning as of the start of this deal, rounded to 4 places
    (:func:`service.advice.odds_deal.at_deal_start`: None with 3 players, who ask ``POST /v1/odds``).
    Public: the scores and the dealer are."""
    chances = at_deal_start(state, outcome)
    return None if chances is None else [round(p, 4) for p in chances]


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """A game's result: the winner, each loser's margin in games, who deals the next game first."""
    if outcome is None:
        return None
    return {"winner": outcome.winner,
            "losers": [{"side": x.side, "score": x.score, "result": x.result, "games": x.games}
                       for x in outcome.losers],
            "next_first_dealer": outcome.next_first_dealer}


def shown_options_json(state: GameState) -> dict[str, Any]:
    """The game's options as every viewer is shown them (the secret ones left out)."""
    return options_to_json(state.options, hidden=SECRET_OPTIONS)
