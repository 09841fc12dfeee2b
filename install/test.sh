#!/usr/bin/env bash
# Runs every test: unit tests, fixture snapshots, concurrency, the CLI and install script,
# and the end-to-end sessions with the real Claude Code (installed into target/ on first
# use; set DID_IT_ACTUALLY_E2E_OPTIONAL=1 to skip those, with a reason, where it cannot be had).
#
# A test that hangs fails the run with what was running, instead of running out a CI
# clock in silence: after DID_IT_ACTUALLY_TEST_LIMIT seconds (default 4500, five times
# the slowest full run seen on 2 cores) the process tree is printed and the tests are
# stopped.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v cargo >/dev/null 2>&1 || { echo "test.sh: cargo is not on PATH: install the Rust toolchain" >&2; exit 1; }
limit="${DID_IT_ACTUALLY_TEST_LIMIT:-4500}"
case "$limit" in
  ''|*[!0-9]*) echo "test.sh: DID_IT_ACTUALLY_TEST_LIMIT must be a number of seconds, not '$limit'" >&2; exit 2 ;;
esac

# The watchdog keeps no stream of ours open while it sleeps (a reader of our output would
# wait for it), and prints only if it wakes.
(
  sleep "$limit" </dev/null >/dev/null 2>&1 || exit 0
  {
    echo "test.sh: the tests ran longer than ${limit}s; what was running:"
    ps -eo pid,ppid,etime,args --forest | cut -c1-400
  } >&2
) &
watchdog=$!
stop_watchdog() {
  pkill -P "$watchdog" 2>/dev/null || true
  kill "$watchdog" 2>/dev/null || true
  wait "$watchdog" 2>/dev/null || true
}
trap stop_watchdog EXIT

status=0
timeout --kill-after=30 "$((limit + 5))" cargo test --locked "$@" || status=$?
if [ "$status" = 124 ]; then
  echo "test.sh: stopped the tests after ${limit}s (the process tree above shows what hung)" >&2
fi
exit "$status"
