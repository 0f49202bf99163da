#!/usr/bin/env bash
# `make bench`: the figures of docs/figures.md, side by side in one run on this
# machine (absolute numbers drift with the machine's load; the ratios are what to compare).
#
# Builds release, starts a throwaway Postgres and Redis (scripts/services.sh), the release
# server and BFF on 127.0.0.1, seeds 250 approved member professionals
# (server/examples/bench_client.rs), then prints:
#   - memory (resident set) of the server and the BFF, idle and with 1,000 open
#     WatchOpenRequests streams (through the BFF's gRPC-web passthrough, HTTP/2);
#   - for each round: `pgbench -S -M prepared` TPS (16 clients) on the same Postgres and
#     GetPublicProfessional (one indexed row) over gRPC (h2load, 16 connections x 8 streams),
#     and their ratio; the BFF's legacy `GET /api/services` and ListServices over direct gRPC
#     (same load), and their ratio;
#   - for each round: a signed-in read no cache answers, the BFF's legacy
#     `GET /api/professionals/view-profile/{id}` and GetProfessional over gRPC, both with the
#     professional's own token (same load), and their ratio, with the CPU each process
#     spent a call (the BFF's own cost, which noise on a shared machine moves least);
#   - then scripts/bench/web.sh (the web app's figures), unless BENCH_WEB=0.
# Settings: BENCH_ROUNDS (2), BENCH_SECONDS per measure (10), BENCH_STREAMS (1000),
# BENCH_WEB (1).
# It prints figures and asserts nothing (a failed call, though, stops it: a figure of errors
# would mean nothing).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
ROUNDS=${BENCH_ROUNDS:-2}
SECONDS_EACH=${BENCH_SECONDS:-10}
STREAMS=${BENCH_STREAMS:-1000}
CONNECTIONS=16
STREAMS_PER_CONNECTION=8

if ! command -v h2load >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y nghttp2-client >/dev/null || { apt-get update >/dev/null && apt-get install -y nghttp2-client >/dev/null; }
  else
    echo "h2load is missing: apt-get install nghttp2-client" >&2
    exit 1
  fi
fi

bash scripts/bench/build.sh

source scripts/services.sh
WORK=$(mktemp -d /tmp/repairs-bench.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_test_redis
  stop_test_postgres
  rm -rf "$WORK"
}
trap cleanup EXIT

start_test_postgres
start_test_redis
PG_BIN=$(pg_bin_dir)
BASE_URL=${TEST_DATABASE_URL%/*}
"$PG_BIN/psql" -q "$TEST_DATABASE_URL" -c 'create database repairs_bench' -c 'create database pgbench'
"$PG_BIN/pgbench" -i -q -s 10 "$BASE_URL/pgbench" >"$WORK/pgbench-init.log" 2>&1

GRPC_PORT=$(free_port)
HTTP_PORT=$(free_port)
BFF_PORT=$(free_port)
GRPC_URL="http://127.0.0.1:$GRPC_PORT"
BFF_URL="http://127.0.0.1:$BFF_PORT"
export JWT_SECRET="bench-secret-$(date +%s%N)-0123456789abcdef"

# The server and the BFF as operators run them: default log settings.
mkdir -p "$WORK/data"
DATABASE_URL="$BASE_URL/repairs_bench" REDIS_URL="$TEST_REDIS_URL" DATA_DIR="$WORK/data" \
  GRPC_ADDR="127.0.0.1:$GRPC_PORT" HTTP_ADDR="127.0.0.1:$HTTP_PORT" \
  "$TARGET/release/repairs-server" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
BFF_ADDR="127.0.0.1:$BFF_PORT" SERVER_URL="$GRPC_URL" FILES_URL="http://127.0.0.1:$HTTP_PORT" \
  WEB_DIST="$ROOT/web/dist" "$TARGET/release/repairs-bff" >"$WORK/bff.log" 2>&1 &
BFF_PID=$!
PIDS+=("$BFF_PID")

wait_for_port() {
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "nothing listens on port $1; the logs:" >&2
  tail -n 20 "$WORK/server.log" "$WORK/bff.log" >&2
  exit 1
}
wait_for_port "$GRPC_PORT"
wait_for_port "$BFF_PORT"

DATABASE_URL="$BASE_URL/repairs_bench" GRPC_URL="$GRPC_URL" \
  "$TARGET/release/examples/bench_client" seed "$WORK"

# Requests per second of one h2load run; stops the bench when a request failed.
h2load_rate() {
  local out
  out=$(h2load -c "$CONNECTIONS" -m "$STREAMS_PER_CONNECTION" -D "$SECONDS_EACH" --warm-up-time=1 "$@" 2>&1)
  if ! grep -q ' 0 failed, 0 errored, 0 timeout' <<<"$out" || ! grep -q ' 0 3xx, 0 4xx, 0 5xx' <<<"$out"; then
    echo "h2load $* had failures:" >&2
    echo "$out" >&2
    exit 1
  fi
  sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' <<<"$out"
}

grpc_rate() { # path body [h2load options...]
  local path=$1 body=$2
  shift 2
  h2load_rate -d "$WORK/$body" -H 'content-type: application/grpc' -H 'te: trailers' "$@" "$GRPC_URL/$path"
}

pgbench_tps() {
  "$PG_BIN/pgbench" -n -S -M prepared -c "$CONNECTIONS" -j 2 -T "$SECONDS_EACH" "$BASE_URL/pgbench" 2>&1 |
    sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}

rss_mb() {
  awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", 100 * a / b }'
}

ONE_ROW=repairs.accounts.v1.AccountsService/GetPublicProfessional
SERVICES=repairs.content.v1.ContentService/ListServices
OWN_PROFILE=repairs.accounts.v1.AccountsService/GetProfessional
# A signed-in read no cache answers: the first seeded professional's own profile, with their
# token, through the BFF's legacy path and over gRPC.
PROFESSIONAL_ID=$(cat "$WORK/professional_id")
SIGNED_IN=(-H "authorization: Bearer $(head -n 1 "$WORK/tokens")")

# Warm both processes (pools, prepared statements, caches) before the idle figure.
SECONDS_EACH=2 grpc_rate "$ONE_ROW" get_public_professional.bin >/dev/null
SECONDS_EACH=2 h2load_rate "$BFF_URL/api/services" >/dev/null
sleep 2
SERVER_IDLE=$(rss_mb "$SERVER_PID")
BFF_IDLE=$(rss_mb "$BFF_PID")

"$TARGET/release/examples/bench_client" watch "$BFF_URL" "$WORK/tokens" "$STREAMS" >"$WORK/watch.log" 2>&1 &
WATCH_PID=$!
PIDS+=("$WATCH_PID")
for _ in $(seq 1 1200); do
  grep -q '^open' "$WORK/watch.log" && break
  kill -0 "$WATCH_PID" 2>/dev/null || { cat "$WORK/watch.log" >&2; exit 1; }
  sleep 0.1
done
grep -q '^open' "$WORK/watch.log" || { echo "the streams did not open within 120 s" >&2; exit 1; }
sleep 2
SERVER_STREAMS=$(rss_mb "$SERVER_PID")
BFF_STREAMS=$(rss_mb "$BFF_PID")
kill "$WATCH_PID"
wait "$WATCH_PID" || true

echo
echo "== Memory (resident set, MB) =="
printf '%-8s %8s %18s %10s\n' "" idle "$STREAMS streams" increase
printf '%-8s %8s %18s %10s\n' server "$SERVER_IDLE" "$SERVER_STREAMS" \
  "$(awk -v a="$SERVER_STREAMS" -v b="$SERVER_IDLE" 'BEGIN{printf "%.1f", a-b}')"
printf '%-8s %8s %18s %10s\n' BFF "$BFF_IDLE" "$BFF_STREAMS" \
  "$(awk -v a="$BFF_STREAMS" -v b="$BFF_IDLE" 'BEGIN{printf "%.1f", a-b}')"
printf '%-8s %8s %18s %10s\n' both "" "" \
  "$(awk -v a="$SERVER_STREAMS" -v b="$SERVER_IDLE" -v c="$BFF_STREAMS" -v d="$BFF_IDLE" 'BEGIN{printf "%.1f", a-b+c-d}')"

echo
echo "== Throughput ($CONNECTIONS clients; h2load $CONNECTIONS connections x $STREAMS_PER_CONNECTION streams; ${SECONDS_EACH} s each) =="
printf '%-6s %14s %18s %7s %18s %18s %7s\n' round "pgbench -S tps" "GetPublicProf/s" ratio \
  "BFF /api/services" "gRPC ListServices" ratio
for round in $(seq 1 "$ROUNDS"); do
  PG=$(pgbench_tps)
  ONE=$(grpc_rate "$ONE_ROW" get_public_professional.bin)
  BFF=$(h2load_rate "$BFF_URL/api/services")
  DIRECT=$(grpc_rate "$SERVICES" list_services.bin)
  printf '%-6s %14.0f %18.0f %7s %18.0f %18.0f %7s\n' "$round" "$PG" "$ONE" "$(ratio "$ONE" "$PG")" \
    "$BFF" "$DIRECT" "$(ratio "$BFF" "$DIRECT")"
done

# CPU time (user + system, in clock ticks) a process has used so far.
cpu_ticks() {
  awk '{print $14 + $15}' "/proc/$1/stat"
}

# Runs `$@` (an h2load_rate call, which prints the rate) and sets RATE and, in µs of CPU a
# call, BFF_US and SERVER_US: the ticks each used over the run, warm-up second included,
# shared out over the calls of the whole run at the measured rate.
rate_and_cpu() {
  local bff0 server0 calls
  bff0=$(cpu_ticks "$BFF_PID")
  server0=$(cpu_ticks "$SERVER_PID")
  RATE=$("$@")
  calls=$(awk -v r="$RATE" -v s="$SECONDS_EACH" 'BEGIN { print r * (s + 1) }')
  BFF_US=$(us_a_call $(($(cpu_ticks "$BFF_PID") - bff0)) "$calls")
  SERVER_US=$(us_a_call $(($(cpu_ticks "$SERVER_PID") - server0)) "$calls")
}

us_a_call() { # ticks calls
  awk -v t="$1" -v hz="$(getconf CLK_TCK)" -v n="$2" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }'
}

echo
echo "The signed-in read; CPU a call in µs (BFF + server), which shares out the two cores:"
printf '%-6s %36s %12s %22s %12s %7s\n' round "BFF /api/professionals/view-profile" "CPU µs" \
  "gRPC GetProfessional" "CPU µs" ratio
for round in $(seq 1 "$ROUNDS"); do
  rate_and_cpu h2load_rate "${SIGNED_IN[@]}" "$BFF_URL/api/professionals/view-profile/$PROFESSIONAL_ID"
  LEGACY=$RATE LEGACY_CPU="$BFF_US + $SERVER_US"
  rate_and_cpu grpc_rate "$OWN_PROFILE" get_professional.bin "${SIGNED_IN[@]}"
  OWN=$RATE OWN_CPU="$SERVER_US"
  printf '%-6s %36.0f %12s %22.0f %12s %7s\n' "$round" "$LEGACY" "$LEGACY_CPU" "$OWN" "$OWN_CPU" \
    "$(ratio "$LEGACY" "$OWN")"
done

if [ "${BENCH_WEB:-1}" != 0 ]; then
  echo
  bash scripts/bench/web.sh
fi
