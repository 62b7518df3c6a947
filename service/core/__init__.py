"""The rules of cribbage as pure Python: no HTTP, no web framework.

The ruleset is docs/rules.md; each rule has one home here, named with the
game's words.  Modules, one idea each:

* :mod:`.cards` -- the 52 cards, their spellings and "no card twice";
* :mod:`.show` -- counting a hand or the crib (fifteens, pairs, runs, the
  flush, his nobs; his heels at the cut), and :mod:`.show_text` -- the count
  said aloud;
* :mod:`.distribution` -- every (four cards, starter) deal counted;
* :mod:`.play` -- the play (pegging): the count to 31, the go, the renege;
* :mod:`.options` -- a game's options and variants, and a game's outcome
  (skunk, double skunk, lurch);
* :mod:`.game` -- a whole game for 2, 3 or 4 players as a state machine: its
  actions and notation, positions, the state a client holds, each deal's
  pack, and what each seat may see and is told;
* :mod:`.errors` -- the two kinds of wrong input, malformed and illegal,
  each located by keys and indexes inside what the raiser was handed.

No JSON here and no request field: the edge reads and writes the core's
values through :mod:`service.boundary` and says where in its request each
part it handed in sits.
"""
