"""The command line: ``cribbage-service score`` and ``distribution`` via main().

``score --json`` prints the document ``POST /v1/hands/score`` answers (the
keys of openapi.yaml's ``HandScoreResponse``), so a script can use either.
``--version`` is the installed distribution's version; ``serve`` is documented
(its ``--help``, the README) and runs gunicorn with the package's settings
(tests/system/test_wheel.py runs it for real from an installed wheel); output cut short
by its reader ends without a traceback (the installed command, run with its
stdout a pipe whose reader is already gone)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml

import service.core.distribution as dist_module
import service.cli
from service.cli import main
from service.core.distribution import Distribution

CALL_17 = (
    "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, "
    "and a double run is sixteen, and his nobs is seventeen"
)


def test_score_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "4D", "5C", "5H", "JS", "--starter", "6S"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert "total: 17" in lines
    assert f"call: {CALL_17}" in lines
    assert "subtotals: fifteen 8, pair 2, run 6, flush 0, nobs 1" in lines
    items = [line.split() for line in lines if line.startswith("  ")]
    assert items == [
        ["fifteen", "5C", "JS", "2"],
        ["fifteen", "5H", "JS", "2"],
        ["fifteen", "4D", "5C", "6S", "2"],
        ["fifteen", "4D", "5H", "6S", "2"],
        ["pair", "5C", "5H", "2"],
        ["run", "4D", "5C", "6S", "3"],
        ["run", "4D", "5H", "6S", "3"],
        ["nobs", "JS", "1"],
    ]


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert data["total"] == 29
    assert data["cards"] == ["5H", "5C", "5S", "JD"]
    assert data["starter"] == "5D"
    assert data["crib"] is False
    assert data["subtotals"] == {"fifteen": 16, "pair": 12, "run": 0, "flush": 0, "nobs": 1}
    assert data["call"].endswith("and his nobs is twenty-nine")
    assert len(data["breakdown"]) == 15
    assert sum(i["points"] for i in data["breakdown"]) == 29
    assert {"kind": "nobs", "cards": ["JD"], "points": 1} in data["breakdown"]
    assert [i["kind"] for i in data["breakdown"]] == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]


OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_score_json_has_the_api_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """The same keys as the API's answer to POST /v1/hands/score (openapi.yaml)."""
    spec = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    response = spec["components"]["schemas"]["HandScore"]
    item = response["properties"]["breakdown"]["items"]
    if "$ref" in item:
        item = spec["components"]["schemas"][item["$ref"].rsplit("/", 1)[1]]
    assert main(["score", "4S", "5S", "6S", "9S", "-s", "JH", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # every property but the ruling on a claim (only with a claim in the request)
    assert set(data) == set(response["properties"]) - {"claim"} == set(response["required"])
    assert all(set(i) == set(item["properties"]) for i in data["breakdown"])
    assert "hand" not in data and "items" not in data


def test_score_crib_flag(capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 002: four spades and a heart starter score 13 in the hand, 9 in the crib.
    assert main(["score", "4S", "5S", "6S", "9S", "-s", "JH", "--json"]) == 0
    hand = json.loads(capsys.readouterr().out)
    assert main(["score", "4S", "5S", "6S", "9S", "-s", "JH", "--crib", "--json"]) == 0
    crib = json.loads(capsys.readouterr().out)
    assert (hand["total"], crib["total"]) == (13, 9)
    assert (hand["subtotals"]["flush"], crib["subtotals"]["flush"]) == (4, 0)
    assert crib["crib"] is True
    assert main(["score", "4S", "5S", "6S", "9S", "-s", "JH", "--crib"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("crib: 4S 5S 6S 9S  starter: JH")
    assert "total: 9" in out.splitlines()


def test_score_accepts_any_spelling_and_answers_canonically(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "4d", "5♣", "5h", "J♠", "--starter", "6s", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"] == ["4D", "5C", "5H", "JS"]
    assert data["starter"] == "6S"
    assert data["total"] == 17
    assert data["call"] == CALL_17


def test_score_zero_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "2C", "4D", "6H", "8S", "--starter", "10C"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "total: 0" in out
    call = next(line for line in out if line.startswith("call: "))
    assert "nineteen" not in call


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["score", "5H", "5C", "5X", "JD", "--starter", "5D"], "5X"),
        (["score", "5H", "5C", "5S", "JD", "--starter", "11D"], "11D"),
        (["score", "5H", "5C", "5H", "JD", "--starter", "5D"], "5H"),  # duplicate
        (["score", "5H", "5C", "5S", "JD", "--starter", "5h"], "5H"),  # starter duplicates
        (["score", "TH", "10H", "5S", "JD", "--starter", "5D"], "TH"),  # one card, two spellings
        (["score", "5H", "5C", "JD", "--starter", "5D"], "4 cards"),
        (["score", "5H", "5C", "5S", "JD", "2C", "--starter", "5D"], "4 cards"),
    ],
)
def test_score_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert needle in err
    assert "Traceback" not in err
    assert err.count("\n") == 1  # one line, no stack


def test_score_bad_input_with_json_still_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "5H", "5C", "5S", "ZZ", "--starter", "5D", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "ZZ" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "5H", "5C", "5S", "JD"]) == 2  # no --starter
    assert "--starter" in capsys.readouterr().err
    assert main([]) == 2  # no subcommand
    assert main(["bogus"]) == 2
    capsys.readouterr()


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("score", "distribution", "serve"):
        assert command in out


def _fake_distribution(crib: bool = False) -> Distribution:
    counts = [0] * 30
    counts[0], counts[2], counts[29] = 3, 5, 2
    return Distribution(crib=crib, counts=tuple(counts))


def test_distribution_text_format(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The table layout, on a small stand-in (the real enumeration is tested below).
    monkeypatch.setattr(dist_module, "distribution", _fake_distribution)
    assert main(["distribution", "--crib"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("crib totals")
    rows = [line.split() for line in lines if line.split() and line.split()[0].isdigit()]
    assert [int(r[0]) for r in rows] == list(range(30))
    assert rows[0] == ["0", "3", "30.0000%"]
    assert rows[2] == ["2", "5", "50.0000%"]
    assert rows[29] == ["29", "2", "20.0000%"]
    assert rows[19] == ["19", "0", "0.0000%"]
    assert "deals: 10" in lines
    assert "mean: 6.8000" in lines  # (2*5 + 29*2) / 10
    impossible = next(line for line in lines if line.startswith("impossible: "))
    assert impossible.split(": ")[1].split(", ") == [str(t) for t in range(30) if t not in (0, 2, 29)]


def test_distribution_json_shape(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(dist_module, "distribution", _fake_distribution)
    assert main(["distribution", "--json", "--crib"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"crib", "deals", "counts", "mean", "impossible"}
    assert data["crib"] is True
    assert data["deals"] == 10
    assert data["counts"] == {str(t): n for t, n in enumerate(_fake_distribution().counts)}
    assert data["mean"] == pytest.approx(6.8)
    assert data["impossible"] == [t for t in range(30) if t not in (0, 2, 29)]


def test_distribution_json_real(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["distribution", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["crib"] is False
    assert data["deals"] == 12_994_800
    assert list(data["counts"]) == [str(t) for t in range(30)]
    assert sum(data["counts"].values()) == 12_994_800
    assert data["counts"]["29"] == 4
    assert data["counts"]["0"] == 1_009_008
    assert data["impossible"] == [19, 25, 26, 27]
    assert round(data["mean"], 4) == 4.7692


def test_distribution_text_real(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["distribution", "--crib"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "deals: 12,994,800" in lines
    assert "mean: 4.7348" in lines
    assert "impossible: 19, 25, 26, 27" in lines
    assert any(line.split() == ["29", "4", "0.0000%"] for line in lines)


# --- --version, serve, a closed pipe -------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
COMMAND = Path(sys.executable).with_name("cribbage-service")


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"cribbage-service {metadata.version('cribbage-service')}\n"


def test_serve_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for needle in ("--host HOST", "--port PORT", "gunicorn", "PORT (8000)", "WEB_CONCURRENCY"):
        assert needle in out, needle
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Command line"):]
    section = section[:section.index("\n## ", 1)]
    assert "cribbage-service serve" in section and "cribbage-service --version" in section


def test_serve_runs_gunicorn_with_the_package_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def execvp(program: str, argv: list[str]) -> None:
        calls.append((program, argv, os.environ.get("HOST"), os.environ.get("PORT")))

    monkeypatch.setattr(service.cli.os, "execvp", execvp)
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "8000")
    assert main(["serve", "--host", "127.0.0.1", "--port", "8123"]) == 0
    (program, argv, host, port), = calls
    assert Path(program).name == "gunicorn"
    assert argv == ["gunicorn", "-c", "python:service.gunicorn_conf", "service.app:app"]
    assert (host, port) == ("127.0.0.1", "8123")


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


@pytest.mark.parametrize("argv, status", [
    (["distribution"], 141),  # 128 + SIGPIPE, as a shell reports `yes | head -1`'s yes
    (["score", "5H", "5C", "5S", "JD", "--starter", "5D"], 141),
    (["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--json"], 141),
    (["--help"], 0),  # argparse itself ignores a failed write of its messages
    (["--version"], 0),
], ids=lambda v: " ".join(v) if isinstance(v, list) else str(v))
def test_a_closed_pipe_ends_quietly(argv: list[str], status: int) -> None:
    """`cribbage-service ... | head -1` without a BrokenPipeError traceback: the reader is gone
    before the command writes anything, so every run meets the closed pipe (no race)."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([str(COMMAND), *argv], stdout=write, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert proc.stderr.decode() == ""
    assert proc.returncode == status
