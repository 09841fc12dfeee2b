#!/usr/bin/env bash
# Builds the release binary and prints a markdown table of whole-process latency and peak
# RSS per hook case (see bench/bench.rs and BENCHMARKS.md). Extra arguments go to the
# harness, e.g.  bench/run.sh --runs 1000 --warmup 10
set -euo pipefail

cd "$(dirname "$0")/.."
cargo build --release --locked
cargo run --release --locked --example bench -- \
  "${CARGO_TARGET_DIR:-target}/release/did-it-actually" "$@"
