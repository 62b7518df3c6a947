"""Advice and a computer opponent, beside the rules core and built on it.

* :mod:`.discards` -- every discard choice of a deal, best first: the exact
  hand distribution over the starter and the crib under an opponent model
  (``random``: exact; ``tuned``: :mod:`.crib_table`);
* :mod:`.crib_table` -- the tuned crib values shipped as data (computed offline by
  ``tools/tables/tune.py``, as the win-probability tables by ``tools/tables/odds_build.py``);
* :mod:`.pegging` -- the double-dummy solver of the rest of a play and the
  perfect-information Monte Carlo advisor built on it;
* :mod:`.view` -- what one seat may see of a game, the only input of what
  decides for it;
* :mod:`.evaluate` -- the one evaluation engine: every legal action of a
  seat valued in points and in the chance of winning the game;
* :mod:`.bot` -- the action a seat's bot takes, decided from that seat's own
  view only (greedy, strong, board), and runs of bot actions;
* :mod:`.reasons` -- why a bot chose its action, a frozen record for each way;
* :mod:`.reply` -- the rest of a 2-player play searched for the game against a
  seat that plays for points (the board level's reply model);
* :mod:`.odds` -- the chance of winning from a board position at a deal's
  start (the shipped tables; 3 players simulated);
* :mod:`.odds_deal` -- the chance of winning from within a deal, from what one
  viewer may see (the evaluation over the model of hidden cards);
* :mod:`.review` -- a game's review: every decision against the best, valued
  by the evaluation;
* :mod:`.luck` -- the luck of the cards, dealt and cut, against the average.

The offline builders of the shipped data (``data/``) are in ``tools/tables/``;
the model of the cards a seat cannot see is the core's
(:mod:`service.core.game.hidden`).

Nothing here knows HTTP or JSON.
"""
