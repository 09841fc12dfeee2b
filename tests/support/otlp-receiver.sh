#!/usr/bin/env bash
# Test OTLP/HTTP logs receiver (see otlp_receiver.py for the protocol).
#
#   tests/support/otlp-receiver.sh --port 0 --out FILE [--mode MODE] [--verbose]
#   tests/support/otlp-receiver.sh --setup-only
#
# Makes (once, under a flock) a venv at ${CARGO_TARGET_DIR:-target}/otlp-venv,
# relative to the repo root unless absolute, with the pinned official OTLP
# protobuf packages, then execs the receiver. Setup output goes to stderr, so
# the receiver's first stdout line is always `PORT <n>`.
set -euo pipefail

OTEL_PROTO_VERSION=1.45.2
PROTOBUF_VERSION=7.36.2

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

target="${CARGO_TARGET_DIR:-target}"
case "$target" in
  /*) ;;
  *) target="$root/$target" ;;
esac
venv="$target/otlp-venv"
stamp="$venv/.otlp-receiver-stamp"
want="opentelemetry-proto==$OTEL_PROTO_VERSION protobuf==$PROTOBUF_VERSION"
python="${OTLP_RECEIVER_PYTHON:-python3}"

mkdir -p "$target"
{
  flock -x 9
  if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv" >&2
    # shellcheck disable=SC2086
    "$venv/bin/python" -m pip install --disable-pip-version-check -q $want >&2
    "$venv/bin/python" -c 'import opentelemetry.proto.collector.logs.v1.logs_service_pb2, google.protobuf.json_format' >&2
    printf '%s' "$want" > "$stamp"
  fi
} 9>"$target/otlp-venv.lock"

if [ "${1:-}" = "--setup-only" ]; then
  exit 0
fi

exec "$venv/bin/python" -u "$here/otlp_receiver.py" "$@"
