#!/bin/sh
# Installs a prebuilt did-it-actually in seconds: downloads the release archive for this
# platform and its SHA-256, verifies it, and puts the binary and its hook links into
# PREFIX/bin; then registers the hooks in a project when --project is given.
#
#   install/get.sh [--version V] [--prefix DIR] [--project DIR] [--from URL]
#
# --from (or DID_IT_ACTUALLY_DOWNLOAD_URL) is the directory holding the archives, e.g. a
# release's download URL or a local file:// directory. When no archive exists for this
# platform, or the download is unreachable, it falls back to building from source with
# install.sh (when run from a clone), and says so. A checksum that does not match is never
# a reason to fall back: it stops, and nothing is installed.
set -eu

version="0.1.0"
prefix="${PREFIX:-${HOME:?HOME is not set}/.local}"
project=""
from="${DID_IT_ACTUALLY_DOWNLOAD_URL:-}"
die() { printf 'get.sh: %s\n' "$*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || die "--version needs a value"; version="$2"; shift 2 ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix="$2"; shift 2 ;;
    --project) [ $# -ge 2 ] || die "--project needs a directory"; project="$2"; shift 2 ;;
    --from) [ $# -ge 2 ] || die "--from needs a URL"; from="$2"; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1" ;;
  esac
done
[ -n "$from" ] || from="https://github.com/did-it-actually/did-it-actually/releases/download/v$version"

# The release target names (the release workflow builds these).
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) target=x86_64-unknown-linux-musl ;;
  Linux-aarch64 | Linux-arm64) target=aarch64-unknown-linux-musl ;;
  Darwin-x86_64) target=x86_64-apple-darwin ;;
  Darwin-arm64) target=aarch64-apple-darwin ;;
  *) target="" ;;
esac

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
fallback() {
  printf 'get.sh: %s\n' "$*" >&2
  if [ -x "$here/install.sh" ] && [ -f "$here/../Cargo.toml" ]; then
    echo "get.sh: building from source instead (install/install.sh)." >&2
    if [ -n "$project" ]; then
      exec "$here/install.sh" --prefix "$prefix" --project "$project"
    fi
    exec "$here/install.sh" --prefix "$prefix"
  fi
  die "no prebuilt binary could be installed, and this is not a clone to build from: clone the repository and run install/install.sh"
}

[ -n "$target" ] || fallback "no prebuilt binary for $(uname -s) $(uname -m)"
command -v curl >/dev/null 2>&1 || fallback "curl is not installed"
archive="did-it-actually-$version-$target.tar.gz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "get.sh: downloading $from/$archive ..."
curl -fsSL "$from/$archive" -o "$tmp/$archive" 2>/dev/null ||
  fallback "could not download $from/$archive"
curl -fsSL "$from/$archive.sha256" -o "$tmp/$archive.sha256" 2>/dev/null ||
  fallback "could not download $from/$archive.sha256"

expected=$(awk '{print $1; exit}' "$tmp/$archive.sha256")
if command -v sha256sum >/dev/null 2>&1; then
  actual=$(sha256sum "$tmp/$archive" | awk '{print $1}')
else
  actual=$(shasum -a 256 "$tmp/$archive" | awk '{print $1}')
fi
[ -n "$expected" ] && [ "$actual" = "$expected" ] ||
  die "the checksum of $archive does not match ($actual, expected ${expected:-nothing}): nothing was installed"

tar -xzf "$tmp/$archive" -C "$tmp"
[ -f "$tmp/did-it-actually" ] || die "$archive holds no did-it-actually binary: nothing was installed"
mkdir -p "$prefix/bin"
cp "$tmp/did-it-actually" "$prefix/bin/.did-it-actually.new"
chmod 755 "$prefix/bin/.did-it-actually.new"
mv -f "$prefix/bin/.did-it-actually.new" "$prefix/bin/did-it-actually"
binary="$prefix/bin/did-it-actually"
for hook in $("$binary" hook-names); do
  ln -sfn did-it-actually "$prefix/bin/$hook"
done
echo "get.sh: installed $("$binary" --version) at $binary (sha256 $actual)."
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "get.sh: $prefix/bin is not on PATH: add it (export PATH=\"$prefix/bin:\$PATH\")." ;;
esac
if [ -n "$project" ]; then
  "$binary" install --project "$project"
  "$binary" doctor --project "$project"
else
  echo "get.sh: register the hooks with: did-it-actually install --project /path/to/project"
fi
