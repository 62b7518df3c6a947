"""The README is executed: every shell example runs against a live server and shows what the README shows.

Every fenced ``sh`` block of README.md is one example.  It runs in bash
(``set -euo pipefail``) against a real gunicorn on a free port (the README's
``localhost:8000`` becomes that port), with ``curl`` standing for
``curl --fail-with-body --show-error``: every answer an example gets must be a
2xx, and the example must end with status 0 and write nothing on stderr.
The installed ``cribbage-service`` is on its PATH; ``jq`` is needed, as the
README says.

Where the README shows the output (a ``json`` or ``text`` block right after
the example), the example's output must be it:

* JSON is compared structurally (key order free; ``true`` is not ``1``)
  with the last JSON value the example printed (its last command's answer);
  a number written with decimals matches the answer rounded to as many; an
  elision is explicit and stands for one thing only: ``…`` (or ``...``) as the
  last item of an array (more items follow), as a member of an object (more
  members follow), or at the end of a string (the rest of it).
* Text is compared line by line, exactly.

An example that is not run here says why in ``NOT_RUN`` (the README's
set-up, Docker, the client generator and the benchmarks).  An example made
only of ``NAME=value ... make run`` starts the server the examples after it,
in the same section, run against (the sealed games: a state secret).

The Layout section is checked too: every path it lists exists, and it lists
every top-level entry of the repository and every part of the package; and
the OpenAPI document's gzip figure is measured.
"""

from __future__ import annotations

import contextlib
import decimal
import functools
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from gunicorn_server import gunicorn

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent
TIMEOUT = 120  # seconds an example may take

NOT_RUN = {
    r"make run\nmake test": "the set-up: make run is the server these examples run against, make test this suite",
    r"docker build -t cribbage-service:\S+ \.\ndocker run -p 8000:8000 cribbage-service:\S+":
        "no Docker engine here: deploy/image-check.sh builds the Dockerfile (make image-check)",
    r"make clients": "tests/system/test_generated_clients.py runs its script, tools/clients.py, and the clients",
    r"make bench": "minutes of load on a shared machine; bench/ measures, it asserts nothing",
}
"""The examples not run here: their commands (comments dropped, one a line) and why."""

SERVER_START = re.compile(r"((?:[A-Z][A-Z0-9_]*=.+?\s+)+)make run")
ELLIPSIS = ("…", "...")


@dataclass(frozen=True)
class Block:
    line: int
    lang: str
    body: str
    section: str
    start: int  # offsets in README
    end: int


def blocks() -> list[Block]:
    fence = re.compile(r"(?ms)^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$")
    headings = [(m.start(), m.group(1)) for m in re.finditer(r"(?m)^#{1,4} (.+)$", README)]
    found = []
    for m in fence.finditer(README):
        indent = m.group("indent")
        body = "".join(line.removeprefix(indent) for line in m.group("body").splitlines(keepends=True))
        section = [title for start, title in headings if start < m.start()][-1]
        found.append(Block(README.count("\n", 0, m.start()) + 1, m.group("lang"), body, section, m.start(), m.end()))
    return found


BLOCKS = blocks()


def commands(block: Block) -> str:
    """The example's commands, comments dropped, one a line."""
    return "\n".join(line.split(" #", 1)[0].strip() for line in block.body.splitlines()
                     if line.strip() and not line.lstrip().startswith("#"))


def not_run(block: Block) -> str | None:
    """Why the example is not run here (None: it is)."""
    return next((why for pattern, why in NOT_RUN.items() if re.fullmatch(pattern, commands(block))), None)


def output_of(block: Block) -> Block | None:
    """The json or text block right after an example: its output, as the README shows it."""
    following = [b for b in BLOCKS if b.start > block.start]
    if following and following[0].lang in ("json", "text") and not README[block.end:following[0].start].strip():
        return following[0]
    return None


EXAMPLES = [b for b in BLOCKS if b.lang == "sh"]


def starts_a_server(block: Block) -> bool:
    return SERVER_START.fullmatch(commands(block)) is not None


@functools.cache
def start_env(block: Block) -> tuple[tuple[str, str], ...]:
    """The assignments of a ``NAME=value ... make run`` example, evaluated by bash once."""
    assignments = SERVER_START.fullmatch(commands(block)).group(1)
    names = re.findall(r"(?:^|\s)([A-Z][A-Z0-9_]*)=", assignments)
    out = subprocess.run(["bash", "-c", f"{assignments} env -0"], capture_output=True, text=True, timeout=30,
                         check=True).stdout
    env = dict(item.split("=", 1) for item in out.split("\0") if "=" in item)
    return tuple((name, env[name]) for name in names)


def server_env(block: Block) -> tuple[tuple[str, str], ...]:
    """The environment of the server an example runs against: that of the last example of its
    section that starts one, or none (the plain server)."""
    starts = [b for b in EXAMPLES if b.section == block.section and b.start <= block.start and starts_a_server(b)]
    return start_env(starts[-1]) if starts else ()


# -- the JSON the README shows, with its elisions ---------------------------------------------

ELIDED = "\0elided"


def parse_shown(text: str):
    """README JSON with explicit elisions: a bare ``…``/``...`` becomes a marker item in an
    array or a marker member in an object; numbers keep their written decimals."""
    out, stack, i, in_string = [], [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif c in "[{":
            stack.append(c)
            out.append(c)
        elif c in "]}":
            stack.pop()
            out.append(c)
        elif text.startswith(ELLIPSIS, i):
            width = 1 if c == "…" else 3
            out.append(json.dumps(ELIDED) + (": null" if stack[-1] == "{" else ""))
            i += width - 1
        else:
            out.append(c)
        i += 1
    return json.loads("".join(out), parse_float=decimal.Decimal)


def same(shown, actual, where: str = "") -> None:
    """Assert ``actual`` is what the README shows (the rules in the module's docstring)."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        keys = set(shown) - {ELIDED}
        if ELIDED in shown:
            assert keys <= set(actual), f"{where}: missing {sorted(keys - set(actual))}"
        else:
            assert keys == set(actual), f"{where}: members {sorted(actual)}, the README shows {sorted(keys)}"
        for k in keys:
            same(shown[k], actual[k], f"{where}/{k}")
    elif isinstance(shown, list):
        assert isinstance(actual, list), f"{where}: {actual!r} is not an array"
        assert ELIDED not in shown[:-1], f"{where}: an elision before the end of an array"
        items = shown[:-1] if shown and shown[-1] == ELIDED else shown
        if len(items) == len(shown):
            assert len(actual) == len(items), f"{where}: {len(actual)} items, the README shows {len(items)}"
        else:
            assert len(actual) > len(items), f"{where}: {len(actual)} items, the README shows more than {len(items)}"
        for n, (s, a) in enumerate(zip(items, actual)):
            same(s, a, f"{where}/{n}")
    elif isinstance(shown, str):
        prefix = next((shown.removesuffix(e) for e in ELLIPSIS if shown.endswith(e)), None)
        if prefix is not None:
            assert isinstance(actual, str) and actual.startswith(prefix), f"{where}: {actual!r}"
        else:
            assert actual == shown, f"{where}: {actual!r}, the README shows {shown!r}"
    elif isinstance(shown, decimal.Decimal):
        places = -shown.as_tuple().exponent
        assert type(actual) in (int, float) and round(actual, places) == float(shown), \
            f"{where}: {actual!r}, the README shows {shown}"
    else:  # int, bool, null: the very value and type
        assert type(actual) is type(shown) and actual == shown, f"{where}: {actual!r}, the README shows {shown!r}"


@pytest.mark.parametrize("shown, actual", [
    ('{"a": [1, 2, …], "b": "v2.…", …}', {"a": [1, 2, 3], "b": "v2.xyz", "c": 0}),
    ('{"x": 3.59, "y": 8.0, "z": [...]}', {"x": 3.5921852513227517, "y": 8.0, "z": [{"q": 1}]}),
    ('{"s": "a \\" … \\\\", "n": null}', {"s": 'a " … \\', "n": None}),
])
def test_elisions_match(shown, actual):
    same(parse_shown(shown), actual)


@pytest.mark.parametrize("shown, actual", [
    ('{"a": [1, 2, …]}', {"a": [1, 2]}),          # the elision promises more items
    ('{"a": [1, 2]}', {"a": [1, 2, 3]}),
    ('{"a": 1}', {"a": 1, "b": 2}),               # no elision: no other member
    ('{"a": 1, …}', {"b": 1}),
    ('{"a": true}', {"a": 1}),
    ('{"a": 1}', {"a": True}),
    ('{"x": 3.59}', {"x": 3.6}),
    ('{"b": "v2.…"}', {"b": "v3.x"}),
    ('[…, 1]', [0, 1]),                             # only at the end of an array
])
def test_differences_are_found(shown, actual):
    with pytest.raises(AssertionError):
        same(parse_shown(shown), actual)


def json_documents(text: str) -> list:
    """The JSON values an example printed, one after another (each command's answer)."""
    decoder, found, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        value, i = decoder.raw_decode(text, i)
        found.append(value)
    assert found, "the example printed no JSON"
    return found


# -- running the examples ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """base URL of a running server by its extra environment (started on first use)."""
    running: dict[tuple, str] = {}
    with contextlib.ExitStack() as stack:
        def get(env: tuple[tuple[str, str], ...]) -> str:
            if env not in running:
                log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
                running[env] = stack.enter_context(gunicorn(log, GUNICORN_ACCESS_LOG="off", **dict(env)))
            return running[env]
        yield get


def run_example(block: Block, base: str, tmp_path: Path) -> subprocess.CompletedProcess:
    host = base.removeprefix("http://")
    script = tmp_path / f"readme-line-{block.line}.sh"
    script.write_text("set -euo pipefail\n"
                      "curl() { command curl --fail-with-body --show-error \"$@\"; }  # every answer a 2xx\n"
                      + block.body.replace("http://localhost:8000", base).replace("localhost:8000", host))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    try:
        return subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"README line {block.line} took more than {TIMEOUT} s:\n{block.body}\n{e.stdout}\n{e.stderr}")


def test_every_example_is_run_or_says_why():
    assert len(EXAMPLES) >= 12
    for block in EXAMPLES:
        assert commands(block), f"README line {block.line}: an empty example"
        assert not (not_run(block) and output_of(block)), f"README line {block.line}: an output never checked"
    unused = [p for p in NOT_RUN if not any(re.fullmatch(p, commands(b)) for b in EXAMPLES)]
    assert not unused, f"NOT_RUN names examples the README no longer has: {unused}"


@pytest.mark.slow
@pytest.mark.parametrize("block", EXAMPLES, ids=[f"line-{b.line}" for b in EXAMPLES])
def test_example(block, servers, tmp_path):
    why = not_run(block)
    if why:
        pytest.skip(f"not run: {why}")
    base = servers(server_env(block))  # a server-starting example: started here, used by those after it
    if starts_a_server(block):
        assert dict(start_env(block)), block.body
        return
    proc = run_example(block, base, tmp_path)
    context = f"README line {block.line} ({block.section}):\n{block.body}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert proc.returncode == 0 and proc.stderr == "", context
    shown = output_of(block)
    if shown is None:
        return
    if shown.lang == "json":
        same(parse_shown(shown.body), json_documents(proc.stdout)[-1], "")
    else:
        assert not any(e in shown.body for e in ELLIPSIS), "no elision in a text output"
        assert [line.rstrip() for line in proc.stdout.splitlines()] == \
            [line.rstrip() for line in shown.body.splitlines()], context


@pytest.mark.slow
def test_the_openapi_gzip_figure(servers):
    """"the OpenAPI document to about a fifth of its size" (Running in production, Compression)."""
    assert "the OpenAPI\ndocument to about a fifth of its size" in README
    import httpx

    base = servers(())
    plain = httpx.get(f"{base}/openapi.yaml", headers={"Accept-Encoding": "identity"}, timeout=10)
    packed = httpx.get(f"{base}/openapi.yaml", headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert packed.headers["content-encoding"] == "gzip"
    ratio = int(packed.headers["content-length"]) / len(plain.content)
    assert 1 / 6 < ratio < 1 / 4, f"gzip sends {ratio:.0%} of the document, not about a fifth"


# -- the Layout section --------------------------------------------------------------------------

OBVIOUS = {"README.md", "LICENSE", "Makefile", "pyproject.toml", "schemathesis.toml", ".gitignore", ".dockerignore"}


def layout_paths() -> list[str]:
    section = README[README.index("## Layout"):]
    body = section[section.index("```\n") + 4:section.index("\n```", section.index("```\n"))]
    paths, parent = [], ""
    for line in body.splitlines():
        if not line.strip() or line.startswith("    "):
            continue  # a description's continuation
        name = line.split()[0]
        if line.startswith("  "):
            paths.append(parent + name)
        else:
            paths.append(name)
            parent = name if name.endswith("/") else parent
    return paths


def test_the_layout_lists_what_exists():
    paths = layout_paths()
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"the README's Layout lists what is not there: {missing}"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")

    def listed(entry: str) -> bool:  # it, something in it, or a folder holding it is listed
        return any(p.rstrip("/") == entry or p.startswith(entry + "/") or entry.startswith(p.rstrip("/") + "/")
                   for p in paths)

    top = {t.split("/")[0] for t in tracked} - OBVIOUS
    package = {"/".join(t.split("/")[:2]) for t in tracked if t.startswith("service/")} - {"service/__init__.py"}
    unlisted = sorted(p for p in top | package if not listed(p))
    assert not unlisted, f"the README's Layout does not list: {unlisted}"


def test_every_seed_in_an_example_works_on_a_sealed_server():
    """A seeded example runs on a production (sealed) server too: its seed is a secret there, of at
    least SECRET_SEED_LENGTH characters (a shorter one is a 422 naming options/seed)."""
    from service.core.options import SECRET_SEED_LENGTH

    seeds = [(b.line, m.group(1)) for b in blocks() if b.lang == "sh"
             for m in re.finditer(r'"seed":\s*"([^"]*)"', b.body)]
    assert seeds, "no seeded example found: the pattern is stale"
    short = [(line, seed) for line, seed in seeds if len(seed) < SECRET_SEED_LENGTH]
    assert not short, f"seeds a sealed server refuses (line, seed): {short}"
