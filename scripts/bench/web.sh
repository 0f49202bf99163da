#!/usr/bin/env bash
# The web part of the benchmark: Lighthouse 12.2.3 (pinned in package.json beside this
# script), mobile defaults (simulated slow 4G, 4x slower CPU), with Debian's chromium, RUNS
# times (3) on each landing and sign-in page, and on the pages a signed-in customer goes through
# next (scripts/bench/lighthouse-signed-in.mjs); prints the best run of each page (by
# performance score): the four scores, first and largest contentful paint, total blocking
# time and layout shift, then the JavaScript the landing page loads before it is interactive
# (gzip).
#
#   bash scripts/bench/web.sh                         # starts the product as `make run` does
#   bash scripts/bench/web.sh http://127.0.0.1:8080   # a product already running there
#
# Starting it takes the binaries from BIN_DIR (default $CARGO_TARGET_DIR/debug or
# target/debug; built with cargo when missing) and the web app from WEB_DIST (default
# web/dist; built when missing), on free ports of 127.0.0.1 with a data folder of its own,
# removed at the end. Reports stay in BENCH_OUT (a new temporary folder unless given).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/services.sh

URL=${1:-${BENCH_URL:-}}
BIN_DIR=${BIN_DIR:-${CARGO_TARGET_DIR:-target}/debug}
WEB_DIST=${WEB_DIST:-web/dist}
RUNS=${RUNS:-3}
PAGES=(/ /fr /professional /fr/professional /login)
OUT=${BENCH_OUT:-$(mktemp -d /tmp/repairs-bench-web.XXXXXX)}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}

SERVER_PID=
BFF_PID=
DATA=
stop() {
  stop_product "$BFF_PID" "$SERVER_PID"
  [ -n "$DATA" ] && rm -rf "$DATA"
  return 0
}
trap stop EXIT

if [ ! -f scripts/bench/node_modules/.package-lock.json ] ||
  [ scripts/bench/package-lock.json -nt scripts/bench/node_modules/.package-lock.json ]; then
  (cd scripts/bench && npm ci --no-audit --no-fund --loglevel=error)
fi

start_product() {
  if [ ! -f "$WEB_DIST/index.html" ]; then
    (cd web && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm run --silent build)
  fi
  if [ ! -x "$BIN_DIR/repairs-server" ] || [ ! -x "$BIN_DIR/repairs-bff" ]; then
    cargo build -p repairs-server -p repairs-bff
  fi
  local grpc_port http_port bff_port
  grpc_port=$(free_port)
  http_port=$(free_port)
  bff_port=$(free_port)
  DATA=$(mktemp -d /tmp/repairs-bench-data.XXXXXX)
  chmod 755 "$DATA" # the embedded Postgres runs as the postgres user when we are root
  DATA_DIR="$DATA" GRPC_ADDR="127.0.0.1:$grpc_port" HTTP_ADDR="127.0.0.1:$http_port" \
    PUBLIC_URL="http://127.0.0.1:$bff_port" "$BIN_DIR/repairs-server" >"$OUT/server.log" 2>&1 &
  SERVER_PID=$!
  BFF_ADDR="127.0.0.1:$bff_port" SERVER_URL="http://127.0.0.1:$grpc_port" \
    FILES_URL="http://127.0.0.1:$http_port" PUBLIC_URL="http://127.0.0.1:$bff_port" \
    WEB_DIST="$WEB_DIST" "$BIN_DIR/repairs-bff" >"$OUT/bff.log" 2>&1 &
  BFF_PID=$!
  URL="http://127.0.0.1:$bff_port"
  # Ready once the landing page answers with the server's texts (the embedded Postgres
  # cluster takes a while on a first start).
  for _ in $(seq 1 600); do
    curl -sf "$URL/api/pages" >/dev/null 2>&1 && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { tail -n 20 "$OUT/server.log"; exit 1; }
    sleep 0.2
  done
  echo "the product did not start: logs in $OUT" >&2
  exit 1
}

[ -n "$URL" ] || start_product
URL=${URL%/}
# One visit each first, so that the server's caches are warm as they are in use.
for page in "${PAGES[@]}"; do curl -s -o /dev/null "$URL$page"; done

echo "Lighthouse $(scripts/bench/node_modules/.bin/lighthouse --version), mobile, best of $RUNS, $URL" >&2
for run in $(seq 1 "$RUNS"); do
  for page in "${PAGES[@]}"; do
    name=$(echo "$page" | tr '/' '_')
    scripts/bench/node_modules/.bin/lighthouse "$URL$page" --quiet --output=json \
      --output-path="$OUT/lh${name}-$run.json" \
      --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage" ||
      echo "lighthouse failed on $page (run $run)" >&2
  done
done
# The emergency path's pages after the landing ones, signed in as a customer with a verified
# phone (made through the product's outbox: only on the product started here).
SIGNED_IN_PAGES=(/create-request /user-dashboard /pending-requests)
if [ -n "$DATA" ]; then
  E2E_BASE_URL="$URL" E2E_DATA_DIR="$DATA" \
    node scripts/bench/lighthouse-signed-in.mjs "$OUT" "$RUNS" "$(free_port)" "${SIGNED_IN_PAGES[@]}"
  PAGES+=("${SIGNED_IN_PAGES[@]}")
else
  echo "the signed-in pages are measured on the product this script starts (no URL given)" >&2
fi
node scripts/bench/lighthouse-summary.mjs "$OUT" "${PAGES[@]}"
node web/scripts/landing-js.mjs "$URL" / | tail -n 1
