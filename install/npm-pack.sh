#!/bin/sh
# Makes the npm tarballs from a built binary: the platform package
# (@did-it-actually/PLATFORM, the binary with `os` and `cpu` set) and the main package
# (did-it-actually, the JS launcher, with every platform package as an optional
# dependency), both at the version in Cargo.toml. Prints the two tarball paths, platform
# first, one a line.
#
#   install/npm-pack.sh BINARY PLATFORM OUTDIR
#
# PLATFORM is one of linux-x64, linux-arm64, darwin-x64, darwin-arm64. Needs
# node and npm. The release workflow publishes what this makes; tests/it/e2e_npm.rs
# installs it from the local tarballs.
set -eu

die() { printf 'npm-pack.sh: %s\n' "$*" >&2; exit 1; }
case "${1:-}" in -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ $# -eq 3 ] || die "usage: install/npm-pack.sh BINARY PLATFORM OUTDIR"
binary="$1"
platform="$2"
outdir="$3"
[ -f "$binary" ] || die "no binary at $binary"
case "$platform" in
  linux-x64 | linux-arm64 | darwin-x64 | darwin-arm64) ;;
  *) die "unknown platform $platform (one of linux-x64, linux-arm64, darwin-x64, darwin-arm64)" ;;
esac
os="${platform%-*}"
cpu="${platform#*-}"
exe=did-it-actually
[ "$os" = win32 ] && exe=did-it-actually.exe
command -v npm >/dev/null 2>&1 || die "npm is not on PATH"
command -v node >/dev/null 2>&1 || die "node is not on PATH"

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
root=$(dirname -- "$here")
# The [package] version of Cargo.toml.
version=$(awk '/^\[/ { section = $0 } section == "[package]" && /^version *=/ { gsub(/^version *= *"|".*$/, ""); print; exit }' "$root/Cargo.toml")
[ -n "$version" ] || die "no version in $root/Cargo.toml"

mkdir -p "$outdir"
outdir=$(CDPATH= cd -- "$outdir" && pwd)
stage=$(mktemp -d "$outdir/.npm-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# The platform package: the template, the binary, a README.
mkdir -p "$stage/platform/bin"
sed -e "s/@PLATFORM@/$platform/g" -e "s/@VERSION@/$version/g" -e "s/@OS@/$os/g" \
  -e "s/@CPU@/$cpu/g" -e "s/@BINARY@/$exe/g" \
  "$root/npm/platform/package.json.in" >"$stage/platform/package.json"
cp "$binary" "$stage/platform/bin/$exe"
chmod 755 "$stage/platform/bin/$exe"
printf '# @did-it-actually/%s\n\nThe did-it-actually %s binary for %s, installed by the `did-it-actually` package (`npx did-it-actually install --project .`). See https://github.com/did-it-actually/did-it-actually\n' \
  "$platform" "$version" "$platform" >"$stage/platform/README.md"

# The main package, its version and its optional dependencies' set to this one.
mkdir -p "$stage/main/bin"
cp "$root/npm/did-it-actually/README.md" "$stage/main/README.md"
cp "$root/npm/did-it-actually/bin/did-it-actually.js" "$stage/main/bin/did-it-actually.js"
chmod 755 "$stage/main/bin/did-it-actually.js"
node -e '
  const fs = require("fs");
  const [from, to, version] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(from, "utf8"));
  pkg.version = version;
  for (const dep of Object.keys(pkg.optionalDependencies)) pkg.optionalDependencies[dep] = version;
  fs.writeFileSync(to, JSON.stringify(pkg, null, 2) + "\n");
' "$root/npm/did-it-actually/package.json" "$stage/main/package.json" "$version"

for package in platform main; do
  name=$(cd "$stage/$package" && npm pack --silent --pack-destination "$outdir" | tail -n 1)
  [ -n "$name" ] && [ -f "$outdir/$name" ] || die "npm pack made no tarball for $stage/$package"
  printf '%s\n' "$outdir/$name"
done
