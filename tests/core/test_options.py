"""Game options (docs/rules.md, "The deal" and "Variants"): the one place they
are checked (and read from JSON), each error located at the option; expected
values are the rule text's, not read off the code."""

from __future__ import annotations

import itertools

import pytest

from service.core.errors import MalformedError
from service.boundary.options import options_from_json, options_to_json
from service.core.options import GameOptions

# The JSON type each option takes, as docs/rules.md and openapi.yaml describe them.
BOOLS = ("five_and_two", "ten_value_ties", "tournament", "muggins", "muggins_in_play", "skunk", "lurch",
         "loser_deals_first")
INTS = ("players", "target", "double_skunk_games")


def test_defaults_are_the_plain_game() -> None:
    o = options_from_json({})
    assert (o.players, o.target, o.deck, o.seed, o.double_skunk_games) == (2, 121, "random", None, 3)
    assert not any(getattr(o, name) for name in BOOLS)  # every variant off by default
    assert options_to_json(o) == {}


@pytest.mark.parametrize("name", BOOLS)
@pytest.mark.parametrize("junk", [0, 1, "true", None, 1.0, [], {}])
def test_a_switch_is_true_or_false_only(name: str, junk: object) -> None:
    with pytest.raises(MalformedError) as info:
        options_from_json({name: junk})
    assert info.value.at == (name,)
    assert "true or false" in info.value.message


@pytest.mark.parametrize("name", INTS)
@pytest.mark.parametrize("junk", [True, False, "2", 2.0, None, [2]])
def test_a_number_is_a_json_integer_not_a_boolean(name: str, junk: object) -> None:
    with pytest.raises(MalformedError) as info:
        options_from_json({name: junk})
    assert info.value.at == (name,)
    assert "integer" in info.value.message


@pytest.mark.parametrize("name, junk", [("deck", None), ("deck", 1), ("deck", True), ("seed", 1),
                                        ("seed", False), ("seed", ["x"])])
def test_strings(name: str, junk: object) -> None:
    with pytest.raises(MalformedError) as info:
        options_from_json({"deck": "seeded", "seed": "s", name: junk})
    assert info.value.at == (name,)


@pytest.mark.parametrize("data, field", [
    ({"players": 1}, "players"), ({"players": 5}, "players"),
    ({"target": 100}, "target"),
    ({"five_and_two": True, "players": 3}, "five_and_two"),   # five and two is a 2-player deal
    ({"deck": "stacked"}, "deck"),
    ({"deck": "seeded"}, "seed"), ({"seed": "x"}, "seed"),
    ({"deck": "seeded", "seed": ""}, "seed"), ({"deck": "seeded", "seed": "x" * 201}, "seed"),
    ({"double_skunk_games": 2}, "double_skunk_games"),
    ({"muggins_in_play": True}, "muggins_in_play"),           # a further switch of muggins
    ({"colour": "red"}, "colour"),
])
def test_values_and_combinations(data: dict, field: str) -> None:
    with pytest.raises(MalformedError) as info:
        options_from_json(data)
    assert info.value.at == (field,)


@pytest.mark.parametrize("junk", [None, [], "players=2", 2])
def test_options_are_an_object(junk: object) -> None:
    with pytest.raises(MalformedError) as info:
        options_from_json(junk)
    assert info.value.at == ()


def test_every_legal_combination_reads_back() -> None:
    n = 0
    for players, target, deck, dsg in itertools.product((2, 3, 4), (61, 121), ("random", "seeded", "client"),
                                                        (3, 4)):
        for flags in itertools.product((False, True), repeat=len(BOOLS)):
            data = dict(zip(BOOLS, flags), players=players, target=target, deck=deck, double_skunk_games=dsg)
            if deck == "seeded":
                data["seed"] = "a seed"
            if (data["five_and_two"] and players != 2) or (data["muggins_in_play"] and not data["muggins"]) \
                    or (data["lurch"] and target != 121):
                continue
            o = options_from_json(data)
            assert options_from_json(options_to_json(o)) == o
            # to_json gives only what differs from the plain game
            assert all(data[k] == v for k, v in options_to_json(o).items())
            assert set(options_to_json(o)) == {k for k, v in data.items() if getattr(GameOptions(), k) != v}
            n += 1
    # per target, deck and double skunk: 2 players 256 x 3/4 (muggins in play needs muggins),
    # 3 and 4 players half of those again (no five and two); a game to 61 half again (no lurch)
    assert n == 3 * 2 * (192 + 96 + 96) + 3 * 2 * (96 + 48 + 48)


def test_options_to_json_is_a_fresh_dict() -> None:
    o = GameOptions(players=3)
    options_to_json(o)["players"] = 4
    assert options_to_json(o) == {"players": 3}
