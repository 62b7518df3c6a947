"""The rules of cribbage as pure Python: no HTTP, no web framework.

Modules, one idea each: :mod:`.cards` (the 52 cards and their spellings),
:mod:`.show` (counting a hand or the crib), :mod:`.distribution` (every hand
counted), :mod:`.play` (the play, pegging), :mod:`.game` (a whole game as a
state machine).
"""
