"""The offline builders of the data the service ships (``service/advice/data/``), kept out of the runtime package.

* :mod:`.odds_build` -- the win-probability tables (``odds.json``) from the strong level's self-play
  (:mod:`.selfplay`): ``python -m tools.tables.odds_build``, numpy needed (the ``odds`` extra);
* :mod:`.tune` -- the ``tuned`` crib tables (``tuned_crib.json``) by fictitious play:
  ``python -m tools.tables.tune``.

They import the service (its rules and its bots) and are run from the repository's root; the wheel
has neither them nor numpy, and reads only what they wrote.
"""
