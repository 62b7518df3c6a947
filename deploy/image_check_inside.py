"""Run inside the built image by deploy/image-check.sh (as the image's user): start
the service as the image's CMD does (``cribbage-service serve``, the installed wheel's
command, which execs gunicorn with the package's settings), check it, put the image's nginx with the Kubernetes
ConfigMap's nginx.conf in front, check through it, stop both gracefully (a readiness
probe on a draining worker is answered 503), and check that nothing was written
outside /tmp (a read-only root filesystem would do).

Usage: python image_check_inside.py NGINX_CONFIGMAP GUNICORN_PORT NGINX_PORT REVISION HEALTHCHECK_JSON
Prints one line per check; exits non-zero at the first failure.
"""

from __future__ import annotations

import gzip
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

configmap, gport, nport, revision, healthcheck = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], \
    json.loads(sys.argv[5])
START = time.time()
HAND = json.dumps({"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}).encode()


def check(what: str, ok: bool, detail: object = "") -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + str(detail) if detail != '' else ''}", flush=True)
    if not ok:
        sys.exit(1)


def get(port: int, path: str, body: bytes | None = None, headers: dict | None = None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers=headers or {})
    if body is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def wait_for(port: int, path: str, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log = "/tmp/gunicorn.log" if what == "gunicorn" else "/tmp/nginx.log"
            check(f"{what} is running", False, f"exit {proc.returncode}: {open(log).read()[-2000:]}")
        try:
            if get(port, path)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    check(f"{what} answers {path} within 30 s", False)


check("runs as the image's user, not root", os.getuid() == 10001 and os.getgid() == 10001,
      f"uid={os.getuid()} gid={os.getgid()}")
installed = subprocess.run(["python", "-c", "import os, service; print(os.path.dirname(service.__file__))"],
                           capture_output=True, text=True, cwd="/tmp").stdout.strip()
check("the service is the installed wheel, not a source tree",
      installed.startswith("/opt/venv/") and not os.path.exists("/app/service"), installed)
for path in ("/app", installed, "/opt/venv/bin", "/etc/nginx"):
    check(f"cannot write {path}", not os.access(path, os.W_OK))
check("python", True, f"{sys.executable} {sys.version.split()[0]}")
nginx_version = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
check("Debian's nginx in the image", nginx_version.startswith("nginx version"), nginx_version)

# As deploy/kubernetes runs it: 2 workers x 2 threads, sealed states.
env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(gport), "WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "2",
       "CRIBBAGE_STATE_SECRET": secrets.token_urlsafe(32)}
gunicorn = subprocess.Popen(["cribbage-service", "serve"], cwd="/app", env=env,
                            stdout=open("/tmp/gunicorn.log", "wb"), stderr=subprocess.STDOUT)
try:
    wait_for(gport, "/healthz", gunicorn, "gunicorn")
    status, _, body = get(gport, "/healthz")
    check("GET /healthz", status == 200 and json.loads(body) == {"status": "ok"}, body.decode())
    status, _, body = get(gport, "/readyz")
    check("GET /readyz", status == 200 and json.loads(body)["status"] == "ready"
          and json.loads(body)["checks"]["state"] == "sealed", body.decode())
    status, _, body = get(gport, "/version")
    version = json.loads(body)
    check("GET /version", status == 200 and version["revision"] == (revision or None), body.decode())
    status, _, body = get(gport, "/v1/hands/score", HAND)
    check("POST /v1/hands/score (5H 5C 5S JD, starter 5D)", status == 200 and json.loads(body)["total"] == 29,
          f"total {json.loads(body).get('total')}")
    status, _, body = get(gport, "/v1/games", json.dumps({"dealer": 0}).encode())
    game = json.loads(body)
    check("POST /v1/games (sealed)", status == 201 and game["state"].startswith("v2.")
          and len(game["seat_tokens"]) == 2, f"state {game['state'][:12]}..., seat tokens {len(game['seat_tokens'])}")
    status, headers, body = get(gport, "/openapi.yaml", headers={"Accept-Encoding": "gzip"})
    check("GET /openapi.yaml gzip", status == 200 and headers.get("Content-Encoding") == "gzip",
          f"{len(body)} bytes gzip, {len(gzip.decompress(body))} plain")
    probe = subprocess.run(healthcheck, cwd="/app", env=env, capture_output=True, timeout=30)
    check("the image's HEALTHCHECK command", probe.returncode == 0, " ".join(healthcheck)[:60] + "...")

    # The pod's nginx container: the ConfigMap's nginx.conf, this machine's ports.
    text = open(configmap).read().split("  nginx.conf: |\n", 1)[1]
    conf = "\n".join(line[4:] for line in text.splitlines())
    conf = conf.replace("listen 8080", f"listen 127.0.0.1:{nport}").replace(
        "server 127.0.0.1:8000", f"server 127.0.0.1:{gport}")
    os.makedirs("/tmp/nginx", exist_ok=True)
    with open("/tmp/nginx/nginx.conf", "w") as f:
        f.write(conf)
    nginx_cmd = ["nginx", "-e", "stderr", "-c", "/tmp/nginx/nginx.conf"]
    t = subprocess.run([*nginx_cmd, "-t"], capture_output=True, text=True)
    check("nginx -t on the ConfigMap's nginx.conf", t.returncode == 0, t.stderr.strip().splitlines()[-1])
    nginx = subprocess.Popen([*nginx_cmd, "-g", "daemon off;"], stdout=open("/tmp/nginx.log", "wb"),
                             stderr=subprocess.STDOUT)
    try:
        wait_for(nport, "/nginx-healthz", nginx, "nginx")
        status, _, body = get(nport, "/readyz")
        check("GET /readyz through nginx", status == 200, body.decode())
        status, headers, body = get(nport, "/v1/hands/score", HAND, {"X-Request-ID": "image-check-1"})
        check("POST /v1/hands/score through nginx", status == 200 and json.loads(body)["total"] == 29
              and headers.get("X-Request-ID") == "image-check-1", f"total {json.loads(body)['total']}")
        status, headers, body = get(nport, "/v1/hands/score", b"x" * 70000)
        check("nginx's own 413 is problem+json", status == 413
              and headers.get("Content-Type") == "application/problem+json", json.loads(body)["type"])
    finally:
        subprocess.run([*nginx_cmd, "-s", "quit"], capture_output=True)
        nginx.wait(timeout=15)
    check("nginx stopped", nginx.returncode == 0, f"exit {nginx.returncode}")
    # Stopping: a readiness probe already on a worker's thread (its request line
    # sent) when gunicorn gets SIGTERM is answered 503 not-ready while it drains.
    probe = socket.create_connection(("127.0.0.1", gport), timeout=30)
    probe.sendall(b"GET /readyz HTTP/1.1\r\n")
    time.sleep(0.5)
    gunicorn.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 20
    while "Handling signal: term" not in open("/tmp/gunicorn.log").read() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    probe.sendall(b"Host: localhost\r\nConnection: close\r\n\r\n")
    answer = b""
    while chunk := probe.recv(65536):
        answer += chunk
    probe.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    check("GET /readyz while gunicorn drains after SIGTERM", head.startswith(b"HTTP/1.1 503")
          and json.loads(body)["type"].endswith("/not-ready"), head.split(b"\r\n")[0].decode())
finally:
    if gunicorn.poll() is None:
        gunicorn.send_signal(signal.SIGTERM)
    gunicorn.wait(timeout=40)
check("gunicorn stopped on SIGTERM", gunicorn.returncode == 0, f"exit {gunicorn.returncode}")

written = []
for top in ("/app", "/opt", "/etc", "/var", "/usr", "/home", "/root", "/run", "/srv"):
    for root, dirs, files in os.walk(top):
        for name in files + dirs:
            path = os.path.join(root, name)
            try:
                if os.lstat(path).st_mtime >= START:
                    written.append(path)
            except OSError:
                pass
check("nothing written outside /tmp (read-only root friendly)", not written, written[:5] or "")
print("image check passed", flush=True)
