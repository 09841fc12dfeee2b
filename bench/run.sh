#!/usr/bin/env bash
# Builds the release binary and prints a markdown table of whole-process latency and peak
# RSS per hook case (see bench/bench.rs). Extra arguments go to the harness, e.g.
#   bench/run.sh --runs 1000 --warmup 10
set -euo pipefail

cd "$(dirname "$0")/.."
cargo build --release --locked
bin="$(cargo metadata --format-version 1 --no-deps 2>/dev/null \
  | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="${bin:-target}/release/did-it-actually"
cargo run --release --locked --example bench -- "$bin" "$@"
