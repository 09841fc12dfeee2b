# Sourced by install.sh and bench/run.sh (bash): on Linux with glibc, build the binary
# static and not position-independent: no dynamic loader and no relocations run when a
# hook process starts, which saves about 0.8 ms of every hook call (BENCHMARKS.md).
# `--target` keeps the flags off build scripts and proc macros, which must stay dynamic.
# Sets static_target (the triple, or empty) and static_args (cargo's --target argument).
static_target=""
static_args=()
host_triple=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
case "$host_triple" in
  *-linux-gnu)
    if [ "${DID_IT_ACTUALLY_DYNAMIC:-0}" != 1 ]; then
      static_target="$host_triple"
      static_args=(--target "$host_triple")
      export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C target-feature=+crt-static -C relocation-model=static"
    fi
    ;;
esac
