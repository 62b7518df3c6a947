"""deploy/kubernetes: the manifests are valid Kubernetes, keep their security and
operating settings, and the nginx in each pod works in front of a real gunicorn.

* Every manifest is validated offline against the Kubernetes 1.30 schemas that
  the PyPI package ``kubernetes-validate`` ships, strictly (an unknown or
  misspelt field fails).
* The settings that a later edit must not silently drop: non-root, no
  privilege escalation, all capabilities dropped, seccomp RuntimeDefault, a
  read-only root filesystem with emptyDirs for what is written, the sealing
  secret from a Secret, probes, resources, the PodDisruptionBudget and the
  HorizontalPodAutoscaler, and nginx.conf's limits matching the service's.
* nginx.conf (from the ConfigMap) passes ``nginx -t``, and (slow) runs, as a
  non-root user, in front of a real gunicorn: its own errors are
  problem+json, and slow clients trickling headers or bodies do not keep a
  normal request from being answered within 1 s.  Both skip, saying so, when
  no ``nginx`` binary exists (.ci/run installs Debian's nginx, so CI runs them).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import kubernetes_validate
import pytest
import yaml

from service.http.limits import body_limits

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "kubernetes"
K8S_VERSION = "1.30"
MANIFESTS = sorted(p for p in DEPLOY.glob("*.yaml") if p.name != "kustomization.yaml")
SECRET_EXAMPLE = "secret.example.yaml"
PROBLEM_BASE = "https://cribbage.example/problems/"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
needs_nginx = pytest.mark.skipif(NGINX is None, reason="no nginx binary on PATH (Debian: apt-get install nginx)")


def documents(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def all_resources() -> dict[str, dict]:
    """kind -> the one resource of that kind."""
    found: dict[str, dict] = {}
    for path in MANIFESTS:
        for doc in documents(path):
            assert doc["kind"] not in found, f"two {doc['kind']}s"
            found[doc["kind"]] = doc
    return found


@pytest.fixture(scope="module")
def res() -> dict[str, dict]:
    return all_resources()


@pytest.fixture(scope="module")
def pod(res) -> dict:
    return res["Deployment"]["spec"]["template"]["spec"]


def container(pod: dict, name: str) -> dict:
    return next(c for c in pod["containers"] if c["name"] == name)


def env(c: dict) -> dict[str, dict]:
    return {e["name"]: e for e in c.get("env", [])}


def nginx_conf(res: dict) -> str:
    return res["ConfigMap"]["data"]["nginx.conf"]


def directive(conf: str, name: str) -> list[str]:
    """The arguments of every ``name ...;`` in an nginx config (comments stripped)."""
    text = re.sub(r"#[^\n]*", "", conf)
    return [m.group(1).strip() for m in re.finditer(rf"(?m)^\s*{name}\s+([^;{{}}]*);", text)]


def nginx_size(value: str) -> int:
    m = re.fullmatch(r"(\d+)([kKmM]?)", value)
    assert m, value
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]


def quantity(value: Any) -> float:
    """A Kubernetes CPU or memory quantity as a number (cores, bytes)."""
    m = re.fullmatch(r"([0-9.]+)(m|Ki|Mi|Gi|k|M|G)?", str(value))
    assert m, value
    scale = {None: 1, "m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "k": 1e3, "M": 1e6, "G": 1e9}
    return float(m.group(1)) * scale[m.group(2)]


# --- schema validation -----------------------------------------------------------------------

@pytest.mark.parametrize("path", MANIFESTS, ids=[p.name for p in MANIFESTS])
def test_the_manifest_is_valid_kubernetes(path):
    docs = documents(path)
    assert docs, f"{path.name} holds no resource"
    for doc in docs:
        where = f"{path.name}: {doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
        try:
            version = kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        except kubernetes_validate.ValidationError as e:
            pytest.fail(f"{where}: {'.'.join(map(str, e.path))}: {e.message}")
        except kubernetes_validate.SchemaNotFoundError as e:
            pytest.fail(f"{where}: {e.message}")
        assert version == K8S_VERSION


def test_the_validator_catches_a_misspelt_field(res):
    """A control: the schemas are really applied (strictly) offline."""
    bad = copy.deepcopy(res["Deployment"])
    bad["spec"]["template"]["spec"]["containers"][0]["securityContext"]["readOnlyRootFileSystem"] = True
    with pytest.raises(kubernetes_validate.ValidationError, match="readOnlyRootFileSystem"):
        kubernetes_validate.validate(bad, K8S_VERSION, strict=True)
    bad = copy.deepcopy(res["HorizontalPodAutoscaler"])
    bad["spec"]["minReplicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, K8S_VERSION, strict=True)


def test_kustomization_lists_every_manifest_but_the_secret_example(res):
    kustomization = yaml.safe_load((DEPLOY / "kustomization.yaml").read_text())
    assert kustomization["kind"] == "Kustomization"
    assert sorted(kustomization["resources"]) == sorted(p.name for p in MANIFESTS if p.name != SECRET_EXAMPLE)
    images = {i["name"] for i in kustomization.get("images", [])}
    for c in res["Deployment"]["spec"]["template"]["spec"]["containers"]:
        assert c["image"].split(":")[0] in images, c["name"]


def test_every_kind_is_there(res):
    assert set(res) == {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget",
                        "ConfigMap", "Secret"}
    assert res["HorizontalPodAutoscaler"]["apiVersion"] == "autoscaling/v2"
    assert res["PodDisruptionBudget"]["apiVersion"] == "policy/v1"


# --- security ----------------------------------------------------------------------------------

def test_every_container_runs_locked_down(pod):
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"].get("runAsUser", 1) != 0
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod.get("automountServiceAccountToken") is False
    for key in ("hostNetwork", "hostPID", "hostIPC"):
        assert not pod.get(key), key
    for c in pod["containers"] + pod.get("initContainers", []):
        sc = c.get("securityContext", {})
        name = c["name"]
        assert sc.get("allowPrivilegeEscalation") is False, name
        assert sc.get("readOnlyRootFilesystem") is True, name
        assert sc.get("privileged", False) is False, name
        assert sc.get("capabilities", {}).get("drop") == ["ALL"], name
        assert not sc.get("capabilities", {}).get("add"), name
        assert sc.get("runAsNonRoot", pod["securityContext"]["runAsNonRoot"]) is True, name
        assert sc.get("runAsUser", 1) != 0, name
        seccomp = sc.get("seccompProfile", pod["securityContext"]["seccompProfile"])
        assert seccomp == {"type": "RuntimeDefault"}, name


def test_what_is_written_goes_to_emptydirs(pod):
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert all(set(v) & {"emptyDir", "configMap"} for v in volumes.values()), "only emptyDir and configMap volumes"
    for c in pod["containers"]:
        mounts = {m["mountPath"]: m for m in c.get("volumeMounts", [])}
        assert "/tmp" in mounts and "emptyDir" in volumes[mounts["/tmp"]["name"]], c["name"]
        for m in mounts.values():
            if "configMap" in volumes[m["name"]]:
                assert m.get("readOnly") is True, (c["name"], m)
    service = container(pod, "service")
    metrics_dir = env(service)["PROMETHEUS_MULTIPROC_DIR"]["value"]
    mounts = {m["mountPath"]: m["name"] for m in service["volumeMounts"]}
    assert metrics_dir in mounts and metrics_dir != "/tmp"
    assert "emptyDir" in volumes[mounts[metrics_dir]]


def test_the_sealing_secret_comes_from_the_secret(res, pod):
    secret = res["Secret"]
    service_env = env(container(pod, "service"))
    current = service_env["CRIBBAGE_STATE_SECRET"]
    previous = service_env["CRIBBAGE_STATE_SECRET_PREVIOUS"]
    assert "value" not in current and "value" not in previous
    ref, prev_ref = current["valueFrom"]["secretKeyRef"], previous["valueFrom"]["secretKeyRef"]
    assert ref["name"] == prev_ref["name"] == secret["metadata"]["name"]
    assert ref.get("optional", False) is False  # no Secret, no pod: never plain states by accident
    assert prev_ref["optional"] is True
    assert ref["key"] in secret["stringData"] and ref["key"] != prev_ref["key"]
    for c in pod["containers"]:
        for name, e in env(c).items():
            assert "SECRET" not in name or "valueFrom" in e, (c["name"], name)


def test_the_secret_example_is_a_placeholder_the_service_refuses(res):
    from service.seal import Sealer

    text = (DEPLOY / SECRET_EXAMPLE).read_text()
    assert "EXAMPLE ONLY" in text and "NOT A SECRET" in text
    for value in res["Secret"]["stringData"].values():
        with pytest.raises(ValueError, match="at least"):
            Sealer(value)


# --- operation ---------------------------------------------------------------------------------

def probe_path(probe: dict, port: str) -> str:
    if "httpGet" in probe:
        return probe["httpGet"]["path"]
    command = " ".join(probe["exec"]["command"])
    m = re.search(r"http://127\.0\.0\.1:(\d+)(/[a-z]+)", command)
    assert m and m.group(1) == port, command
    return m.group(2)


def test_replicas_probes_and_shutdown(res, pod):
    deployment = res["Deployment"]
    assert deployment["spec"]["replicas"] == 3
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    service = container(pod, "service")
    service_env = env(service)
    port = service_env["PORT"]["value"]
    # gunicorn only on the loopback: every request passes nginx.
    assert service_env["HOST"]["value"] == "127.0.0.1"
    assert not service.get("ports")
    # gunicorn.conf.py would count the node's CPUs in a container.
    assert int(service_env["WEB_CONCURRENCY"]["value"]) >= 1
    assert probe_path(service["livenessProbe"], port) == "/healthz"
    assert probe_path(service["readinessProbe"], port) == "/readyz"
    assert probe_path(service["startupProbe"], port) == "/healthz"
    nginx = container(pod, "nginx")
    assert nginx["readinessProbe"]["httpGet"]["path"] == "/readyz"  # through nginx to the service
    liveness = nginx["livenessProbe"]["httpGet"]["path"]
    assert re.search(rf"location\s*=\s*{re.escape(liveness)}\s*\{{", nginx_conf(res))
    # Room for the preStop sleep and gunicorn's graceful_timeout.
    sleep = int(service["lifecycle"]["preStop"]["exec"]["command"][-1])
    graceful = re.search(r"(?m)^graceful_timeout\s*=\s*(\d+)", (ROOT / "service/gunicorn_conf.py").read_text())
    assert graceful, "service/gunicorn_conf.py sets graceful_timeout"
    assert pod["terminationGracePeriodSeconds"] >= sleep + int(graceful.group(1))


def test_every_container_has_measured_requests_and_limits(res, pod):
    text = (DEPLOY / "deployment.yaml").read_text()
    assert re.search(r"measured", text) and re.search(r"RSS[^\n]*MiB", text), "the measured figures stay in the comment"
    for c in pod["containers"]:
        r = c["resources"]
        for kind in ("cpu", "memory"):
            assert quantity(r["requests"][kind]) <= quantity(r["limits"][kind]), (c["name"], kind)
    # The service container's memory request covers the 145 MiB measured (master + 2 workers, RSS).
    assert quantity(container(pod, "service")["resources"]["requests"]["memory"]) >= 145 * 2**20
    assert env(container(pod, "service"))["WEB_CONCURRENCY"]["value"] == "2"  # as measured


def test_service_hpa_and_disruption_budget(res, pod):
    labels = res["Deployment"]["spec"]["template"]["metadata"]["labels"]
    svc = res["Service"]["spec"]
    assert svc["selector"].items() <= labels.items()
    nginx_ports = {p["name"]: p["containerPort"] for p in container(pod, "nginx")["ports"]}
    assert [p["targetPort"] for p in svc["ports"]] == ["http"] and "http" in nginx_ports
    hpa = res["HorizontalPodAutoscaler"]["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                     "name": res["Deployment"]["metadata"]["name"]}
    assert hpa["metrics"] == [{"type": "Resource", "resource": {
        "name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]
    pdb = res["PodDisruptionBudget"]["spec"]
    assert pdb["minAvailable"] == 2
    assert pdb["selector"]["matchLabels"].items() <= labels.items()
    assert hpa["minReplicas"] > pdb["minAvailable"]  # a drain can always evict one


def test_nginx_conf_matches_the_service(res, pod):
    conf = nginx_conf(res)
    service_env = env(container(pod, "service"))
    body_limit = int(service_env["CRIBBAGE_MAX_BODY_BYTES"]["value"])
    assert body_limit == 65536
    # the service's limit everywhere, and each larger path's own in its location
    assert nginx_size(directive(conf, "client_max_body_size")[0]) == body_limit
    assert nginx_size(directive(conf, "client_body_buffer_size")[0]) == body_limit
    own = re.findall(r"location = (\S+) \{\s*client_max_body_size\s+(\w+);\s*client_body_buffer_size\s+(\w+);",
                     re.sub(r"#[^\n]*", "", conf))
    assert {path: nginx_size(size) for path, size, _ in own} == body_limits(body_limit)
    assert all(size == buffer for _, size, buffer in own)
    assert len(directive(conf, "client_max_body_size")) == 1 + len(own)
    assert directive(conf, "client_header_timeout") == ["5s"]
    assert directive(conf, "client_body_timeout") == ["5s"]
    assert directive(conf, "proxy_request_buffering") == ["on"]
    assert directive(conf, "server") == [f"127.0.0.1:{service_env['PORT']['value']}"]
    assert int(directive(conf, "keepalive")[0]) > 0
    assert directive(conf, "proxy_http_version") == ["1.1"]
    assert 'Connection ""' in directive(conf, "proxy_set_header")
    nginx = container(pod, "nginx")
    assert directive(conf, "listen") == [f"{nginx['ports'][0]['containerPort']} default_server"]
    pages = " ".join(directive(conf, "error_page"))
    for status in (400, 413, 414, 494, 500, 502, 504):
        assert re.search(rf"\b{status}\b", pages), status
    assert directive(conf, "default_type").count("application/problem+json") == 1
    # The command's config is the ConfigMap's key, mounted read-only.
    command = nginx["command"]
    conf_path = command[command.index("-c") + 1]
    mount = next(m for m in nginx["volumeMounts"] if conf_path.startswith(m["mountPath"] + "/"))
    volume = next(v for v in pod["volumes"] if v["name"] == mount["name"])
    assert volume["configMap"]["name"] == res["ConfigMap"]["metadata"]["name"]
    assert conf_path.rsplit("/", 1)[1] in res["ConfigMap"]["data"]
    # Everything nginx writes is under its /tmp emptyDir.
    for name in ("pid", "client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path",
                 "scgi_temp_path"):
        assert [v.startswith("/tmp/") for v in directive(conf, name)] == [True], name


# --- nginx itself --------------------------------------------------------------------------------

def local_conf(res: dict, workdir: Path, listen: int, upstream: int) -> Path:
    """The ConfigMap's nginx.conf with this machine's ports, writing under ``workdir``, not /tmp."""
    conf = (nginx_conf(res).replace("listen 8080", f"listen 127.0.0.1:{listen}")
            .replace("server 127.0.0.1:8000", f"server 127.0.0.1:{upstream}")
            .replace("/tmp/", f"{workdir}/"))
    path = workdir / "nginx.conf"
    path.write_text(conf)
    return path


@needs_nginx
def test_nginx_accepts_the_config(res, tmp_path):
    path = local_conf(res, tmp_path, 8080, 8000)
    proc = subprocess.run([NGINX, "-t", "-e", "stderr", "-p", str(tmp_path), "-c", str(path)],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert "test is successful" in proc.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def nginx_in_front(res: dict, upstream: int) -> Iterator[int]:
    """nginx with the ConfigMap's config, as an unprivileged user like in the pod; yields its port."""
    workdir = Path(tempfile.mkdtemp(prefix="cribbage-nginx-"))
    os.chmod(workdir, 0o777)  # the unprivileged nginx writes its pid and temp directories here
    port = free_port()
    conf = local_conf(res, workdir, port, upstream)
    os.chmod(conf, 0o644)
    cmd = [NGINX, "-e", "stderr", "-p", str(workdir), "-c", str(conf), "-g", "daemon off;"]
    if os.geteuid() == 0 and shutil.which("setpriv"):
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    log = open(workdir / "nginx.log", "wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while True:
            if proc.poll() is not None:
                pytest.fail(f"nginx exited with {proc.returncode}:\n{(workdir / 'nginx.log').read_text()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"nginx did not listen in 15 s:\n{(workdir / 'nginx.log').read_text()}")
            time.sleep(0.05)
        yield port
    finally:
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


def raw(port: int, data: bytes, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read the answer until nginx closes: (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def check_problem(status: int, headers: dict, body: bytes, expected: int, slug: str) -> dict:
    assert status == expected, body
    assert headers["content-type"] == "application/problem+json", headers
    problem = json.loads(body)
    assert problem["status"] == expected and problem["type"] == PROBLEM_BASE + slug, problem
    assert problem["request_id"] == headers["x-request-id"]
    assert isinstance(problem["title"], str) and isinstance(problem["detail"], str)
    assert isinstance(problem["instance"], str) and isinstance(problem["errors"], list)
    return problem


def trickle(port: int, head: bytes, rest: bytes, pause: float, stop: threading.Event, closed: list) -> None:
    """A slow client: ``head`` at once, then ``rest`` a byte every ``pause`` s; records in
    ``closed`` how long it took the server to close on it (not when ``stop`` ends it first)."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(head)
            for i in range(len(rest)):
                if stop.wait(pause):
                    return
                s.sendall(rest[i:i + 1])
        except OSError:
            closed.append(time.monotonic() - start)
            return
        with contextlib.suppress(OSError):
            s.recv(1)
        closed.append(time.monotonic() - start)


@pytest.mark.slow
@needs_nginx
def test_nginx_in_front_of_gunicorn(res, pod, tmp_path):
    from gunicorn_server import gunicorn

    hand = {"cards": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}
    with gunicorn(tmp_path / "gunicorn.log") as base, nginx_in_front(res, int(base.rsplit(":", 1)[1])) as port:
        front = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=front, timeout=5) as http:
            r = http.get("/nginx-healthz")
            assert r.status_code == 200 and r.json() == {"status": "ok"}
            r = http.post("/v1/hands/score", json=hand, headers={"X-Request-ID": "client-id-1"})
            assert r.status_code == 200 and r.json()["total"] == 29
            assert r.headers["x-request-id"] == "client-id-1"  # nginx passes a sane id on
            r = http.post("/v1/hands/score", json=hand, headers={"X-Request-ID": "not a sane id"})
            assert r.status_code == 200 and re.fullmatch(r"[0-9a-f]{32}", r.headers["x-request-id"])
            # A chunked body reaches the service whole.
            r = http.post("/v1/hands/score", content=iter([json.dumps(hand).encode()]),
                          headers={"Content-Type": "application/json"})
            assert r.status_code == 200 and r.json()["total"] == 29
            # The service's own problems pass untouched.
            r = http.get("/no/such/path")
            assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
            assert r.json()["instance"] == "/no/such/path"

            # nginx's own errors: problem+json with the service's problem types.
            r = http.post("/v1/hands/score", content=b"x" * 70_000, headers={"Content-Type": "application/json"})
            check_problem(r.status_code, r.headers, r.content, 413, "content-too-large")
            # the larger bodies of the standings pass (a 2,000-line tie: 316 KiB), and past its own limit not
            lines = [{"player": f"P-{i:0>38}", "opponent": f"O-{i:0>38}", "game_points": 0, "games_won": 0,
                      "spread": 0, "round": 1000} for i in range(2000)]
            r = http.post("/v1/tournaments/standings", json={"results": lines}, timeout=30)
            assert r.status_code == 200 and len(r.json()["standings"]) == 4000, r.text[:300]
            r = http.post("/v1/tournaments/standings", content=b" " * (2560 * 1024 + 1),
                          headers={"Content-Type": "application/json"})
            check_problem(r.status_code, r.headers, r.content, 413, "content-too-large")
            r = http.get("/" + "a" * 5000)
            check_problem(r.status_code, r.headers, r.content, 414, "uri-too-long")
            r = http.get("/healthz", headers={"X-Big": "b" * 9000})
            check_problem(r.status_code, r.headers, r.content, 431, "request-header-fields-too-large")
        score = b"POST /v1/hands/score HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        check_problem(*raw(port, score + b"Content-Length: abc\r\n\r\n"), 400, "bad-request")
        check_problem(*raw(port, score + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"), 400,
                      "bad-request")
        check_problem(*raw(port, score + b"Transfer-Encoding: gzip\r\n\r\n"), 501, "not-implemented")
        check_problem(*raw(port, score + b"Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                      400, "bad-request")
        problem = check_problem(*raw(port, b"GET /_nginx/problem HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
                                404, "not-found")
        assert problem["instance"] == "/_nginx/problem"
        problem = check_problem(*raw(port, b'POST /"quoted" HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n'
                                           b'Connection: close\r\n\r\n' + b"x" * 70_000), 413, "content-too-large")
        assert problem["instance"] == "#" + problem["request_id"]  # a path that JSON would need escaped

        # Slow clients: 8 trickling headers and 8 trickling a body hold nginx connections,
        # never gunicorn's 2 x 2 threads; normal requests are answered within 1 s meanwhile.
        body = json.dumps(hand).encode()
        slow_headers = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 60 + b"\r\n\r\n"
        slow_body = score + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
        stop, closed = threading.Event(), []
        clients = [threading.Thread(target=trickle, args=(port, b"", slow_headers, 0.25, stop, closed))
                   for _ in range(8)]
        clients += [threading.Thread(target=trickle, args=(port, slow_body, body, 1.0, stop, [])) for _ in range(8)]
        for t in clients:
            t.start()
        try:
            time.sleep(1)
            with httpx.Client(base_url=front, timeout=5) as http:
                for _ in range(6):
                    t0 = time.monotonic()
                    assert http.post("/v1/hands/score", json=hand).json()["total"] == 29
                    assert http.get("/healthz").status_code == 200
                    assert time.monotonic() - t0 < 1.0, "a normal request waited behind the slow clients"
                    time.sleep(0.5)
        finally:
            # nginx cuts the header tricklers off at client_header_timeout (5 s).
            for t in clients[:8]:
                t.join(timeout=15)
            stop.set()
            for t in clients:
                t.join(timeout=15)
        assert len(closed) == 8 and max(closed) <= 5 + 2, closed  # every header trickler cut at ~5 s

        # The service container's exec liveness probe, pointed at this gunicorn.
        live = container(pod, "service")["livenessProbe"]["exec"]["command"]
        gport = base.rsplit(":", 1)[1]
        probe = [sys.executable if live[0] == "python" else live[0],
                 *[a.replace("127.0.0.1:8000", f"127.0.0.1:{gport}") for a in live[1:]]]
        assert subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    assert subprocess.run(probe, capture_output=True, timeout=30).returncode != 0  # the server is gone
