"""Game states of format version 1, read and converted to a version 2 state.

Version 1 was a full snapshot (hands, crib, the undealt deck, the play, the
scores) with a log of every event of the game; version 2 is where the current
deal began plus this deal's actions (:mod:`.state`).  During a rolling upgrade
a version 1 state sent to the new service is read by :func:`from_v1` and
answered as version 2, so no game in progress is lost.

Nothing in a version 1 state is taken on trust.  Every field is type-checked
and bounded, then the whole game is replayed from its log with the version 2
rules (the cards of each deal are known from the log: each seat's counted
hand plus its discard, the crib's count, the starter), every replayed event
must be exactly the logged one, and the position reached must be the one the
snapshot describes.  Any problem raises :class:`MalformedError` with ``field``
naming where (``state/log/17``, ``state/hands/1``); nothing else escapes.

The version 2 state is:

* ``deal``: the v1 ``hand`` (the deal in progress), or the next one when the
  last deal is over (phase ``deal``); this deal's actions are rebuilt in the
  record notation (cards given in the deal and the cut, claims where the log
  shows muggins);
* ``deal_cards``: with the service's deck, this deal's pack in the v2 dealing
  order, rebuilt from the dealt hands, the dealt crib, the starter and the
  rest of the v1 deck (none in phase ``deal``: no cards are out);
* ``deck_seed`` (the packs of the deals to come) and ``game_id``: hashes of
  the v1 state and a salt (a sealing service's secret-keyed digest of the
  token), so the same v1 state always continues the same way, two games never
  share an id, and nobody without the secret can compute the packs;
* ``history``: the real chain over the earlier deals' records, rebuilt from the log.

>>> v1 = {"version": 1, "options": {"players": 2}, "phase": "deal", "hand": 0, "dealer": 1,
...       "first_dealer": 1, "to_act": [1], "scores": [{"front": 0, "back": 0}] * 2,
...       "hands": [[], []], "crib": [], "starter": None, "deck": None, "play": None,
...       "shown": 0, "result": None, "log": []}
>>> state = from_v1(v1)
>>> state.deal, state.dealer, state.phase, state.seq, state == from_v1(v1)
(1, 1, 'deal', 0, True)
>>> try:
...     from_v1({**v1, "hands": [[], ["5H", 7]]})
... except MalformedError as exc:
...     print(exc.field)
state/hands/1/1
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

from ..cards import Card
from ..errors import CribbageError, MalformedError
from ..options import GameOptions
from .actions import Count, Cut, Deal, Discard, GameAction, Go, PlayCard, notation
from .events import GameEvent
from .state import GameState, apply_action, cut_for_deal, new_game, restore, result

from .views import event_json
from .v1_snapshot import BY_CODE, LOGGED_ACTIONS, MAX_LOG, VERSION, Snapshot, canonical, read

__all__ = ["VERSION", "MAX_LOG", "from_v1"]

def from_v1(data: object, salt: str = "") -> GameState:
    """Read a version 1 state (the plain JSON object), check it, and return it as a version 2 state.

    ``salt`` is mixed into the converted game's id and deck seed.  A sealing
    service passes a secret-keyed digest of the token: two v1 games in the same
    position then never share a game id (nor seat tokens), and nobody without
    the secret can compute the packs still to come."""
    try:
        return _from_v1(data, salt.encode())
    except MalformedError as exc:
        if not (exc.field or "").startswith("state"):
            exc.field = f"state/{exc.field}" if exc.field else "state"
        raise
    except CribbageError as exc:  # an IllegalError the replay did not wrap: still unreadable input
        raise MalformedError(f"the version 1 state does not replay: {exc.message}", field="state") from None
    except (TypeError, KeyError, IndexError, ValueError, AttributeError, RecursionError) as exc:
        raise MalformedError(f"the version 1 state is not a game state ({type(exc).__name__})",
                             field="state") from None


# ---------------------------------------------------------------------------
# The log: its deals, the v1 peg rule, and the replay with the v2 rules.


def _split(snap: Snapshot) -> list[tuple[int, int]]:
    """Check the log's order (the cuts for deal, then each deal from its deal
    entry on); return each deal's entries as [start, end) index ranges (deal k
    is ``ranges[k - 1]``)."""
    log, o = snap.log, snap.options
    i = 0
    ties = 0
    while i < len(log) and log[i]["type"] == "cut_for_deal":
        e = log[i]
        where = f"state/log/{i}"
        if set(e) - {"type", "hand", "seat", "cards"} or e["hand"] != 0:
            raise MalformedError("a cut for deal is in hand 0 and names its cards and seat", field=where)
        cuts = [BY_CODE[c] for c in e["cards"]]
        if len(cuts) != o.players or len(set(cuts)) != len(cuts):
            raise MalformedError(f"a cut for deal is one card per seat ({o.players})", field=f"{where}/cards")
        if e.get("seat") != cut_for_deal(o, cuts):
            raise MalformedError("the cut for deal names the wrong dealer", field=f"{where}/seat")
        if e.get("seat") is None:
            ties += 1
        i += 1
    if i and (ties != i - 1 or log[i - 1].get("seat") != snap.first_dealer):
        raise MalformedError("the cuts for deal are ties until the first dealer's", field=f"state/log/{i - 1}")
    ranges: list[tuple[int, int]] = []
    for j in range(i, len(log)):
        e = log[j]
        kind, hand = e["type"], e["hand"]
        where = f"state/log/{j}"
        if kind == "cut_for_deal":
            raise MalformedError("the cut for deal comes before the first deal", field=where)
        if kind == "deal":
            if hand != len(ranges) + 1:
                raise MalformedError(f"deal {len(ranges) + 1} is next in the log", field=f"{where}/hand")
            if ranges:
                ranges[-1] = (ranges[-1][0], j)
            ranges.append((j, j))
            continue
        if not ranges or hand != len(ranges):
            raise MalformedError(f"a log entry of deal {len(ranges)} is expected here", field=f"{where}/hand")
        if kind == "game_over" and (j != len(log) - 1 or snap.phase != "over"):
            raise MalformedError("the game is over only at the end of the log of a finished game", field=where)
    if ranges:
        ranges[-1] = (ranges[-1][0], len(log))
    if len(ranges) != snap.hand:
        raise MalformedError(f"the log holds {len(ranges)} deals, not {snap.hand}", field="state/hand")
    return ranges


def _v1_pegs(snap: Snapshot, entries: list[dict[str, Any]]) -> tuple[tuple[int, int], ...]:
    """Version 1's peg rule: one peg move per side per event (the back peg is
    the old front only at the side's first score in the event)."""
    pegs = [(0, 0)] * snap.options.sides
    for e in entries:
        moved: set[int] = set()
        for s in e.get("scores", ()):
            side, points = s["side"], s["points"]
            front, back = pegs[side]
            pegs[side] = (front + points, back if side in moved else front)
            moved.add(side)
    return tuple(pegs)


def _record(event: GameEvent, options: GameOptions) -> dict[str, Any]:
    """A v2 event as a v1 log entry (v1's ``event_record``): the same record
    but for the deal's key, a play's card in a list and no cards in scores."""
    out = event_json(event, options)
    out["hand"] = out.pop("deal")
    if "card" in out:
        out["cards"] = [out.pop("card")]
    for score in out.get("scores", ()):
        score.pop("cards", None)
    return out


def _cards_of(e: dict[str, Any]) -> tuple[Card, ...]:
    return tuple(BY_CODE[c] for c in e.get("cards", ()))


def _dealt(snap: Snapshot, log: list[dict[str, Any]], start: int, end: int, done: bool
           ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The hands and the crib as dealt in one deal: each seat's four cards
    and its discard; the crib's cards that no seat discarded.  A finished
    deal's four cards are in its counts; the current deal's are the snapshot's."""
    o = snap.options
    n = o.players
    discards: list[tuple[Card, ...]] = [()] * n
    kept: list[tuple[Card, ...] | None] = [None] * n
    crib: tuple[Card, ...] | None = None
    for i in range(start, end):
        e = log[i]
        kind = e["type"]
        if kind == "discard":
            if discards[e["seat"]]:
                raise MalformedError(f"seat {e['seat']} discards twice", field=f"state/log/{i}")
            discards[e["seat"]] = _cards_of(e)
        elif kind == "count" and done:
            if e.get("what") == "crib":
                crib = _cards_of(e)
            elif kept[e["seat"]] is None:
                kept[e["seat"]] = _cards_of(e)
    if not done:
        kept = list(snap.hands)
        crib = snap.crib
    for s, k in enumerate(kept):
        if k is None:
            raise MalformedError(f"deal {log[start]['hand']} is over but seat {s} never counted",
                                 field=f"state/log/{start}")
    if crib is None:
        raise MalformedError(f"deal {log[start]['hand']} is over but the crib was never counted",
                             field=f"state/log/{start}")
    discarded = {c for d in discards for c in d}
    hands = tuple(tuple(k) + d for k, d in zip(kept, discards))  # type: ignore[arg-type]
    return hands, tuple(c for c in crib if c not in discarded)


def _actions(snap: Snapshot, log: list[dict[str, Any]], start: int, end: int, done: bool
             ) -> list[tuple[int, GameAction, GameAction | None]]:
    """One deal's actions in the record form, with the index of their log
    entries and, where the log cannot tell whether the seat claimed, the
    action with the claim to try when the one without does not replay."""
    o = snap.options
    hands, crib = _dealt(snap, log, start, end, done)
    out: list[tuple[int, GameAction, GameAction | None]] = []
    for i in range(start, end):
        e = log[i]
        kind, seat = e["type"], e.get("seat")
        if kind == "game_over":
            continue
        cards = _cards_of(e)
        if kind in ("starter", "play") and len(cards) != 1:
            raise MalformedError(f"a {kind} names one card", field=f"state/log/{i}/cards")
        action: GameAction
        alternative: GameAction | None = None
        if kind == "deal":
            action = Deal(seat, hands, crib)
        elif kind == "discard":
            action = Discard(seat, cards)
        elif kind == "starter":
            action = Cut(seat, cards[0])
        else:
            # Muggins: the seat pegged what it claimed, the next opponent the
            # rest (a muggins score); otherwise it claimed everything.  But a
            # game that ends within the event cuts the muggins off: then a
            # claim is what the seat pegged (the same as any claim that could
            # have led there), tried when pegging everything does not replay.
            scores = e.get("scores", ())
            own = sum(s["points"] for s in scores if s["seat"] == seat)
            muggins = any(s["kind"] == "muggins" for s in scores)
            claim = own if muggins else None
            if kind == "play":
                action = PlayCard(seat, cards[0], claim)
            elif kind == "go":
                action = Go(seat, claim)
            else:
                action = Count(seat, claim)
            applies = o.muggins if kind == "count" else o.muggins_in_play
            if not muggins and applies and i + 1 < len(log) and log[i + 1]["type"] == "game_over":
                alternative = replace(action, claim=own)
        out.append((i, action, alternative))
    return out


def _replay(snap: Snapshot, game_id: str, ranges: list[tuple[int, int]]) -> GameState:
    """Replay the whole game from the log with a client deck (the cards given
    in each deal and cut), checking that every event is the logged one."""
    o = snap.options
    log = snap.log
    dealt = replace(o, deck="client", seed=None)
    state, _ = new_game(dealt, dealer=snap.first_dealer, game_id=game_id)
    for k, (a, b) in enumerate(ranges, start=1):
        done = k < snap.hand or snap.phase == "deal"
        for i, action, alternative in _actions(snap, log, a, b, done):
            nxt, events = _apply(state, action, i)
            if alternative is not None and _mismatch(log, i, events, o) is not None:
                action = alternative
                nxt, events = _apply(state, action, i)
            j = _mismatch(log, i, events, o)
            if j is not None:
                raise MalformedError(f"log entry {j} is not what {notation(action)} does under the rules",
                                     field=f"state/log/{min(j, len(log) - 1)}")
            state = nxt
        if state.deal != k + done:
            raise MalformedError(f"deal {k} does not end where the log says", field=f"state/log/{b - 1}")
    return state


def _apply(state: GameState, action: GameAction, i: int) -> tuple[GameState, list[GameEvent]]:
    try:
        return apply_action(state, action)
    except CribbageError as exc:
        raise MalformedError(f"log entry {i} ({notation(action)}) does not replay: {exc.message}",
                             field=f"state/log/{i}") from None


def _mismatch(log: list[dict[str, Any]], i: int, events: list[GameEvent], options: GameOptions) -> int | None:
    """The index of the first log entry from ``i`` on that is not the event
    the rules gave (game over included), or None when they all are."""
    j = i
    for event in events:
        if event.type == "deal_record":
            continue
        if j >= len(log) or log[j] != _record(event, options):
            return j
        j += 1
    return None


# ---------------------------------------------------------------------------
# The conversion.


def _from_v1(data: Any, salt: bytes) -> GameState:
    snap = read(data)
    o = snap.options
    log = snap.log
    if snap.phase != "deal" and snap.hand == 0:
        raise MalformedError("no deal has been made: the phase is deal", field="state/phase")
    ranges = _split(snap)

    if _v1_pegs(snap, log) != snap.scores:
        raise MalformedError("the scores are not what the log pegs", field="state/scores")

    game_id = hashlib.sha256(b"cribbage/v1-game/" + canonical(data) + salt).hexdigest()[:32]
    replayed = _replay(snap, game_id, ranges)
    deal = replayed.deal
    # Where this deal begins in the log (all of it when the last deal is over).
    begin = ranges[deal - 1][0] if deal <= len(ranges) else len(log)
    before = log[:begin]
    pegs = _v1_pegs(snap, before)
    if pegs != replayed.pegs or replayed.deal_seq != sum(e["type"] in LOGGED_ACTIONS for e in before):
        raise MalformedError("the log does not replay to the scores it shows", field="state/log")

    deck_seed = deal_cards = None
    if o.deck != "client":
        deck_seed = hashlib.sha256(b"cribbage/v1-conversion/" + canonical(data) + salt).hexdigest()[:32]
        if (snap.deck is None) != (snap.phase == "deal"):
            raise MalformedError("the service's deck is kept exactly while cards are out", field="state/deck")
        if snap.phase != "deal":
            deal_cards = _pack(snap, replayed)
    elif snap.deck is not None:
        raise MalformedError("a client deck keeps no deck", field="state/deck")
    # The replay rebuilt every earlier deal's record, so this is the real chain.
    history = replayed.history
    try:
        state = restore(game_id, o, snap.first_dealer, deck_seed, deal, replayed.dealer, replayed.pegs,
                        replayed.deal_seq, history, deal_cards, replayed.actions)
    except CribbageError as exc:
        raise MalformedError(f"the version 1 state does not replay: {exc.message}", field="state") from None
    _compare(snap, state)
    return state


def _pack(snap: Snapshot, replayed: GameState) -> tuple[Card, ...]:
    """This deal's 52 cards in the v2 dealing order: one card at a time from
    left of the dealer, the crib's, the starter, then the rest of the v1 deck."""
    o = snap.options
    n = o.players
    deal = replayed.actions[0]
    assert type(deal) is Deal and deal.hands is not None  # phase deal has no pack to give
    cards = [deal.hands[(replayed.dealer + 1 + i) % n][i // n] for i in range(n * o.cards_dealt)]
    cards += deal.crib
    cut = [a for a in replayed.actions if type(a) is Cut]
    if cut:
        cards.append(cut[0].starter)
    # Before the cut the starter is still on top of the v1 deck.
    cards += snap.deck or ()
    if len(cards) != 52 or len(set(cards)) != 52:
        raise MalformedError("the hands, the crib, the starter and the deck are not one pack of 52",
                             field="state/deck")
    return tuple(cards)


def _compare(snap: Snapshot, state: GameState) -> None:
    """The replayed position must be the one the version 1 state shows."""
    pos = state.position
    facts: list[tuple[str, Any, Any]] = [
        ("phase", snap.phase, pos.phase),
        ("dealer", snap.dealer, pos.dealer),
        ("scores", snap.scores, pos.pegs),
        ("hands", [sorted(h) for h in snap.hands], [sorted(h) for h in pos.hands]),
        ("crib", sorted(snap.crib), sorted(pos.crib)),
        ("starter", snap.starter, pos.starter),
        ("shown", snap.shown, pos.shown),
        ("to_act", snap.to_act, pos.to_act()),
        ("result", snap.result, result(state)),
    ]
    play = pos.play
    mine = None if play is None else {
        "turn": play.turn, "count": play.count, "count_cards": list(play.count_cards),
        "passed": sorted(play.passed), "last_player": play.last_player, "played": list(play.played),
    }
    facts.append(("play", snap.play, mine))
    if snap.deck is not None and pos.cards is not None:
        o = snap.options
        dealt = o.players * o.cards_dealt + o.dealt_to_crib
        facts.append(("deck", list(snap.deck), list(pos.cards[dealt + (pos.starter is not None):])))
    for name, theirs, ours in facts:
        if theirs != ours:
            raise MalformedError(f"the version 1 state does not replay: its {name} is not what its log gives",
                                 field="state")
