#!/usr/bin/env bash
# Builds did-it-actually, installs it and its hook links into PREFIX/bin, and registers
# the hooks in a project's Claude Code settings (.claude/settings.json).
#
#   install/install.sh [--project DIR] [--prefix DIR] [--local | --user]
#   install/install.sh --uninstall [--project DIR] [--prefix DIR] [--local | --user]
#
# Re-running is harmless: the build is incremental and the settings merge is idempotent.
set -euo pipefail

usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
  cat <<'TXT'
Options:
  --project DIR  the project to guard (default: the git top level of the current directory)
  --prefix DIR   where to install (default: $PREFIX, else ~/.local); DIR/bin must be on PATH
  --local        write .claude/settings.local.json (personal) instead of settings.json
  --user         write ~/.claude/settings.json (every project) instead
  --uninstall    remove the registration, the links and the binary
TXT
}

die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

prefix="${PREFIX:-${HOME:?HOME is not set}/.local}"
project=""
scope=()
mode=install
while [ $# -gt 0 ]; do
  case "$1" in
    --project) [ $# -ge 2 ] || die "--project needs a directory"; project="$2"; shift 2 ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix="$2"; shift 2 ;;
    --local | --user) scope+=("$1"); shift ;;
    --uninstall) mode=uninstall; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="$prefix/bin"
binary="$bin_dir/did-it-actually"

if [ -z "$project" ]; then
  project="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
fi
[ -d "$project" ] || die "the project directory $project does not exist"
project="$(cd "$project" && pwd)"

if [ "$mode" = uninstall ]; then
  # Each step runs whatever the one before did; what could not be done is said at the end.
  left=()
  if [ -x "$binary" ]; then
    "$binary" uninstall --project "$project" ${scope[@]+"${scope[@]}"} ||
      left+=("the registration in $project (run: $binary uninstall --project \"$project\"${scope[@]+ ${scope[*]}})")
    for hook in $("$binary" hook-names); do
      rm -f "$bin_dir/$hook" || left+=("the link $bin_dir/$hook")
    done
  else
    echo "install.sh: $binary is not installed; nothing to unregister with it" >&2
  fi
  if [ -e "$binary" ]; then
    if command -v cargo >/dev/null 2>&1 && cargo uninstall --root "$prefix" did-it-actually; then
      :
    else
      # Not cargo's to remove (installed another way, or cargo failed): the file itself.
      echo "install.sh: cargo did not uninstall it; removing $binary itself" >&2
      rm -f "$binary" || left+=("$binary")
    fi
  fi
  if [ "${#left[@]}" -gt 0 ]; then
    echo "install.sh: uninstalled what it could from $prefix; left:" >&2
    printf '  %s\n' "${left[@]}" >&2
    exit 1
  fi
  echo "did-it-actually is uninstalled from $prefix."
  exit 0
fi

command -v cargo >/dev/null 2>&1 ||
  die "cargo is not on PATH: install the Rust toolchain (rustup, stable), then run this again"
case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) die "$bin_dir is not on PATH. Add it, e.g. put  export PATH=\"$bin_dir:\$PATH\"  in your shell profile, open a new shell, and run this again (or choose another --prefix)" ;;
esac

# The toolchain the crate needs (Cargo.toml's rust-version), checked before a long build.
need=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$repo/Cargo.toml")
have=$(rustc --version 2>/dev/null | awk '{print $2}')
if [ -n "$need" ] && [ -n "$have" ] &&
  [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1)" != "$need" ]; then
  die "Rust $have is too old: did-it-actually needs Rust $need or later (rustup update stable)"
fi
echo "install.sh: building did-it-actually (release, Rust ${have:-?}, needs ${need:-?}) into $prefix."
# shellcheck source=static-build.sh
. "$repo/install/static-build.sh"
[ -n "$static_target" ] && echo "install.sh: linking it statically for $static_target (hooks start faster)."
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
if [ -x "$target_dir/${static_target:+$static_target/}release/did-it-actually" ]; then
  echo "install.sh: built before: only what changed is rebuilt (seconds, unless the dependencies changed)."
else
  echo "install.sh: a first build compiles libgit2 and the crate: about 5 to 7 minutes on 2 cores (cargo's progress follows)."
fi
CARGO_TARGET_DIR="$target_dir" \
  cargo install --path "$repo" --locked --root "$prefix" --force ${static_args[@]+"${static_args[@]}"}

for hook in $("$binary" hook-names); do
  ln -sfn did-it-actually "$bin_dir/$hook"
done
echo "install.sh: installed $binary and links: $("$binary" hook-names | tr '\n' ' ')"

"$binary" install --project "$project" ${scope[@]+"${scope[@]}"}

undo="$repo/install/install.sh --uninstall --project \"$project\"${scope[@]+ ${scope[*]}} --prefix \"$prefix\""
echo "install.sh: checking the result with \`did-it-actually doctor\` ..."
if "$binary" doctor --project "$project"; then
  cat <<TXT
install.sh: done. Claude Code sessions in $project now run the hooks.
  check again:     $binary doctor --project "$project"
  check a policy:  $binary policy check --cwd "$project"
  undo:            $undo
TXT
else
  cat >&2 <<TXT
install.sh: installed, but doctor found a problem (the lines marked FAIL above, each with its fix).
  check again:     $binary doctor --project "$project"
  undo:            $undo
TXT
  exit 1
fi
