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

usage() {
  cat <<'USAGE'
install/test.sh: every test of did-it-actually (cargo test, with what the tests need).

Usage: install/test.sh [--fast] [CARGO TEST ARGUMENTS...]

  (no option)  Everything: unit tests, fixture snapshots, the corpora labelled by running
               each command, the execution oracle, a property test, concurrency, the CLI
               and install script, doctor, and end to end with the real clients: Claude
               Code (two releases), Codex, Gemini, Copilot, Qwen Code, droid, opencode,
               aider, pi and both Agent SDKs, run offline against scripted models.
               The first run downloads them from npm and PyPI into target/ (about 4.3 GB
               on disk) and takes 15 to 25 minutes on 2 cores; later runs reuse them.
  --fast       The same without any real client (no test named e2e_*, no Claude Code
               sample of a corpus, no host or agent bed): a few minutes, and only the
               whole-turn corpus's test runners (pytest, uv, jest, mocha: 110 MB) to get.
  -h, --help   This text.

Anything else is passed to `cargo test` (e.g. `install/test.sh --fast -- scope_corpus`).

Environment:
  DID_IT_ACTUALLY_E2E_OPTIONAL=1  skip, with a reason, what cannot be installed here
  DID_IT_ACTUALLY_TEST_LIMIT=N    stop the run after N seconds (default 4500), printing what ran
  CARGO_TARGET_DIR                where the build and the downloaded clients go (default target/)
  TURNS_ONLY=NAME                 play only the whole turns whose file or name contains NAME
More: docs/testing.md.
USAGE
}
fast=
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  --fast) fast=1; shift ;;
esac
command -v cargo >/dev/null 2>&1 || { echo "test.sh: cargo is not on PATH: install the Rust toolchain" >&2; exit 1; }
limit="${DID_IT_ACTUALLY_TEST_LIMIT:-4500}"
case "$limit" in
  ''|*[!0-9]*) echo "test.sh: DID_IT_ACTUALLY_TEST_LIMIT must be a number of seconds, not '$limit'" >&2; exit 2 ;;
esac

# The watchdog keeps no stream of ours open while it sleeps (a reader of our output would
# wait for it), and prints only if it wakes.
# (Its own stderr is kept on fd 3: bash would report the sleep it stops as "Terminated".)
(
  exec 3>&2 2>/dev/null
  sleep "$limit" </dev/null >/dev/null || exit 0
  {
    echo "test.sh: the tests ran longer than ${limit}s; what was running:"
    ps -eo pid,ppid,etime,args --forest | cut -c1-400
  } >&3
) &
watchdog=$!
stop_watchdog() {
  pkill -P "$watchdog" 2>/dev/null || true
  kill "$watchdog" 2>/dev/null || true
  wait "$watchdog" 2>/dev/null || true
}
trap stop_watchdog EXIT

# The oracle's sandbox runs `chroot` and `unshare`, which live in /usr/sbin and /sbin,
# directories many users' PATH leaves out.
for dir in /usr/sbin /sbin; do
  case ":$PATH:" in
    *":$dir:"*) ;;
    *) [ -d "$dir" ] && PATH="$PATH:$dir" ;;
  esac
done
export PATH

# The HTML report's test opens the page in a real browser (tests/it/report_cmd.rs):
# Debian's chromium, installed once here when it is missing and apt-get can have it (as
# root, or through sudo without a password). Where it cannot, that test fails unless
# DID_IT_ACTUALLY_E2E_OPTIONAL=1, and then says it skipped.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  as_root=()
  [ "$(id -u)" = 0 ] || as_root=(sudo -n)
  if command -v apt-get >/dev/null 2>&1 && { [ "${#as_root[@]}" = 0 ] || command -v sudo >/dev/null 2>&1; }; then
    echo "test.sh: installing chromium (apt-get) for the HTML report's browser test" >&2
    apt() { "${as_root[@]+"${as_root[@]}"}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >&2; }
    # Stale package lists cannot find it: read them again once.
    apt install -y chromium || { apt update && apt install -y chromium; } ||
      echo "test.sh: chromium could not be installed; the browser test fails unless DID_IT_ACTUALLY_E2E_OPTIONAL=1" >&2
  else
    echo "test.sh: no chromium, and no apt-get (as root) to install it: the browser test fails unless DID_IT_ACTUALLY_E2E_OPTIONAL=1" >&2
  fi
fi

# The whole-turn corpus plays turns that run jq, sqlite3 and make (tests/corpus/turns/):
# Debian's packages, installed here when one is missing and apt-get can have them.
missing=()
for tool in jq sqlite3 make; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  as_root=()
  [ "$(id -u)" = 0 ] || as_root=(sudo -n)
  if command -v apt-get >/dev/null 2>&1 && { [ "${#as_root[@]}" = 0 ] || command -v sudo >/dev/null 2>&1; }; then
    echo "test.sh: installing ${missing[*]} (apt-get) for the whole-turn corpus" >&2
    aptq() { "${as_root[@]+"${as_root[@]}"}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >&2; }
    aptq install -y "${missing[@]}" || { aptq update && aptq install -y "${missing[@]}"; } ||
      echo "test.sh: ${missing[*]} could not be installed; turns that run them fail" >&2
  else
    echo "test.sh: ${missing[*]} missing, and no apt-get (as root) to install them: turns that run them fail" >&2
  fi
fi

# What the end-to-end tests install into target/ on first use, said before they do it.
target="${CARGO_TARGET_DIR:-target}"
hosts="${DID_IT_ACTUALLY_HOST_CACHE:-$target/hosts}"
missing=()
want() { [ -d "$1" ] || missing+=("$2"); }
want "$target/claude-code/node_modules" "Claude Code 2.1.328 (360 MB)"
want "$target/claude-code-2.1.332/node_modules" "Claude Code 2.1.332 (385 MB)"
want "$hosts/codex-0.171.0" "Codex CLI (425 MB)"
want "$hosts/copilot-1.0.102" "Copilot CLI (425 MB)"
want "$hosts/droid-0.225.2" "droid (245 MB)"
want "$hosts/gemini-0.61.0" "Gemini CLI (100 MB)"
want "$hosts/opencode-1.18.33" "opencode (355 MB)"
want "$hosts/qwen-0.24.4" "Qwen Code (145 MB)"
want "$hosts/aider-0.86.2" "aider (690 MB, a venv)"
want "$hosts/pi-0.73.1" "pi (205 MB)"
want "$target/agent-sdk-ts" "the TypeScript Agent SDK (455 MB)"
want "$target/agent-sdk-py" "the Python Agent SDK (455 MB)"
want "$target/turn-corpus" "pytest, uv, jest and mocha (110 MB)"
if [ -n "$fast" ]; then
  missing=()
  want "$target/turn-corpus" "pytest, uv, jest and mocha (110 MB)"
fi
if [ "${#missing[@]}" -gt 0 ] && [ "${DID_IT_ACTUALLY_E2E_OPTIONAL:-}" != 1 ] && [ -z "$fast" ]; then
  echo "test.sh: the end-to-end tests install, once, into $target/ from npm and PyPI (sizes on disk, about 4.3 GB when none is there yet):" >&2
  printf '  %s\n' "${missing[@]}" >&2
  echo "test.sh: the suite then takes 15 to 25 minutes on 2 cores; later runs reuse them (DID_IT_ACTUALLY_E2E_OPTIONAL=1 skips what cannot be had)." >&2
fi

if [ -n "$fast" ] && [ "${#missing[@]}" -gt 0 ]; then
  echo "test.sh --fast: the whole-turn corpus installs its test runners, once, into $target/: ${missing[*]}" >&2
fi

args=("$@")
if [ -n "$fast" ]; then
  # Every test that starts a real client: the e2e_ modules, the corpora's samples through
  # Claude Code, the host and agent beds' own checks.
  skips=(--skip e2e_ --skip claude_code_2_1_ --skip support::hosts:: --skip support::agents::)
  has_dashdash=
  for a in "${args[@]+"${args[@]}"}"; do [ "$a" = -- ] && has_dashdash=1; done
  if [ -n "$has_dashdash" ]; then args+=("${skips[@]}"); else args+=(-- "${skips[@]}"); fi
fi

status=0
timeout --kill-after=30 "$((limit + 5))" cargo test --locked "${args[@]+"${args[@]}"}" || status=$?
if [ "$status" = 124 ]; then
  echo "test.sh: stopped the tests after ${limit}s (the process tree above shows what hung)" >&2
fi
exit "$status"
