"""Tournament answers as JSON: ``POST /v1/matches/score``, ``POST /v1/tournaments/standings``
and ``POST /v1/tournaments/bracket`` (:mod:`service.tournament`'s values, written)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.tournament.bracket import Bracket, Pairing
from service.tournament.matches import GameScore, MatchScore
from service.tournament.standings import Correction, Disagreement, Result, Standing, Standings


def _game_json(index: int, g: GameScore) -> dict[str, Any]:
    return {
        "index": index,
        "scores": list(g.scores),
        "winner": g.winner,
        "result": g.result,
        "losers": [{"side": side, "score": g.scores[side], "result": r} for side, r in g.loser_results],
        "game_points": list(g.game_points),
        "spread": list(g.spread),
        "first_dealer": g.first_dealer,
    }


def match_json(m: MatchScore, best_of: int | None) -> dict[str, Any]:
    """A match scored game by game, its totals and (over ``best_of`` games) its winner."""
    return {
        "games": [_game_json(i, g) for i, g in enumerate(m.games)],
        "totals": list(m.totals),
        "games_won": list(m.games_won),
        "spread": list(m.spread),
        "best_of": best_of,
        "winner": m.winner,
        "decided_after": m.decided_after,
        "next_first_dealer": m.next_first_dealer,
    }


def _standing_json(t: Standing) -> dict[str, Any]:
    return {"position": t.position, "player": t.player, "games": t.games, "game_points": t.game_points,
            "games_won": t.games_won, "spread": t.spread, "plus": t.plus, "head_to_head": t.head_to_head,
            "decided_by": t.decided_by, "playoff_group": t.playoff_group}


def _disagreement_json(d: Disagreement) -> dict[str, Any]:
    return {"results": list(d.results), "players": list(d.players), "round": d.round, "problem": str(d.problem),
            "reason": d.reason, "resolved_by": None if d.resolved_by is None else str(d.resolved_by)}


def _counted_json(r: Result) -> dict[str, int]:
    return {"game_points": r.game_points, "games_won": r.won, "spread": r.spread}


def _correction_json(c: Correction) -> dict[str, Any]:
    return {"result": c.result, "player": c.now.player, "opponent": c.now.opponent, "round": c.now.round,
            "was": _counted_json(c.was), "now": _counted_json(c.now), "rules": [str(r) for r in c.rules]}


def standings_json(s: Standings) -> dict[str, Any]:
    """The table, best first, the result lines that disagree, and the lines as ACC 12.2 corrected them."""
    return {"standings": [_standing_json(t) for t in s.table],
            "disagreements": [_disagreement_json(d) for d in s.disagreements],
            "corrections": [_correction_json(c) for c in s.corrections]}


def _pairing_json(r: int, m: int, p: Pairing, names: Sequence[str] | None, qualifiers: int) -> dict[str, Any]:
    out: dict[str, Any] = {"match": m, "seeds": list(p.seeds), "bye": p.bye}
    if r == 0:
        # a seed past the qualifiers is a bye's empty place: nobody's name
        out["players"] = None if names is None else [names[s - 1] if s <= qualifiers else None for s in p.seeds]
    else:
        assert p.feeds is not None  # every later round's pairing has its feeds
        out["feeds"] = list(p.feeds)
    return out


def bracket_json(b: Bracket, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The bracket round by round; with the entrants' ``names`` (in standing
    order) the first round names who plays."""
    return {"entrants": b.entrants, "qualifiers": b.qualifiers, "size": b.size, "byes": b.byes,
            "rounds": [{"round": r + 1, "matches": [_pairing_json(r, m, p, names, b.qualifiers)
                                                      for m, p in enumerate(pairings)]}
                       for r, pairings in enumerate(b.rounds)]}
