#!/usr/bin/env bash
# Builds the release binary and prints a markdown table of whole-process latency and peak
# RSS per hook case (see bench/bench.rs and BENCHMARKS.md). Extra arguments go to the
# harness, e.g.  bench/run.sh --runs 1000 --warmup 10
set -euo pipefail

cd "$(dirname "$0")/.."
# The binary as install.sh builds it (static on Linux with glibc); the harness itself
# is an ordinary build.
. install/static-build.sh
cargo build --release --locked ${static_args[@]+"${static_args[@]}"}
binary="${CARGO_TARGET_DIR:-target}/${static_target:+$static_target/}release/did-it-actually"
unset RUSTFLAGS
cargo run --release --locked --example bench -- "$binary" "$@"
