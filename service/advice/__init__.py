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
  view only.

Nothing here knows HTTP or JSON.
"""
