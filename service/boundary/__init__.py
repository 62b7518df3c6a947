"""The JSON boundary: every JSON shape the service reads or writes of the rules core.

The core (:mod:`service.core`) knows no JSON and names no request field:
it takes and returns typed values, and its errors carry a structured
location (:data:`service.core.errors.Location`).  The HTTP layer and the
tools read and write the core's values here.  Modules, one shape each:

* :mod:`.pointers` -- a location as a JSON pointer (a problem's ``field``);
* :mod:`.options` -- a game's options (only those that differ from the defaults);
* :mod:`.actions` -- game actions and the play's entries, both ways;
* :mod:`.state` -- the game state a client holds (format 2), both ways;
* :mod:`.records` -- a whole game's record, replayed;
* :mod:`.events` -- a game's events as a viewer sees them;
* :mod:`.views` -- a game as a viewer sees it, and its result;
* :mod:`.show` -- the show's score document (hands/score, a batch item);
* :mod:`.scores` -- judged claims and the play's events;
* :mod:`.games` -- a game operation's answer (start, advance, view) and a replay's;
* :mod:`.pegging` -- the play's answers (pegging/score, pegging/go);
* :mod:`.advice` -- the advisors' answers (discards, pegging/advise, games/suggest);
* :mod:`.odds` -- each side's chance of winning (odds);
* :mod:`.review` -- a finished game's review;
* :mod:`.tournament` -- a match's score, standings and a bracket;
* :mod:`.meta` -- the service's own answers (healthz, readyz, version).

The HTTP layer parses and validates a request, calls the core (or
:mod:`service.advice`, :mod:`service.tournament`) and serialises what a
function here returns; it composes no answer document itself
(``tests/boundary/test_boundary.py`` checks its resources).

What a viewer may see is the core's to decide
(:mod:`service.core.game.observe`); this package only writes it.
"""
