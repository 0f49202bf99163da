#!/usr/bin/env bash
# `make bench-alerts`: how fast an emergency's first Web Push reaches the push service, and
# its first native push APNs or FCM (docs/figures.md, "Emergency alerts").
# Prints figures and asserts nothing.
#
# Builds release, starts a throwaway Postgres and Redis (scripts/services.sh) and the release
# server on 127.0.0.1 with a fresh VAPID key, PUSH_ENDPOINT_HOSTS=127.0.0.1, and APNs and FCM
# keys made for the run (APNS_URL and FCM_URL a local port); then
# server/examples/alerts_bench.rs runs the tests' local push service (checks each VAPID token,
# decrypts each message) and their local APNs and FCM (check every token) on that port, seeds
# 10,000 approved professionals with a browser and a phone each, places 50 emergencies a
# minute for 5 minutes through CreateRepairRequest, and prints, from each call's answer to the
# first push of its request at the push service and to its first native push, p50, p90, p99
# and max, the pushes received per second, and the server's
# repairs_notification_delay_seconds beside them.
# Settings: BENCH_MINUTES (5; the full run takes about 7 minutes after the build),
# BENCH_PER_MINUTE (50), BENCH_PROFESSIONALS (10000); the server's own settings
# (PUSH_CONCURRENCY, ...) pass through the environment.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}

# The same build as `make bench` (the server library is built once for both).
# BENCH_PROFILE=debug runs the debug build already there instead (figures of a debug build
# are only for checking the benchmark itself).
PROFILE=${BENCH_PROFILE:-release}
if [ "$PROFILE" = release ]; then
  bash scripts/bench/build.sh
fi

source scripts/services.sh
WORK=$(mktemp -d /tmp/repairs-bench-alerts.XXXXXX)
SERVER_PID=
# Stops what this script started, by process id; a server still draining a long outbox after
# 10 s is killed.
stop_all() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  stop_test_redis
  stop_test_postgres
  rm -rf "$WORK"
}
trap stop_all EXIT

start_test_postgres
start_test_redis
"$(pg_bin_dir)/psql" -q "$TEST_DATABASE_URL" -c 'create database repairs_alerts'
DATABASE_URL="${TEST_DATABASE_URL%/*}/repairs_alerts"
GRPC_PORT=$(free_port)
HTTP_PORT=$(free_port)
JWT_SECRET="bench-secret-$(date +%s%N)-0123456789abcdef"
VAPID_PRIVATE_KEY=$("$TARGET/$PROFILE/examples/alerts_bench" vapid-key)
export DATABASE_URL JWT_SECRET VAPID_PRIVATE_KEY
# The local APNs and FCM: their port, and keys the server reads at start.
NATIVE_PORT=$(free_port)
NATIVE_ADDR="127.0.0.1:$NATIVE_PORT"
NATIVE_DIR="$WORK/native"
mkdir -p "$NATIVE_DIR"
while IFS='=' read -r name value; do
  export "$name=$value"
done < <("$TARGET/$PROFILE/examples/alerts_bench" native-keys "$NATIVE_DIR" "http://$NATIVE_ADDR")
export NATIVE_ADDR NATIVE_DIR

# The server as operators run it (default settings), its pushes allowed to 127.0.0.1.
mkdir -p "$WORK/data"
REDIS_URL="$TEST_REDIS_URL" DATA_DIR="$WORK/data" PUSH_ENDPOINT_HOSTS=127.0.0.1 \
  GRPC_ADDR="127.0.0.1:$GRPC_PORT" HTTP_ADDR="127.0.0.1:$HTTP_PORT" \
  "$TARGET/$PROFILE/repairs-server" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 600); do
  (exec 3<>"/dev/tcp/127.0.0.1/$GRPC_PORT") 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -n 20 "$WORK/server.log" >&2; exit 1; }
  sleep 0.1
done

GRPC_URL="http://127.0.0.1:$GRPC_PORT" METRICS_URL="http://127.0.0.1:$HTTP_PORT/metrics" \
  "$TARGET/$PROFILE/examples/alerts_bench" run
if grep -q ' ERROR ' "$WORK/server.log"; then
  echo "the server logged errors:" >&2
  grep ' ERROR ' "$WORK/server.log" | head -n 5 >&2
fi
