"""What a seat cannot see: the hidden cards of a deal, dealt again consistently with everything it saw.

OpenSpiel's chance outcomes, for an information set: an :class:`Observation`
is what one viewer knows of the deal in progress (its own cards and
discards, every card laid in the play and who laid it, the goes said, the
starter once turned, hands once counted in the show), and a :class:`World`
is one way every hidden card can lie (each seat's cards, each seat's
discards, the cards the pack gave the crib, the starter).  :func:`sample`
draws worlds with the chance the viewer should give them; :func:`exact`
lists every world with its chance where they are few; :func:`worlds` takes
the exact list when it is small enough and samples otherwise.  Every
advisor, bot, estimate of the chance of winning and the game review draws
its worlds here: this is the one model of the cards a seat cannot see.

**The model.**  Each seat was dealt its cards at random; a seat that has
laid its discard away chose it by a :class:`ThrowModel`: ``UNIFORM`` (any
discard equally likely), or a player's rule ``throw(dealt, players,
own_crib)``, with a chance ``slip`` of any discard at random instead (so no
play, however unlikely under the rule, has chance 0).  What the viewer saw
then rules worlds out: the cards a seat laid in the play are among the ones
it kept; a seat that said go at count ``c`` holds no card worth ``31 - c`` or
less (not under tournament rules, where a go may be a renege); a hand counted
in the show is that seat's.  Sampling is by rejection from the model itself
(a world is drawn as the deal and the discards would have made it, and kept
if it fits everything seen), so a sampled world has exactly the chance the
model gives it given what was seen; ``tests/core/game/test_hidden.py`` holds the
sampler to an independent enumeration by a chi-square test.

The seat's own cards are never dealt again: a world changes only cards the
viewer has not seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from math import comb, factorial

from ..cards import CARDS, VALUE, Card
from ..errors import IllegalError, MalformedError
from ..options import owns_crib, pone
from ..engine import kernel
from ..play import Go, Play, PlayCard
from .observe import Viewer, visible_cards
from .position import Phase
from .state import GameState

Throw = Callable[[tuple[Card, ...], int, bool], tuple[Card, ...]]
"""A player's discard: ``throw(dealt, players, own_crib)`` -> the cards it lays away (``own_crib``: the
crib is its side's)."""

KEPT = 4
"""Cards each seat keeps for the play."""
MAX_TRIES = 4_000
"""Whole worlds drawn from the model before one that fits is built seat by seat instead
(:func:`_resampled`); here a world fits in a few tries, and rarely in hundreds (several tight goes)."""
SWEEPS = 4
"""Passes of :func:`_resampled` over the hidden places, each redrawn given the others."""
EXACT_WORLDS = 1_000
"""At most this many worlds are listed exactly (:func:`worlds`); more are sampled."""


@dataclass(frozen=True, slots=True)
class ThrowModel:
    """How a seat chose its discard: by ``throw`` (None: any discard alike), except that with chance
    ``slip`` it laid away any of its cards at random."""

    name: str
    throw: Throw | None = None
    slip: float = 1.0

    def chance(self, dealt: tuple[Card, ...], thrown: frozenset[Card], players: int, own_crib: bool) -> float:
        """The chance that a seat dealt ``dealt`` lays away ``thrown``."""
        uniform = 1.0 / comb(len(dealt), len(thrown))
        if self.throw is None:
            return uniform
        hit = frozenset(self.throw(dealt, players, own_crib)) == thrown
        return (1.0 - self.slip) * hit + self.slip * uniform


UNIFORM = ThrowModel("uniform")
"""Every discard alike: another seat's kept cards are any of the unseen cards."""


@dataclass(frozen=True, slots=True)
class Observation:
    """What one viewer knows of the deal in progress."""

    players: int
    dealer: int
    viewer: int | None
    """The seat looking (None: a spectator)."""
    dealt: int
    """Cards dealt each seat (6, or 5)."""
    to_crib: int
    """Cards the pack gives the crib."""
    discarded: tuple[bool, ...]
    """Per seat, whether it has laid its discard away."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, the cards the viewer knows it holds: as dealt before its discard, its four for the play
    after (laid in the play or not): all of them for the viewer itself, the ones laid in the play (and a
    hand once counted in the show) for the others."""
    thrown: tuple[tuple[Card, ...] | None, ...]
    """Per seat, its discards when the viewer knows them (its own), else None (or () before it discards)."""
    laid: tuple[tuple[Card, ...], ...]
    """Per seat, the cards it has laid in the play, in order."""
    go_limits: tuple[int, ...]
    """Per seat, the highest value it cannot hold among its unplayed cards (its goes), 0 for none."""
    starter: Card | None
    seen: frozenset[Card]
    """Every card the viewer has seen (none of them is hidden anywhere)."""
    pack_crib: tuple[Card, ...] | None = None
    """The cards the pack gave the crib, when the viewer knows them (a trusted platform sees every card)."""

    def held_size(self, seat: int) -> int:
        """Cards ``seat`` holds in the deal: as dealt before its discard, four after."""
        return KEPT if self.discarded[seat] else self.dealt

    def own_crib(self, seat: int) -> bool:
        return owns_crib(self.players, seat, self.dealer)

    def hidden(self, seat: int) -> tuple[int, int]:
        """How many of ``seat``'s cards are hidden: (held, thrown)."""
        held = self.held_size(seat) - len(self.known[seat])
        thrown = self.dealt - KEPT if self.discarded[seat] and self.thrown[seat] is None else 0
        return held, thrown

    @property
    def pack_hidden(self) -> int:
        return self.to_crib if self.pack_crib is None else 0

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards the viewer has not seen, in card order: every hidden card is one of them."""
        return tuple(c for c in CARDS if c not in self.seen)


@dataclass(frozen=True, slots=True)
class World:
    """One way the hidden cards lie."""

    held: tuple[tuple[Card, ...], ...]
    """Per seat: its cards as dealt before its discard, its four after (the ones it laid included, first)."""
    thrown: tuple[tuple[Card, ...], ...]
    """Per seat: its discards (() before it discards, or when they are the viewer's own and unknown)."""
    pack_crib: tuple[Card, ...]
    """The cards the pack gave the crib."""
    starter: Card | None
    """The starter: turned, or drawn for the world (None when not asked for)."""

    @property
    def crib(self) -> tuple[Card, ...]:
        return tuple(c for t in self.thrown for c in t) + self.pack_crib

    def unplayed(self, obs: Observation, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` still holds in the play."""
        laid = obs.laid[seat]
        return tuple(c for c in self.held[seat] if c not in laid)


# ---------------------------------------------------------------------------
# The go: what a seat that said go cannot hold.


def go_limits(players: int, pone: int, plays: Sequence[PlayCard | Go], tournament: bool = False) -> tuple[int, ...]:
    """Per seat, the highest card value it cannot hold among its unplayed cards: a seat that said go at
    count ``c`` holds no card worth ``31 - c`` or less (it would fit), 0 where it said none.  Under
    tournament rules a go may be a renege and proves nothing.  The play is replayed without its hands;
    an illegal entry raises :class:`IllegalError` located at ``("plays", i)``."""
    limits = [0] * players
    play = Play.start(players, pone, tournament=tournament)
    for i, a in enumerate(plays):
        if isinstance(a, Go) and not tournament:
            limits[a.seat] = max(limits[a.seat], kernel.MAX_COUNT - play.count)
        try:
            play, _ = play.apply(a)
        except IllegalError as exc:
            exc.at = ("plays", i)
            raise
    return tuple(limits)


def fits_goes(obs: Observation, seat: int, unplayed: Sequence[Card]) -> bool:
    """Whether ``seat`` may hold ``unplayed`` given the goes it said."""
    limit = obs.go_limits[seat]
    return not limit or all(VALUE[c] > limit for c in unplayed)


# ---------------------------------------------------------------------------
# Observations.


def observe(players: int, dealer: int, viewer: int | None, *, dealt: int, to_crib: int,
            discarded: Sequence[bool], known: Sequence[Sequence[Card]], thrown: Sequence[Sequence[Card] | None],
            plays: Sequence[PlayCard | Go], starter: Card | None, seen: Iterable[Card] = (),
            tournament: bool = False) -> Observation:
    """An observation from its parts; the cards laid in ``plays`` are added to each seat's known cards, and
    every card named anywhere to the seen ones.  Raises :class:`MalformedError` when the parts contradict
    each other (a card in two places, a seat with too many cards, a go while holding a card that fits)."""
    laid: list[tuple[Card, ...]] = [() for _ in range(players)]
    for a in plays:
        if isinstance(a, PlayCard):
            laid[a.seat] += (a.card,)
    limits = go_limits(players, pone(players, dealer), plays, tournament) if plays else (0,) * players
    holds = []
    for s in range(players):
        mine = tuple(known[s]) + tuple(c for c in laid[s] if c not in known[s])
        holds.append(mine)
    everything = [c for h in holds for c in h] + [c for t in thrown if t for c in t]
    if len(set(everything)) != len(everything):
        raise MalformedError("a card is in two places", at=("plays",))
    all_seen = frozenset(everything) | frozenset(seen) | frozenset(() if starter is None else (starter,))
    obs = Observation(players, dealer, viewer, dealt, to_crib, tuple(discarded), tuple(holds),
                      tuple(None if t is None else tuple(t) for t in thrown), tuple(laid), limits, starter, all_seen)
    for s in range(players):
        if len(obs.known[s]) > obs.held_size(s):
            raise MalformedError(f"seat {s} holds more than {obs.held_size(s)} cards", at=("plays",))
        if not fits_goes(obs, s, [c for c in obs.known[s] if c not in obs.laid[s]]):
            raise MalformedError(f"seat {s} said go while holding a card that fitted", at=("plays",))
    return obs


def of_state(state: GameState, viewer: Viewer) -> Observation:
    """What ``viewer`` knows of the state's deal (:func:`.observe.visible_cards` decides what it sees)."""
    pos = state.position
    o = state.options
    visible = visible_cards(state, viewer)

    def sees(cards: Sequence[Card]) -> bool:
        return visible is None or all(c in visible for c in cards)

    known = tuple(tuple(c for c in h if visible is None or c in visible) for h in pos.hands)
    thrown = tuple((tuple(d) if sees(d) else None) if d else () for d in pos.discards)
    starter = pos.starter if pos.starter is not None and sees((pos.starter,)) else None
    plays = tuple(a for a in state.actions if isinstance(a, (PlayCard, Go)))
    dealt_crib = tuple(c for c in pos.crib if all(c not in d for d in pos.discards))
    seen = visible if visible is not None else frozenset(
        [c for h in pos.hands for c in h] + list(pos.crib) + ([] if pos.starter is None else [pos.starter]))
    obs = observe(o.players, pos.dealer, viewer if isinstance(viewer, int) else None, dealt=o.cards_dealt,
                  to_crib=o.dealt_to_crib, discarded=[bool(d) for d in pos.discards], known=known, thrown=thrown,
                  plays=plays, starter=starter, seen=seen, tournament=o.tournament)
    if visible is None and pos.phase is not Phase.DEAL:
        return replace(obs, pack_crib=dealt_crib)
    return obs


# ---------------------------------------------------------------------------
# Sampling.


def _throw_fits(obs: Observation, seat: int, dealt: tuple[Card, ...], thrown: frozenset[Card]) -> bool:
    """Whether a seat dealt ``dealt`` that laid ``thrown`` away fits what the viewer knows of it."""
    known = obs.thrown[seat]
    if known is not None and frozenset(known) != thrown:
        return False
    return not any(c in thrown for c in obs.known[seat])


def _draw_seat(obs: Observation, seat: int, pool: list[Card], rng: random.Random,
               model: ThrowModel) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """One draw of ``seat``'s hidden cards from ``pool`` as the model deals and throws them (the cards are
    taken out of ``pool``): its cards and its discards, or None when the draw contradicts what was seen."""
    held_n, thrown_n = obs.hidden(seat)
    known = obs.known[seat]
    if not obs.discarded[seat] or (not thrown_n and obs.thrown[seat] is not None):
        drawn = _take(pool, held_n, rng)
        held = known + drawn
        unplayed = tuple(c for c in held if c not in obs.laid[seat])
        return (held, tuple(obs.thrown[seat] or ())) if fits_goes(obs, seat, unplayed) else None
    if model.throw is None:  # any discard alike: the kept cards and the discards are any unseen cards
        drawn = _take(pool, held_n, rng)
        thrown = _take(pool, thrown_n, rng)
    else:  # dealt at random, thrown as the model throws: kept only where that fits what was seen
        dealt = known + _take(pool, held_n + thrown_n, rng)
        if rng.random() < model.slip:
            chosen = tuple(rng.sample(dealt, obs.dealt - KEPT))
        else:
            chosen = model.throw(dealt, obs.players, obs.own_crib(seat))
        thrown_set = frozenset(chosen)
        if not _throw_fits(obs, seat, dealt, thrown_set):
            return None
        drawn = tuple(c for c in dealt if c not in thrown_set and c not in known)
        thrown = tuple(c for c in dealt if c in thrown_set)
    held = known + drawn
    if not fits_goes(obs, seat, [c for c in drawn if c not in obs.laid[seat]]):
        return None
    return held, thrown


def _take(pool: list[Card], n: int, rng: random.Random) -> tuple[Card, ...]:
    """``n`` cards at random out of ``pool`` (removed from it)."""
    out = []
    for _ in range(n):
        i = rng.randrange(len(pool))
        pool[i], pool[-1] = pool[-1], pool[i]
        out.append(pool.pop())
    return tuple(out)


def _hidden_seats(obs: Observation) -> list[int]:
    return [s for s in range(obs.players) if any(obs.hidden(s))]


def _assemble(obs: Observation, seats: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]],
              pack_crib: tuple[Card, ...], starter: Card | None) -> World:
    held = tuple(seats[s][0] if s in seats else obs.known[s] for s in range(obs.players))
    thrown = tuple(seats[s][1] if s in seats else tuple(obs.thrown[s] or ()) for s in range(obs.players))
    return World(held, thrown, pack_crib, starter)


def sample(obs: Observation, rng: random.Random, model: ThrowModel = UNIFORM, *, starter: bool = True) -> World:
    """One world drawn with the chance the model gives it given ``obs``; the starter, when not yet turned,
    drawn too (``starter`` False: left None).  Raises :class:`MalformedError` when no world fits (the
    observation contradicts itself, or a discard the model never makes: ``slip`` 0)."""
    seats = _hidden_seats(obs)
    unseen = list(obs.unseen)
    for _ in range(MAX_TRIES):
        pool = list(unseen)
        drawn: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]] = {}
        for s in seats:
            got = _draw_seat(obs, s, pool, rng, model)
            if got is None:
                break
            drawn[s] = got
        else:
            return _finish(obs, drawn, pool, rng, starter)
    return _resampled(obs, rng, model, starter)


def _finish(obs: Observation, drawn: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]], pool: list[Card],
            rng: random.Random, starter: bool) -> World:
    pack = _take(pool, obs.to_crib, rng) if obs.pack_crib is None else obs.pack_crib
    turned = obs.starter if obs.starter is not None else (_take(pool, 1, rng)[0] if starter else None)
    return _assemble(obs, drawn, pack, turned)


def _resampled(obs: Observation, rng: random.Random, model: ThrowModel, starter: bool) -> World:
    """A world where whole draws rarely fit (several tight goes): each seat's cards drawn in turn from
    what the others leave until it fits, then :data:`SWEEPS` passes redrawing each seat given the others
    (a Gibbs sampler over the seats, whose every step keeps the model's chances given the rest)."""
    seats = sorted(_hidden_seats(obs), key=lambda s: -obs.go_limits[s])  # the most constrained first
    drawn: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]] = {}

    # Where the model's own throw (almost) never fits what was seen (the seat's played cards are ones
    # the model would not keep), the world's chance is nearly all the slip's: a throw at random.  It is
    # drawn so then rather than refuse an observation that a real game produced.
    slipped = replace(model, slip=1.0)

    def redraw(s: int) -> bool:
        taken = {c for t, (h, th) in drawn.items() if t != s for c in h + th}
        free = [c for c in obs.unseen if c not in taken]
        for how in (model, slipped) if model.slip < 1.0 else (model,):
            for _ in range(MAX_TRIES):
                pool = list(free)
                got = _draw_seat(obs, s, pool, rng, how)
                if got is not None:
                    drawn[s] = got
                    return True
        return False

    for s in seats:
        if not redraw(s):
            raise MalformedError(f"no deal of the unseen cards fits what seat {s} was seen to do", at=("plays",))
    for _ in range(SWEEPS):
        for s in seats:
            redraw(s)
    pool = [c for c in obs.unseen if all(c not in h + th for h, th in drawn.values())]
    return _finish(obs, drawn, pool, rng, starter)


# ---------------------------------------------------------------------------
# Every world, where they are few.


def world_count(obs: Observation, crib: bool = True) -> int:
    """How many ways the hidden cards can lie, before the goes and the discards rule any out (``crib``
    False: the hidden held cards only, where the discards need not be listed)."""
    sizes = [n for s in range(obs.players) for n in obs.hidden(s)[:1 if not crib else 2]]
    if crib:
        sizes.append(obs.pack_hidden)
    free = len(obs.unseen)
    total = sum(sizes)
    if total > free:
        return 0
    ways = factorial(free) // factorial(free - total)
    for n in sizes:
        ways //= factorial(n)
    return ways


def exact(obs: Observation, model: ThrowModel = UNIFORM, limit: int = EXACT_WORLDS,
          crib: bool = True) -> list[tuple[World, float]] | None:
    """Every world with its chance given ``obs`` (the chances sum to 1), or None when there are more than
    ``limit`` to weigh, or the starter is still to be turned.  ``crib`` False: worlds that differ only in
    the crib are one (their chances summed; its cards left out, the discards of the hidden seats empty):
    for the play, which the crib does not change."""
    if obs.starter is None:
        return None
    marginal = not crib and model.throw is None  # any discard alike: the crib's cards weigh nothing
    if world_count(obs, crib=not marginal) > limit:
        return None
    seats = _hidden_seats(obs)
    out: dict[World, float] = {}

    def place(i: int, free: tuple[Card, ...], drawn: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]],
              weight: float) -> None:
        if i == len(seats):
            if not crib:
                world = _assemble(obs, {s: (h, ()) for s, (h, _) in drawn.items()}, (), obs.starter)
                out[world] = out.get(world, 0.0) + weight
                return
            packs = [obs.pack_crib] if obs.pack_crib is not None else combinations(free, obs.to_crib)
            for pack in packs:
                out[_assemble(obs, drawn, tuple(pack), obs.starter)] = weight
            return
        s = seats[i]
        held_n, thrown_n = obs.hidden(s)
        if marginal:
            thrown_n = 0
        known = obs.known[s]
        for drawn_held in combinations(free, held_n):
            if not fits_goes(obs, s, [c for c in drawn_held if c not in obs.laid[s]]):
                continue
            rest = tuple(c for c in free if c not in drawn_held)
            held = known + drawn_held
            for drawn_thrown in combinations(rest, thrown_n):
                thrown = drawn_thrown if thrown_n else tuple(obs.thrown[s] or ())
                w = weight
                if obs.discarded[s] and not marginal:
                    w *= model.chance(held + thrown, frozenset(thrown), obs.players, obs.own_crib(s))
                if w > 0.0:
                    drawn[s] = (held, thrown)
                    place(i + 1, tuple(c for c in rest if c not in drawn_thrown), drawn, w)
                    del drawn[s]

    place(0, obs.unseen, {}, 1.0)
    total = sum(out.values())
    if not out or total <= 0.0:
        raise MalformedError("no deal of the unseen cards fits what was seen", at=("plays",))
    return [(w, p / total) for w, p in out.items()]


def complete(obs: Observation, world: World, rng: random.Random, model: ThrowModel = UNIFORM) -> World:
    """``world`` (one of :func:`exact`'s with ``crib`` False: every seat's cards, not the crib's) with the
    crib's hidden cards drawn given them: each hidden seat's discards with the model's chance given the
    cards it kept (by rejection), then the pack's."""
    held = world.held
    thrown = list(world.thrown)
    seats = [s for s in _hidden_seats(obs) if obs.hidden(s)[1]]
    taken = {c for h in held for c in h} | {c for t in thrown for c in t}
    free = [c for c in obs.unseen if c not in taken]
    top = model.slip / comb(obs.dealt, obs.dealt - KEPT) + (0.0 if model.throw is None else 1.0 - model.slip)
    for _ in range(MAX_TRIES):
        pool = list(free)
        drawn = []
        for s in seats:
            t = _take(pool, obs.hidden(s)[1], rng)
            if model.throw is not None and \
                    rng.random() * top > model.chance(held[s] + t, frozenset(t), obs.players, obs.own_crib(s)):
                break
            drawn.append((s, t))
        else:
            for s, t in drawn:
                thrown[s] = t
            pack = _take(pool, obs.to_crib, rng) if obs.pack_crib is None else obs.pack_crib
            return World(held, tuple(thrown), pack, world.starter)
    raise MalformedError("no crib fits the cards the seats kept", at=("plays",))


@dataclass(frozen=True, slots=True)
class Worlds:
    """Worlds to value a decision over, each with its chance (sampled: each ``1 / n``)."""

    worlds: tuple[World, ...]
    chances: tuple[float, ...]
    exact: bool
    """Every world, each once, with its own chance (else a sample)."""

    def __len__(self) -> int:
        return len(self.worlds)


def worlds(obs: Observation, rng: random.Random, n: int, model: ThrowModel = UNIFORM, *,
           exact_limit: int = EXACT_WORLDS, starter: bool = True, crib: bool = True) -> Worlds:
    """Every world with its chance when there are at most ``exact_limit`` (``crib``: as :func:`exact`),
    else ``n`` sampled ones."""
    listed = exact(obs, model, exact_limit, crib) if exact_limit else None
    if listed is not None:
        return Worlds(tuple(w for w, _ in listed), tuple(p for _, p in listed), True)
    drawn = tuple(sample(obs, rng, model, starter=starter) for _ in range(n))
    return Worlds(drawn, (1.0 / n,) * n, False)


__all__ = ["EXACT_WORLDS", "UNIFORM", "Observation", "ThrowModel", "World", "Worlds", "complete", "exact", "fits_goes",
           "go_limits", "observe", "of_state", "sample", "world_count", "worlds"]
