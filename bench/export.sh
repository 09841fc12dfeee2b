#!/usr/bin/env bash
# What export costs (see bench/export.rs): the hook with export.otlp on and off, and one
# flush of a 10,000-record backlog against the tests' real OTLP receiver. Prints tables.
#   bench/export.sh [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
. install/static-build.sh
cargo build --release --locked ${static_args[@]+"${static_args[@]}"}
binary="$(pwd)/${CARGO_TARGET_DIR:-target}/${static_target:+$static_target/}release/did-it-actually"
case "${CARGO_TARGET_DIR:-}" in /*) binary="${CARGO_TARGET_DIR}/${static_target:+$static_target/}release/did-it-actually" ;; esac
unset RUSTFLAGS
tests/support/otlp-receiver.sh --setup-only
cargo run --release --locked --example export -- "$binary" "$@"
