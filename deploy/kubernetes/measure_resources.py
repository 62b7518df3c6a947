"""Measure what one cribbage-service pod uses, to size deployment.yaml's resources.

Starts the pod's two processes on this machine as deployment.yaml configures
them: gunicorn with the repository's gunicorn.conf.py (2 workers x 2 threads,
sealed states, on 127.0.0.1) and, when an `nginx` binary exists, nginx with
the ConfigMap's nginx.conf in front of it.  Samples memory idle, then drives
a bounded load through nginx (sealed 2-player games, each step a `view` and an
`advance` by the seat to act, plus one hand score for every game step) and
samples again every second:

* RSS: VmRSS summed over the gunicorn master and workers (shared pages counted
  once per process, so an upper bound) and PSS from /proc/<pid>/smaps_rollup
  (shared pages split between processes: what the container's memory cgroup
  is actually charged, give or take the page cache);
* CPU: utime + stime from /proc/<pid>/stat over the load, in cores;
* the PROMETHEUS_MULTIPROC_DIR files (tmpfs in the pod: charged to memory).

Run from the repository root:  .venv/bin/python deploy/kubernetes/measure_resources.py [seconds] [clients]
Only 127.0.0.1 is contacted; everything it starts is stopped at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_conf_for(tmp: Path, listen: int, upstream: int) -> str:
    """The ConfigMap's nginx.conf with this machine's ports and a private /tmp."""
    conf = yaml.safe_load((HERE / "nginx-configmap.yaml").read_text())["data"]["nginx.conf"]
    return (conf.replace("listen 8080", f"listen 127.0.0.1:{listen}")
                .replace("server 127.0.0.1:8000", f"server 127.0.0.1:{upstream}")
                .replace("/tmp/", f"{tmp}/"))


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def pss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def group(master: int) -> list[int]:
    return [master, *children(master)]


def memory(master: int) -> dict:
    pids = group(master)
    return {"processes": len(pids),
            "rss_mib": round(sum(status_kb(p, "VmRSS") for p in pids) / 1024, 1),
            "pss_mib": round(sum(pss_kb(p) for p in pids) / 1024, 1),
            "hwm_mib": round(sum(status_kb(p, "VmHWM") for p in pids) / 1024, 1),
            "per_process_rss_mib": [round(status_kb(p, "VmRSS") / 1024, 1) for p in pids]}


def dir_mib(path: Path) -> float:
    return round(sum(f.stat().st_blocks * 512 for f in path.iterdir() if f.is_file()) / 2**20, 2)


HAND = {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}


def client_loop(base: str, stop: float, counts: dict, lock: threading.Lock) -> None:
    done = errors = 0
    with httpx.Client(base_url=base, timeout=10) as http:
        game = None
        while time.monotonic() < stop:
            try:
                if game is None or game["phase"] == "over":
                    game = http.post("/v1/games", json={"options": {"players": 2}}).json()
                    tokens = game["seat_tokens"]
                    done += 1
                seat = game["to_act"][0]
                mine = http.post("/v1/games/view", json={"state": game["state"], "seat_token": tokens[seat]}).json()
                game = http.post("/v1/games/advance", json={"state": game["state"], "seat_token": tokens[seat],
                                                           "action": mine["legal_actions"][0]}).json()
                assert http.post("/v1/hands/score", json=HAND).json()["total"] == 29
                done += 3
            except Exception:  # noqa: BLE001 - counted and reported
                errors += 1
                game = None
    with lock:
        counts["requests"] += done
        counts["errors"] += errors


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60
    clients = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    work = Path(tempfile.mkdtemp(prefix="cribbage-measure-"))
    metrics_dir = work / "metrics"
    metrics_dir.mkdir()
    gport, nport = free_port(), free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(gport), "WEB_CONCURRENCY": "2",
           "GUNICORN_THREADS": "2", "CRIBBAGE_STATE_SECRET": "measure-" + "s" * 32,
           "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "GUNICORN_LOG_LEVEL": "warning"}
    env.pop("CRIBBAGE_STATE_SECRET_PREVIOUS", None)
    gunicorn = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "-c", "gunicorn.conf.py",
                                 "--access-logfile", "/dev/null"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(work / "gunicorn.log", "wb"))
    nginx = None
    base = f"http://127.0.0.1:{gport}"
    if shutil.which("nginx"):
        (work / "nginx.conf").write_text(nginx_conf_for(work, nport, gport))
        nginx = subprocess.Popen(["nginx", "-e", "stderr", "-c", str(work / "nginx.conf"), "-g", "daemon off;"],
                                 stderr=open(work / "nginx.log", "wb"))
        base = f"http://127.0.0.1:{nport}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or gunicorn.poll() is not None:
                sys.exit(f"the service did not start:\n{(work / 'gunicorn.log').read_text()}")
            time.sleep(0.2)
        # One request per operation on every worker first, so "idle" has the code paths loaded.
        with httpx.Client(base_url=base) as http:
            for _ in range(8):
                g = http.post("/v1/games", json={"options": {"players": 2}}).json()
                http.post("/v1/games/view", json={"state": g["state"], "seat_token": g["seat_tokens"][0]})
                http.post("/v1/hands/score", json=HAND)
        time.sleep(1)
        report: dict = {"idle": {"gunicorn": memory(gunicorn.pid)}}
        if nginx:
            report["idle"]["nginx"] = memory(nginx.pid)
        cpu0 = {"gunicorn": sum(cpu_s(p) for p in group(gunicorn.pid))}
        if nginx:
            cpu0["nginx"] = sum(cpu_s(p) for p in group(nginx.pid))
        counts, lock = {"requests": 0, "errors": 0}, threading.Lock()
        t0 = time.monotonic()
        stop = t0 + seconds
        threads = [threading.Thread(target=client_loop, args=(base, stop, counts, lock)) for _ in range(clients)]
        for t in threads:
            t.start()
        samples = []
        while time.monotonic() < stop:
            time.sleep(1)
            samples.append({"t": round(time.monotonic() - t0), **memory(gunicorn.pid),
                            "metrics_dir_mib": dir_mib(metrics_dir)})
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        load = {"seconds": round(wall, 1), "clients": clients, **counts,
                "requests_per_s": round(counts["requests"] / wall),
                "gunicorn_cores": round((sum(cpu_s(p) for p in group(gunicorn.pid)) - cpu0["gunicorn"]) / wall, 2)}
        if nginx:
            load["nginx_cores"] = round((sum(cpu_s(p) for p in group(nginx.pid)) - cpu0["nginx"]) / wall, 2)
            load["nginx_after"] = memory(nginx.pid)
        per_request = load["gunicorn_cores"] * wall / max(counts["requests"], 1)
        load["gunicorn_ms_cpu_per_request"] = round(1000 * per_request, 3)
        load["gunicorn_after"] = memory(gunicorn.pid)
        load["gunicorn_peak_pss_mib"] = max(s["pss_mib"] for s in samples)
        load["gunicorn_peak_rss_mib"] = max(s["rss_mib"] for s in samples)
        load["metrics_dir_mib"] = dir_mib(metrics_dir)
        report["load"] = load
        report["samples_every_10s"] = [s for s in samples if s["t"] % 10 == 0]
        print(json.dumps(report, indent=1))
    finally:
        for proc, sig in ((nginx, signal.SIGQUIT), (gunicorn, signal.SIGTERM)):
            if proc and proc.poll() is None:
                proc.send_signal(sig)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
