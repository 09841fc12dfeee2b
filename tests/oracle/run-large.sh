#!/usr/bin/env bash
# The generator's large run: tests/oracle/run-large.sh [COUNT] [SEED]
# (default 5000 commands, seed 0x110ac1e; the CI batch is the first 400 of that seed).
# Writes every command with the oracle's label, the guard's decision and the class of each
# disagreement to target/oracle-large-SEED-COUNT.tsv, prints the counts, and fails on any
# disagreement (see tests/it/oracle_generator.rs).
#   DID_IT_ACTUALLY_ORACLE_THREADS=N      parallel worlds (default 4)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
count=${1:-5000}
seed=${2:-0x110ac1e}
out="target/oracle-large-$seed-$count.tsv"
mkdir -p target
DID_IT_ACTUALLY_GENERATOR_COUNT=$count DID_IT_ACTUALLY_GENERATOR_SEED=$seed \
DID_IT_ACTUALLY_GENERATOR_REPORT="$PWD/$out" \
  cargo test --test it oracle_generator:: -- --nocapture 2>&1 | grep -v '^    \|^guard-\|^conservative-\|^sync-\|^agree' | tail -n 40
status=${PIPESTATUS[0]}
if [ -f "$out" ]; then
  echo "--- $out: commands by guard and class"
  grep -v '^#' "$out" | cut -f1,2 | sort | uniq -c | sort -rn
fi
exit "$status"
