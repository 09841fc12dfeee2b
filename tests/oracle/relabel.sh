#!/usr/bin/env bash
# Relabels tests/corpus/block-wrong-branch.tsv and tests/corpus/scope-shell.tsv by running
# every case for real (tests/it/oracle_relabel.rs) and rewrites tests/corpus/*.oracle.tsv.
# Needs the sandbox (root or user namespaces, overlayfs): the corpora name paths outside
# the scratch world. About three minutes on two cores.
#   DID_IT_ACTUALLY_ORACLE_CORPUS=branch|scope   only one corpus
#   DID_IT_ACTUALLY_ORACLE_LINES=12,13           only these lines
#   DID_IT_ACTUALLY_ORACLE_VERBOSE=1             print each run's output and changes
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
DID_IT_ACTUALLY_ORACLE_WRITE=${DID_IT_ACTUALLY_ORACLE_WRITE:-1} \
  exec cargo test --test it oracle_relabel::relabel_corpora -- --ignored --nocapture
