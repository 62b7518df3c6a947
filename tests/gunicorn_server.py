"""A real gunicorn (the repository's gunicorn.conf.py) on a free loopback port, for end-to-end tests."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
MASTERS: dict[str, int] = {}
"""base URL -> gunicorn master pid, for the servers running now."""


def worker_pids(base: str) -> set[int]:
    """The pids of the running server's worker processes (children of its master, from /proc)."""
    master = MASTERS[base]
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid == master:
                pids.add(int(entry))
    return pids


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn(log_path: Path, **env_extra: str) -> Iterator[str]:
    """A gunicorn master with 2 workers; yields its base URL and always stops it."""
    port = free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "2", **env_extra}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    if "CRIBBAGE_STATE_SECRET" not in env_extra:
        env.pop("CRIBBAGE_STATE_SECRET", None)
    exe = Path(sys.executable).with_name("gunicorn")
    with serving([str(exe), "-c", "gunicorn.conf.py"], ROOT, env, port, log_path) as base:
        yield base


@contextlib.contextmanager
def serving(cmd: list[str], cwd: Path, env: dict, port: int, log_path: Path) -> Iterator[str]:
    """Run ``cmd`` (a gunicorn master, or what execs one) until it answers /healthz on ``port``
    within 30 s; yield its base URL; SIGTERM it at the end (the master stops its workers)."""
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{cmd[0]} exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"{cmd[0]} did not answer /healthz in 30 s:\n{log_path.read_text()}")
            time.sleep(0.1)
        MASTERS[base] = proc.pid
        yield base
    finally:
        MASTERS.pop(base, None)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
