"""``make clients``: the service's clients, generated from openapi.yaml into ``clients/`` (git-ignored).

* ``clients/python/``: a Python package, ``cribbage_client``, made by
  openapi-python-client (the version the test extra pins): typed functions per
  operation (``cribbage_client.api.<tag>.<operationId>``) and attrs models
  (``cribbage_client.models``); ``pip install clients/python`` installs it.
* ``clients/typescript/``: ``schema.d.ts`` made by openapi-typescript, the
  ``client.mjs`` module (openapi-fetch typed by it, with ``client.d.mts``) and
  the pinned npm packages they need (tools/typescript-client/package.json and
  its lock, installed with ``npm ci``).

    python tools/clients.py [--out clients] [--spec openapi.yaml] [--only python|typescript]

tests/system/test_generated_clients.py calls the same functions into a temporary
folder and drives both clients against a real gunicorn, along with the
README's examples of each.  Nothing here contacts the service.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi.yaml"
TYPESCRIPT = Path(__file__).resolve().parent / "typescript-client"
"""The TypeScript client's own files: the npm pins and the client module."""
PACKAGE = "cribbage_client"
TIMEOUT = 600  # seconds for one generator or npm run


class GenerationError(RuntimeError):
    """A generator or npm failed; the message has its output."""


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> str:
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        raise GenerationError(f"{' '.join(cmd)} took more than {TIMEOUT} s:\n{e.stdout}\n{e.stderr}") from None
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise GenerationError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{out}")
    return out


def python_client(out: Path, spec: Path = SPEC) -> str:
    """Generate the Python client into ``out`` (replaced); the generator's output (its warnings)."""
    out, spec = out.resolve(), spec.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    config = out.parent / "openapi-python-client.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\nproject_name_override: cribbage-client\n")
    # The generator runs ruff on what it wrote: the one beside this Python.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    try:
        return _run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
                     "--output-path", str(out), "--meta", "setup", "--config", str(config), "--overwrite"],
                    cwd=out.parent, env=env)
    finally:
        config.unlink()


def typescript_client(out: Path, spec: Path = SPEC) -> str:
    """Generate the TypeScript client into ``out`` (its npm packages kept between runs);
    the output of npm and the generator."""
    out, spec = out.resolve(), spec.resolve()
    npm = shutil.which("npm")
    if npm is None:
        raise GenerationError("npm (Node 20 or later) is needed for the TypeScript client: not found on PATH")
    out.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json", "client.mjs", "client.d.mts"):
        shutil.copyfile(TYPESCRIPT / name, out / name)
    env = {**os.environ, "npm_config_update_notifier": "false", "npm_config_fund": "false",
           "npm_config_audit": "false"}
    log = _run([npm, "ci", "--no-audit", "--no-fund"], cwd=out, env=env)
    # A request field with a default (GameOptions.players, .target) is optional to a client:
    # --default-non-nullable false, or the generated types would demand it.
    log += _run([npm, "exec", "--no", "--", "openapi-typescript", str(spec), "-o", "schema.d.ts",
                 "--default-non-nullable", "false"], cwd=out, env=env)
    if not (out / "schema.d.ts").is_file():
        raise GenerationError(f"openapi-typescript wrote no schema.d.ts:\n{log}")
    return log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the service's Python and TypeScript clients.")
    parser.add_argument("--out", type=Path, default=ROOT / "clients", help="folder of the clients (default clients/)")
    parser.add_argument("--spec", type=Path, default=SPEC, help="the OpenAPI document (default openapi.yaml)")
    parser.add_argument("--only", choices=["python", "typescript"], help="generate one client only")
    args = parser.parse_args(argv)
    try:
        if args.only in (None, "python"):
            print(python_client(args.out / "python", args.spec).strip())
            print(f"Python client: {args.out / 'python'} (pip install {args.out / 'python'})")
        if args.only in (None, "typescript"):
            print(typescript_client(args.out / "typescript", args.spec).strip())
            print(f"TypeScript client: {args.out / 'typescript'} (client.mjs, schema.d.ts)")
    except GenerationError as e:
        print(f"clients: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
