#!/usr/bin/env bash
# make image-check: build the Dockerfile for real and run the image, without a Docker
# daemon or a container registry (neither is reachable on the project's machines).
#
#   1. a Debian bookworm root filesystem with Debian's python3 (debootstrap, cached),
#   2. imported as a local base image (buildah, vfs storage under the cache directory),
#   3. the Dockerfile built on it through its PYTHON_IMAGE build argument
#      (--format docker keeps the HEALTHCHECK; chroot isolation),
#   4. the image run (buildah run) as its own user with a tmpfs /tmp:
#      deploy/image_check_inside.py starts the service as the CMD does (the installed
#      wheel's `cribbage-service serve`), checks
#      /healthz, /readyz, /version, a score, gzip and the HEALTHCHECK command,
#      puts the image's nginx with the ConfigMap's nginx.conf in front, checks
#      through it, stops both, and checks nothing was written outside /tmp.
#
# Needs root, debootstrap and buildah (Debian: apt-get install debootstrap buildah;
# installed here when missing), and Debian's and PyPI's servers (pip runs in the build).
# Environment: IMAGE_CHECK_CACHE (default /var/tmp/cribbage-image), DEBIAN_MIRROR,
# IMAGE_CHECK_KEEP=1 keeps the built image.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${IMAGE_CHECK_CACHE:-/var/tmp/cribbage-image}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
BASE=localhost/cribbage-base:bookworm
IMAGE=localhost/cribbage-service:check
say() { printf '\n== %s\n' "$*"; }

[ "$(id -u)" = 0 ] || { echo "image-check: run as root (debootstrap, buildah)" >&2; exit 2; }
if ! command -v debootstrap >/dev/null || ! command -v buildah >/dev/null; then
    say "installing debootstrap and buildah (Debian)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap buildah >/dev/null
fi
mkdir -p "$CACHE"
B=(buildah --root "$CACHE/storage" --runroot "$CACHE/run" --storage-driver vfs)
echo "buildah $(buildah --version | awk '{print $3}'), debootstrap $(dpkg-query -W -f '${Version}' debootstrap 2>/dev/null || echo '?')"

# 1. The root filesystem (about a minute, once).
if [ ! -s "$CACHE/bookworm-python3.tar" ]; then
    say "debootstrap bookworm (minbase + python3, ca-certificates) from $MIRROR"
    rm -rf "$CACHE/rootfs"
    debootstrap --variant=minbase --include=python3,ca-certificates bookworm "$CACHE/rootfs" "$MIRROR" \
        >"$CACHE/debootstrap.log" 2>&1 || { tail -20 "$CACHE/debootstrap.log"; exit 1; }
    rm -rf "$CACHE/rootfs/var/cache/apt/archives/"*.deb "$CACHE/rootfs/var/lib/apt/lists/"*
    tar -C "$CACHE/rootfs" --numeric-owner -cf "$CACHE/bookworm-python3.tar.part" .
    mv "$CACHE/bookworm-python3.tar.part" "$CACHE/bookworm-python3.tar"
    rm -rf "$CACHE/rootfs"
fi
echo "root filesystem: $CACHE/bookworm-python3.tar ($(du -h "$CACHE/bookworm-python3.tar" | cut -f1))"

# 2. The base image.
if ! "${B[@]}" inspect --type image "$BASE" >/dev/null 2>&1; then
    say "importing the root filesystem as $BASE"
    ctr=$("${B[@]}" from --pull=false scratch)
    "${B[@]}" add "$ctr" "$CACHE/bookworm-python3.tar" /
    "${B[@]}" config --cmd /bin/bash --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
    "${B[@]}" commit --quiet --format docker "$ctr" "$BASE" >/dev/null
    "${B[@]}" rm "$ctr" >/dev/null
fi
"${B[@]}" run --isolation chroot "$("${B[@]}" from --pull=false "$BASE")" -- \
    sh -c '. /etc/os-release; echo "base image: $PRETTY_NAME, $(python3 --version), pip: $(python3 -m pip --version 2>&1 | head -c 40)"'
"${B[@]}" rm --all >/dev/null

# 3. The build.  pip inside it reaches PyPI through this machine's proxy, whose CA is
# in the host's bundle: mounted read-only over the image's during the build only.
REVISION=$(git rev-parse HEAD 2>/dev/null || true)
say "buildah build --build-arg PYTHON_IMAGE=$BASE --build-arg GIT_REVISION=$REVISION"
started=$(date +%s)
if ! "${B[@]}" build --isolation chroot --format docker --pull=false --layers=false \
        --build-arg PYTHON_IMAGE="$BASE" --build-arg GIT_REVISION="$REVISION" \
        -v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro \
        -t "$IMAGE" -f Dockerfile . >"$CACHE/build.log" 2>&1; then
    tail -40 "$CACHE/build.log"
    echo "image-check: the build failed (whole log: $CACHE/build.log)" >&2
    exit 1
fi
grep -E '^(STEP|COMMIT)|^Setting up (nginx|python3-venv)|^Successfully (installed|tagged)' "$CACHE/build.log" \
    | cut -c1-200 || true
echo "built in $(( $(date +%s) - started )) s"

say "the image"
"${B[@]}" images --format '{{.Name}}:{{.Tag}} {{.Size}}' "$IMAGE"
"${B[@]}" inspect --type image "$IMAGE" >"$CACHE/inspect.json"
python3 - "$CACHE/inspect.json" >"$CACHE/config.txt" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))["Docker"]["config"]  # the docker format keeps HEALTHCHECK
health = config["Healthcheck"]
print("User:", config["User"], file=sys.stderr)
print("Cmd:", config["Cmd"], file=sys.stderr)
print("WorkingDir:", config["WorkingDir"], "ExposedPorts:", sorted(config["ExposedPorts"]), file=sys.stderr)
print("Env:", [e for e in config["Env"] if e.startswith(("PATH=", "CRIBBAGE_", "PORT="))], file=sys.stderr)
print("Healthcheck:", health["Test"][:3], "... every", health["Interval"] // 10**9, "s", file=sys.stderr)
assert health["Test"][0] == "CMD", health
print(config["User"])
print(json.dumps(health["Test"][1:]))
PY
{ read -r user; read -r healthcheck; } <"$CACHE/config.txt"

# 4. Run it: as the image's user, /tmp a tmpfs (as the pod's emptyDir), this machine's
# free ports (chroot isolation shares the host's network).
ports=$(python3 -c 'import socket
out = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); out.append(s); print(s.getsockname()[1], end=" ")')
read -r gport nport <<<"$ports"
say "buildah run --user $user (gunicorn on 127.0.0.1:$gport, nginx on 127.0.0.1:$nport)"
ctr=$("${B[@]}" from --pull=false "$IMAGE")
trap '"${B[@]}" rm "$ctr" >/dev/null 2>&1 || true' EXIT
"${B[@]}" run --isolation chroot --user "$user" --workingdir /app \
    --mount type=tmpfs,destination=/tmp \
    -v "$PWD/deploy:/check:ro" \
    "$ctr" -- python /check/image_check_inside.py /check/kubernetes/nginx-configmap.yaml \
    "$gport" "$nport" "$REVISION" "$healthcheck"

"${B[@]}" rm "$ctr" >/dev/null
trap - EXIT
if [ -z "${IMAGE_CHECK_KEEP:-}" ]; then
    "${B[@]}" rmi "$IMAGE" >/dev/null
fi
say "image-check passed"
