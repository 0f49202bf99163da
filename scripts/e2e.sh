#!/usr/bin/env bash
# Runs the end-to-end suite (web/e2e, headless Chromium) against the real stack:
# the server and the BFF from target/debug and the built web app in web/dist, on free ports of
# 127.0.0.1, with a database of its own (dropped at the end) and a fresh data directory.
#
#   cargo build -p repairs-server -p repairs-bff && (cd web && npm ci && npm run build)
#   scripts/e2e.sh                  # every e2e test
#   scripts/e2e.sh e2e/every-route.test.mjs   # some of them (paths relative to web/)
#
# Postgres and Redis: TEST_DATABASE_URL and TEST_REDIS_URL when set, else throwaway ones
# started here. E2E_SHOTS_DIR=/some/dir also saves screenshots. Logs go to E2E_LOGS (a new
# temporary folder unless given). Street addresses come from a Photon stand-in on 127.0.0.1
# (web/e2e/photon-stand-in.mjs: the recorded answers of the server's tests, nothing for any
# other address, which the gazetteer then places); its calls are logged to
# E2E_LOGS/e2e-photon.log. Exits with the suite's status.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

LOGS=${E2E_LOGS:-$(mktemp -d /tmp/repairs-e2e-logs.XXXXXX)}
mkdir -p "$LOGS"
SERVER_PID=
BFF_PID=
PHOTON_PID=
OWN_SERVICES=
DATABASE=
DATA=

stop() {
  stop_product "$BFF_PID" "$SERVER_PID"
  stop_product "" "$PHOTON_PID"
  [ -n "$DATABASE" ] && psql -q "$TEST_DATABASE_URL" -c "drop database if exists $DATABASE" >/dev/null 2>&1
  [ -n "$DATA" ] && rm -rf "$DATA"
  if [ -n "$OWN_SERVICES" ]; then
    stop_test_redis
    stop_test_postgres
  fi
}
trap stop EXIT

for need in target/debug/repairs-server target/debug/repairs-bff web/dist/index.html; do
  if [ ! -e "$need" ]; then
    echo "missing $need: build first (cargo build -p repairs-server -p repairs-bff; cd web && npm run build)" >&2
    exit 1
  fi
done

if [ -z "${TEST_DATABASE_URL:-}" ] || [ -z "${TEST_REDIS_URL:-}" ]; then
  OWN_SERVICES=1
  start_test_postgres
  start_test_redis
fi

wait_for_port() { # port seconds
  for _ in $(seq 1 $(($2 * 5))); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

# The Photon stand-in takes a port of the system's first, so no port chosen below is its.
rm -f "$LOGS/e2e-photon.port"
node web/e2e/photon-stand-in.mjs "$LOGS/e2e-photon.port" >"$LOGS/e2e-photon.log" 2>&1 &
PHOTON_PID=$!
for _ in $(seq 1 50); do
  [ -s "$LOGS/e2e-photon.port" ] && break
  sleep 0.2
done
photon_port=$(cat "$LOGS/e2e-photon.port" 2>/dev/null)
if [ -z "$photon_port" ]; then
  cat "$LOGS/e2e-photon.log"
  exit 1
fi

grpc_port=$(free_port)
http_port=$(free_port)
bff_port=$(free_port)
DATA=$(mktemp -d /tmp/repairs-e2e.XXXXXX)
DATABASE="e2e_$(date +%s)_$$"
admin_email=admin@example.ca
admin_password=admin-password-e2e
psql -q "$TEST_DATABASE_URL" -c "create database $DATABASE" >/dev/null || exit 1

# Every browser and legacy call of the suite comes from 127.0.0.1, and a shared Redis keeps
# the hourly SMS counters across runs: the budgets (which guard real sends) are raised for this
# stack, whose texts only go to the outbox file. The cache keys are the run's own, as its
# database is: another run's cached page texts (and their etags) never show here. Web Push
# has a key of the run's own and sends only to a push service the tests run on 127.0.0.1.
CACHE_PREFIX="$DATABASE:" SMS_BUDGET_PER_HOUR=10000 SMS_BUDGET_PER_ADDRESS_PER_HOUR=10000 \
  SMS_BUDGET_PER_COUNTRY_PER_HOUR=10000 \
  DATABASE_URL="${TEST_DATABASE_URL%/*}/$DATABASE" REDIS_URL="$TEST_REDIS_URL" \
  JWT_SECRET="e2e-$(head -c 32 /dev/urandom | base64 | tr -d '/+=')" \
  DATA_DIR="$DATA" GRPC_ADDR="127.0.0.1:$grpc_port" HTTP_ADDR="127.0.0.1:$http_port" \
  PUBLIC_URL="http://127.0.0.1:$bff_port" ADMIN_EMAIL="$admin_email" ADMIN_PASSWORD="$admin_password" \
  VAPID_PRIVATE_KEY="$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')" \
  PUSH_ENDPOINT_HOSTS=127.0.0.1 GEOCODER=photon PHOTON_URL="http://127.0.0.1:$photon_port" \
  target/debug/repairs-server >"$LOGS/e2e-server.log" 2>&1 &
SERVER_PID=$!
BFF_ADDR="127.0.0.1:$bff_port" SERVER_URL="http://127.0.0.1:$grpc_port" \
  FILES_URL="http://127.0.0.1:$http_port" WEB_DIST=web/dist \
  target/debug/repairs-bff >"$LOGS/e2e-bff.log" 2>&1 &
BFF_PID=$!
if ! wait_for_port "$grpc_port" 60 || ! wait_for_port "$bff_port" 30; then
  tail -n 30 "$LOGS/e2e-server.log" "$LOGS/e2e-bff.log"
  exit 1
fi

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(e2e/)
(cd web && E2E_BASE_URL="http://127.0.0.1:$bff_port" E2E_DATA_DIR="$DATA" \
  E2E_PHOTON_LOG="$LOGS/e2e-photon.log" \
  E2E_ADMIN_EMAIL="$admin_email" E2E_ADMIN_PASSWORD="$admin_password" \
  node --test "${tests[@]}")
