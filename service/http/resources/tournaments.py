"""Tournament operations: ``POST /v1/matches/score``, ``POST /v1/tournaments/standings``
and ``POST /v1/tournaments/bracket``.

Thin: validate (marshmallow), call :mod:`service.tournament`, write JSON.  A
game of a match is its final scores or its record (the ``/v1/games/replay``
record, replayed here to its final scores).
"""

from __future__ import annotations

from typing import Any, TypedDict

import falcon
import orjson
from marshmallow import ValidationError, fields, validate

from service.boundary.tournament import bracket_json, match_json, standings_json
from service.core.errors import MalformedError
from service.core.options import TARGETS
from service.tournament.bracket import MAX_ENTRANTS, bracket
from service.tournament.matches import BEST_OF, MAX_SCORE, MatchRules, score_match
from service.tournament.standings import MAX_RESULTS, Result, ResultKind, forfeit, standings

from ..media import read_json_object
from ..schemas import StrictBoolean, StrictInteger, StrictSchema, load
from .games import RecordSchema, replayed

MAX_GAMES = 15
MAX_NAME = 40
MAX_NAMED_ENTRANTS = 1024


class GameEntry(StrictSchema):
    scores = fields.List(StrictInteger(validate=validate.Range(0, MAX_SCORE)), validate=validate.Length(2, 3))
    record = fields.Nested(RecordSchema)

    def handle_error(self, error: ValidationError, data: Any, **kwargs: Any) -> None:
        raise error


def _points(default: int) -> StrictInteger:
    return StrictInteger(load_default=default, validate=validate.Range(0, 10))


class MatchRequest(StrictSchema):
    games = fields.List(fields.Nested(GameEntry), required=True, validate=validate.Length(1, MAX_GAMES))
    target = StrictInteger(load_default=121, validate=validate.OneOf(TARGETS))
    win_points = _points(2)
    skunk_points = _points(3)
    double_skunk = StrictBoolean(load_default=False)
    double_skunk_points = _points(4)
    lurch = StrictBoolean(load_default=False)
    lurch_points = _points(4)
    grass_roots = StrictBoolean(load_default=False)
    best_of = StrictInteger(validate=validate.OneOf(BEST_OF))
    first_dealer = StrictInteger(load_default=0, validate=validate.Range(0, 2))
    loser_deals_first = StrictBoolean(load_default=False)


class LoadedGame(TypedDict, total=False):
    """A game of a match as :class:`GameEntry` loads it: its final scores or its record."""

    scores: list[int]
    record: dict[str, Any]


def _final_scores(i: int, game: LoadedGame) -> list[int]:
    if ("scores" in game) == ("record" in game):
        raise MalformedError("a game is given by its final scores or by its record, one of them",
                             at=("games", i))
    if "scores" in game:
        return game["scores"]
    state, _ = replayed(game["record"], "games", i, "record")
    if state.position.winner is None:
        raise MalformedError("the record's game is not finished", at=("games", i, "record"))
    return list(state.position.scores)


class MatchScore:
    _schema = MatchRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        games = [_final_scores(i, g) for i, g in enumerate(data.pop("games"))]
        rules = MatchRules(**data)  # the core checks the combinations
        m = score_match(games, rules)
        resp.data = orjson.dumps(match_json(m, rules.best_of))
        resp.content_type = falcon.MEDIA_JSON


class ResultEntries(fields.Field[list[Result]]):
    """``results``: up to ``MAX_RESULTS`` lines ``{player, opponent, game_points,
    games_won, spread, round?, kind?}``, loaded as the core's :class:`Result` by hand
    (a nested schema per line would cost most of the request); every error
    is named (``/results/3/spread``).  A forfeit (``kind: forfeit``) gives only
    ``games_won``: its game points and spread are the rule's (the core's
    :func:`forfeit`), so giving them is an error."""

    _LIMITS = {"game_points": (0, 10), "games_won": (0, 1), "spread": (-MAX_SCORE, MAX_SCORE), "round": (1, 1000)}
    _REQUIRED = ("player", "opponent", "game_points", "games_won", "spread")
    _FORFEIT_REQUIRED = ("player", "opponent", "games_won")
    _KINDS = tuple(k.value for k in ResultKind)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Result]:
        if not isinstance(value, list):
            raise ValidationError("expected an array of results")
        if len(value) > MAX_RESULTS:
            raise ValidationError(f"at most {MAX_RESULTS} results, not {len(value)}")
        out: list[Result] = []
        errors: dict[int, list[str] | dict[str, list[str]]] = {}
        for i, line in enumerate(value):
            if type(line) is not dict:
                errors[i] = ["expected a JSON object"]
                continue
            problems: dict[str, list[str]] = {}
            kind = line.get("kind", "played")
            if kind not in self._KINDS:
                problems["kind"] = [f"one of {', '.join(self._KINDS)}"]
            is_forfeit = kind == ResultKind.FORFEIT
            for key in line:
                if key not in self._LIMITS and key not in ("player", "opponent", "kind"):
                    problems[key] = ["unknown field"]
                elif is_forfeit and key in ("game_points", "spread"):
                    problems[key] = ["a forfeit's game points and spread are the rule's: give only games_won "
                                     "(and the request's forfeit_spread)"]
            for key in self._FORFEIT_REQUIRED if is_forfeit else self._REQUIRED:
                if key not in line:
                    problems[key] = ["required field is missing"]
            for key in ("player", "opponent"):
                v = line.get(key)
                if key in line and (type(v) is not str or not 1 <= len(v) <= MAX_NAME):
                    problems[key] = [f"a name is a string of 1 to {MAX_NAME} characters"]
            for key, (low, high) in self._LIMITS.items():
                v = line.get(key)
                if key in line and key not in problems and (type(v) is not int or not low <= v <= high):
                    problems[key] = [f"an integer from {low} to {high}"]
            if problems:
                errors[i] = problems
                continue
            if is_forfeit:  # the spread is the request's forfeit_spread (Standings.on_post)
                out.append(forfeit(line["player"], line["opponent"], line["games_won"] == 1, line.get("round")))
            else:
                out.append(Result(line["player"], line["opponent"], line["game_points"], line["games_won"],
                                  line["spread"], line.get("round")))
        if errors:
            raise ValidationError(errors)
        return out


class StandingsRequest(StrictSchema):
    results = ResultEntries(required=True)
    forfeit_spread = StrictInteger(load_default=0, validate=validate.Range(0, MAX_SCORE))


def _with_forfeit_spread(results: list[Result], spread: int) -> list[Result]:
    """The forfeit lines given the request's ``forfeit_spread`` (the core's :func:`forfeit`)."""
    if not spread:
        return results
    return [forfeit(r.player, r.opponent, r.won == 1, r.round, spread) if r.kind is ResultKind.FORFEIT else r
            for r in results]


class Standings:
    _schema = StandingsRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        s = standings(_with_forfeit_spread(data["results"], data["forfeit_spread"]))
        resp.data = orjson.dumps(standings_json(s))
        resp.content_type = falcon.MEDIA_JSON


class NamesField(fields.Field[list[str]]):
    """``names``: the entrants' names in standing order, each once."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[str]:
        if type(value) is list:
            if not 1 <= len(value) <= MAX_NAMED_ENTRANTS:
                raise ValidationError(f"1 to {MAX_NAMED_ENTRANTS} named entrants, not {len(value)}")
            bad = {i: [f"a name is a string of 1 to {MAX_NAME} characters"] for i, v in enumerate(value)
                   if type(v) is not str or not 1 <= len(v) <= MAX_NAME}
            if bad:
                raise ValidationError(bad)
            if len(set(value)) != len(value):
                raise ValidationError("every entrant is named once")
            return value
        raise ValidationError("expected the entrants' names in standing order")


class BracketRequest(StrictSchema):
    entrants = StrictInteger(validate=validate.Range(1, MAX_ENTRANTS))
    names = NamesField()


class Bracket:
    _schema = BracketRequest()

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        data = load(self._schema, read_json_object(req))
        if len(data) != 1:
            raise MalformedError("give the number of entrants or their names, one of them")
        names = data.get("names")
        resp.data = orjson.dumps(bracket_json(bracket(len(names) if names else data["entrants"]), names))
        resp.content_type = falcon.MEDIA_JSON

