"""The tuned crib table: it regenerates (reduced pool) to the checksum the shipped
file records, the shipped tables match their own checksum, and the values are sane."""

from __future__ import annotations

from service.advice import crib_table
from tools.tables import tune


def test_the_shipped_tables_match_their_checksum():
    doc = crib_table.table()
    assert tune.checksum(doc["tables"]) == doc["checksum"]
    assert all(doc["convergence"][m]["converged"] for m in doc["tables"])


def test_a_reduced_regeneration_gives_the_recorded_checksum():
    doc = crib_table.table()
    reduced = doc["reduced_check"]
    assert tune.build(reduced["hands"], doc["seed"])["checksum"] == reduced["checksum"]


def test_every_class_has_a_value_and_fives_are_worth_most():
    tables = crib_table.table()["tables"]
    assert set(tables["two"]["own"]) == set(tune.pair_classes())
    for mode in ("five_and_two", "three", "four"):
        assert set(tables[mode]["own"]) == set(tune.SINGLE_CLASSES)
        assert max(tables[mode]["own"], key=tables[mode]["own"].get) == "5"
    two = tables["two"]["own"]
    assert max(two, key=two.get) == "5-5"
    assert two["5-5"] > two["K-Ks"] if "K-Ks" in two else two["5-5"] > two["K-K"]
