#!/usr/bin/env bash
# Builds the release binary and prints the load test (rounds of 200 concurrent hook
# processes against one session) and the reader's time on a transcript with a 64 MiB
# line, as markdown (see bench/load.rs and BENCHMARKS.md). Extra arguments go to the
# harness, e.g.  bench/load.sh --rounds 10 --procs 400
set -euo pipefail

cd "$(dirname "$0")/.."
cargo build --release --locked
cargo run --release --locked --example load -- \
  "${CARGO_TARGET_DIR:-target}/release/did-it-actually" "$@"
