"""``POST /v1/odds``: each side's chance of winning, for a board position or a game state within a deal.

Thin: validate, call :mod:`service.advice.odds` (a board position: the
table, or for 3 players a seeded simulation) or :mod:`service.advice.odds_deal`
(a game state: sampled from the asking seat's view), serialise.  The state is
read exactly as ``/v1/games/suggest`` reads it: plain mode names the seat,
sealed mode proves it by its seat token (no token: a spectator's view).
"""

from __future__ import annotations

from typing import Any

import falcon
import orjson
from marshmallow import fields, validate

from service.advice import odds
from service.advice.odds_deal import DealEstimate, estimate_now
from service.boundary.odds import odds_json
from service.core.errors import MalformedError
from service.core.game.observe import Viewer
from service.core.options import PLAYERS, TARGETS, check_seat, sides_of

from ..media import read_json_object
from ..schemas import StrictBoolean, StrictInteger, StrictSchema, load
from .games import SEAT_TOKEN, GameResource, StateField

MAX_SAMPLES = 200
DEFAULT_SAMPLES = 40
MAX_SEED = 2**31 - 1
MAX_SCORE = 200
BOARD_FIELDS = ("players", "target", "scores", "dealer", "five_and_two")
STATE_FIELDS = ("state", "seat", "seat_token", "samples", "seed")


class OddsRequest(StrictSchema):
    players = StrictInteger(validate=validate.OneOf(PLAYERS))
    target = StrictInteger(validate=validate.OneOf(TARGETS))
    scores = fields.List(StrictInteger(validate=validate.Range(0, MAX_SCORE)), validate=validate.Length(2, 3))
    dealer = StrictInteger(validate=validate.Range(0, 3))
    five_and_two = StrictBoolean()
    state = StateField()
    seat = StrictInteger(validate=validate.Range(0, 3))
    seat_token = SEAT_TOKEN
    samples = StrictInteger(validate=validate.Range(1, MAX_SAMPLES))
    seed = StrictInteger(validate=validate.Range(0, MAX_SEED))


class Odds(GameResource):
    _schema = OddsRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        if "state" in data:
            for name in BOARD_FIELDS:
                if name in data:
                    raise MalformedError("give a board position or a game state, not both", at=(name,))
            body = self._within_deal(data)
        else:
            for name in STATE_FIELDS:
                if name in data:
                    raise MalformedError(f"{name} goes with a game state", at=(name,))
            body = self._board(data)
        resp.data = orjson.dumps(body)
        resp.content_type = falcon.MEDIA_JSON

    def _board(self, data: dict[str, Any]) -> dict[str, Any]:
        for name in ("players", "target", "scores", "dealer"):
            if name not in data:
                raise MalformedError("a board position needs players, target, scores and dealer", at=(name,))
        players, target, scores, dealer = data["players"], data["target"], data["scores"], data["dealer"]
        five = data.get("five_and_two", False)
        if len(scores) != sides_of(players):
            raise MalformedError(f"give one score per side ({sides_of(players)})", at=("scores",))
        check_seat(players, dealer, ("dealer",))
        if five and players != 2:
            raise MalformedError("the five-and-two deal is for 2 players", at=("five_and_two",))
        if sum(s >= target for s in scores) > 1:
            raise MalformedError("only one side can reach the target", at=("scores",))
        won = any(s >= target for s in scores)
        if players == 3 and not won:
            sim = odds.estimate(target, tuple(scores), dealer)
            e = DealEstimate(sim.chances, sim.standard_errors, 0, "simulation", 0.0)
            games = sim.games
        else:
            chances = odds.board_odds(players, target, scores, dealer, five)
            e = DealEstimate(chances, (0.0,) * len(scores), 0, "over" if won else "table", 0.0)
            games = 0
        return odds_json(players, target, five, dealer, scores, e, games, None, "deal_start")

    def _within_deal(self, data: dict[str, Any]) -> dict[str, Any]:
        state = self.read_state(data["state"])
        viewer: Viewer
        if self.sealer is None:
            if "seat_token" in data:
                raise MalformedError("seat tokens belong to sealed games", at=("seat_token",))
            if "seat" not in data:
                raise MalformedError("name the seat whose view the estimate is from", at=("seat",))
            viewer = self.seat(state, data, "seat")
        else:
            viewer = self.seat(state, data, "seat")  # the token's seat, or a spectator without one
        samples, seed = data.get("samples", DEFAULT_SAMPLES), data.get("seed", 0)
        e = estimate_now(state, viewer, samples, seed)
        o = state.options
        games = odds.SIMULATED_GAMES if e.method == "simulation" else 0
        at = "now" if e.method == "sampled" else "deal_start"
        seat = viewer if isinstance(viewer, int) else None
        return odds_json(o.players, o.target, o.five_and_two, state.dealer, list(state.position.scores), e, games,
                         seat, at)


__all__ = ["Odds"]
