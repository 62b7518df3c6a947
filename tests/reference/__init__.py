"""References of the rules for the tests, written independently of service/.

Each module scores or referees a part of the rules as docs/rules.md states it, on
purpose in another way than the service does: show.py (the show: subsets by bit
mask, pairs by rank, runs by streak), play.py (what a card pegs from the count's
tail; the play refereed seat by seat), legal.py (what is legal at a moment of a game)
and cards.py (concrete cards for a multiset of ranks).  The tests hold the service to them
(tests/core/test_show_properties.py, tests/core/test_play_properties.py, tests/core/test_kernel.py,
tests/core/game/test_game_properties.py, tests/core/game/test_deal_machine.py).

A reference must never import service's implementation of the rule it checks (it
would then check the service against itself): only the service's vocabulary, the
card type and the play's action types.  Imported as ``reference`` (tests/ is on
sys.path: ``pythonpath`` in pyproject.toml's [tool.pytest.ini_options], as for conftest
and the other helpers): ``from reference.show import reference_total_fast``.
"""
