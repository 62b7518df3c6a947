"""Tournament software beside the rules core: finished games turned into ACC
match results, standings and the playoff bracket (docs/rules.md,
"Tournament scoring").  Pure Python; it uses :mod:`service.core` (the skunk
lines, the errors) and never the HTTP layer.

* :mod:`.matches` -- game points, spread, match totals, best-of matches and
  the next game's first dealer;
* :mod:`.standings` -- standings by the ACC tie-breakers and the cross-check
  of each game's two scorecard lines;
* :mod:`.bracket` -- one in four qualifies, byes to the top seeds, the pairings.

Judging a player's claim is a rule of the game itself, so it lives in the
core (:mod:`service.core.claims`).
"""
