#!/bin/bash
# footprint.sh BINARY [LABEL]: the server's start time and idle memory. Starts BINARY on a
# database of its own in the Postgres at TEST_DATABASE_URL (no Redis, SINGLE_REPLICA=true),
# twice (the first start applies the migrations), and prints for the second the time from
# exec to /healthz answering, then its resident set (VmRSS) after 10 s idle. Compare two
# binaries (before and after a change) run one after the other on a quiet machine.
set -euo pipefail
bin=$1; label=${2:-$(basename "$1")}
: "${TEST_DATABASE_URL:?set TEST_DATABASE_URL to a Postgres this may create databases in}"
db="footprint_$$"
base=${TEST_DATABASE_URL%/*}
psql "$TEST_DATABASE_URL" -qc "create database $db" >/dev/null
trap 'psql "$TEST_DATABASE_URL" -qc "drop database if exists $db" >/dev/null' EXIT
for run in warm measured; do
  dir=$(mktemp -d); port=$((20000 + RANDOM % 20000)); hport=$((port + 1))
  start=$(date +%s.%N)
  env -i PATH="$PATH" DATA_DIR="$dir" DATABASE_URL="$base/$db" SINGLE_REPLICA=true \
    JWT_SECRET=footprint-secret-0123456789abcdef-0123456789abcdef \
    GRPC_ADDR=127.0.0.1:$port HTTP_ADDR=127.0.0.1:$hport LOG_FORMAT=json "$bin" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1500); do
    curl -sf "http://127.0.0.1:$hport/healthz" >/dev/null && break
    sleep 0.02
  done
  ready=$(date +%s.%N)
  sleep 10
  rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  if [ "$run" = measured ]; then
    printf '%s: start to /healthz %.2f s, idle VmRSS %.1f MB\n' "$label" \
      "$(echo "$ready - $start" | bc)" "$(echo "$rss / 1024" | bc -l)"
  fi
done
