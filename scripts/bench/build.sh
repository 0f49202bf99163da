#!/usr/bin/env bash
# The release build of both benchmarks (`make bench`, `make bench-alerts`): the binaries and
# both bench clients in one cargo call, so that features unify the same way for both and the
# second benchmark finds everything built by the first.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -p repairs-server -p repairs-bff --bins \
  --example bench_client --example alerts_bench
