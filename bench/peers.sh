#!/usr/bin/env bash
# Side by side: installs the command guards people use with Claude Code today, pinned, into
# a cache under target/peers/ (skipping what is already there at the pinned version), then
# times each of them and our block-wrong-branch on the same PreToolUse inputs in one
# interleaved run and prints a markdown table (see bench/peers.py). Not part of the test
# suite. Needs node and npm, cargo, rustc, git and python3, and the registries (npm,
# crates.io) for the first install. Extra arguments go to the harness, e.g.
#   bench/peers.sh --runs 500 --warmup 10
#
# The release binary is not built here: bench/run.sh builds it.
set -uo pipefail

cd "$(dirname "$0")/.."

# Pinned versions (the newest on the registries when this was written).
CC_SAFETY_NET_VERSION=2.4.5          # npm: cc-safety-net
CC_TOOLGATE_VERSION=0.6.3            # crates.io: cc-toolgate (binary cc-toolgate)
DCG_VERSION=0.16.0                   # crates.io: destructive_command_guard (binary dcg)

TARGET="${CARGO_TARGET_DIR:-target}"
# Ours as install.sh builds it (static on Linux with glibc: install/static-build.sh).
. "$(dirname "$0")/../install/static-build.sh"
unset RUSTFLAGS
OURS_REL="${static_target:+$static_target/}release/did-it-actually"
if [ ! -x "$TARGET/$OURS_REL" ]; then
  echo "peers.sh: $TARGET/$OURS_REL is missing; bench/run.sh builds it." >&2
  exit 1
fi
mkdir -p "$TARGET/peers/logs"
# Absolute, since the tools run in a scratch repository.
TARGET=$(cd "$TARGET" && pwd)
PEERS="$TARGET/peers"
OURS="$TARGET/$OURS_REL"

tools=()

# --- cc-safety-net (npm) --------------------------------------------------------------
npm_dir="$PEERS/npm"
csn_pkg="$npm_dir/node_modules/cc-safety-net"
csn_have() {
  [ -f "$csn_pkg/package.json" ] &&
    [ "$(node -p "require('$csn_pkg/package.json').version" 2>/dev/null)" = "$CC_SAFETY_NET_VERSION" ]
}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "peers.sh: cc-safety-net skipped: node or npm is not installed." >&2
else
  if csn_have; then
    echo "peers.sh: cc-safety-net $CC_SAFETY_NET_VERSION already in $npm_dir" >&2
  else
    echo "peers.sh: installing cc-safety-net@$CC_SAFETY_NET_VERSION into $npm_dir" >&2
    mkdir -p "$npm_dir"
    npm install --prefix "$npm_dir" --no-audit --no-fund --save-exact \
      "cc-safety-net@$CC_SAFETY_NET_VERSION" >"$PEERS/logs/cc-safety-net.log" 2>&1
  fi
  if csn_have; then
    # The package's bin, run by node directly (the Claude Code plugin runs
    # `cc-safety-net --claude-code` through the shell, falling back to npx).
    bin=$(node -p "require('$csn_pkg/package.json').bin['cc-safety-net']")
    tools+=(--tool "cc-safety-net|$CC_SAFETY_NET_VERSION (node $(node --version))|node $csn_pkg/$bin hook --coding-cli")
  else
    echo "peers.sh: cc-safety-net $CC_SAFETY_NET_VERSION could not be installed; going on without it:" >&2
    tail -n 5 "$PEERS/logs/cc-safety-net.log" | sed 's/^/    /' >&2
  fi
fi

# --- crates.io peers ------------------------------------------------------------------
cargo_root="$PEERS/cargo"
crate_have() { # NAME VERSION
  cargo install --list --root "$cargo_root" 2>/dev/null | grep -qx "$1 v$2:"
}
# Installs crate NAME at VERSION into $cargo_root, building in a target directory of its
# own under $PEERS (never the project's). First as asked, `--locked` on the default
# toolchain. If that fails (a crate's lockfile can name a version the registry no longer
# serves, or a dependency that needs a newer rustc than the crate says), it says why and
# tries once more without `--locked`, on the nightly toolchain if one is installed; the
# way it was built is kept in $cargo_root/NAME.how and shown in the table.
crate_install() { # NAME VERSION
  local name=$1 version=$2 log="$PEERS/logs/$1"
  if crate_have "$name" "$version"; then
    echo "peers.sh: $name $version already in $cargo_root" >&2
    return 0
  fi
  echo "peers.sh: installing $name $version (cargo install --locked) into $cargo_root" >&2
  if CARGO_TARGET_DIR="$PEERS/cargo-build" cargo install --locked --root "$cargo_root" \
       "$name" --version "$version" >"$log.locked.log" 2>&1; then
    echo "locked, rustc $(rustc --version | awk '{print $2}')" >"$cargo_root/$name.how"
    return 0
  fi
  echo "peers.sh: $name $version does not build with --locked (log: $log.locked.log):" >&2
  grep -E '^error|requires rustc' "$log.locked.log" | head -n 4 | sed 's/^/    /' >&2
  local toolchain=() build="$PEERS/cargo-build" how="unlocked, rustc $(rustc --version | awk '{print $2}')"
  if rustup run nightly rustc --version >/dev/null 2>&1; then
    toolchain=(+nightly)
    build="$PEERS/cargo-build-nightly"
    how="unlocked, rustc $(rustup run nightly rustc --version | awk '{print $2}')"
  fi
  echo "peers.sh: retrying $name $version without --locked${toolchain:+ on nightly}" >&2
  if CARGO_TARGET_DIR="$build" cargo "${toolchain[@]}" install --root "$cargo_root" \
       "$name" --version "$version" >"$log.unlocked.log" 2>&1; then
    echo "$how" >"$cargo_root/$name.how"
    return 0
  fi
  echo "peers.sh: $name $version does not build; going on without it (log: $log.unlocked.log):" >&2
  grep -E '^error|requires rustc' "$log.unlocked.log" | head -n 6 | sed 's/^/    /' >&2
  return 1
}
crate_version_label() { # NAME VERSION
  local how
  how=$(cat "$cargo_root/$1.how" 2>/dev/null || true)
  case "$how" in
    locked*|"") echo "$2" ;;
    *) echo "$2 ($how)" ;;
  esac
}
if ! command -v cargo >/dev/null; then
  echo "peers.sh: cc-toolgate and destructive_command_guard skipped: cargo is not installed." >&2
else
  if crate_install cc-toolgate "$CC_TOOLGATE_VERSION"; then
    tools+=(--tool "cc-toolgate|$(crate_version_label cc-toolgate "$CC_TOOLGATE_VERSION")|$cargo_root/bin/cc-toolgate")
  fi
  if crate_install destructive_command_guard "$DCG_VERSION"; then
    tools+=(--tool "destructive_command_guard (dcg)|$(crate_version_label destructive_command_guard "$DCG_VERSION")|$cargo_root/bin/dcg")
  fi
fi

# --- floors ---------------------------------------------------------------------------
hello="$PEERS/hello"
if [ ! -x "$hello" ]; then
  printf 'fn main() {\n    println!("hello, world");\n}\n' >"$PEERS/hello.rs"
  rustc -O -o "$hello" "$PEERS/hello.rs" || { echo "peers.sh: cannot build $hello" >&2; exit 1; }
fi

ours_version=$("$OURS" --version | awk '{print $2}')
set -e
exec python3 bench/peers.py \
  --ours did-it-actually \
  --tool "did-it-actually|$ours_version|$OURS block-wrong-branch" \
  "${tools[@]}" \
  --floor "/bin/true|/bin/true" \
  --floor "hello-world|$hello" \
  "$@"
