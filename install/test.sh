#!/usr/bin/env bash
# Runs every test: unit tests, fixture snapshots, concurrency, the CLI and install script,
# and the end-to-end sessions with the real Claude Code (installed into target/ on first
# use; set DID_IT_ACTUALLY_E2E_OPTIONAL=1 to skip those, with a reason, where it cannot be had).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v cargo >/dev/null 2>&1 || { echo "test.sh: cargo is not on PATH: install the Rust toolchain" >&2; exit 1; }
exec cargo test --locked "$@"
