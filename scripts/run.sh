#!/usr/bin/env bash
# Builds and runs the whole product on its embedded default (`make run`): the gRPC server
# with its own Postgres cluster in $DATA_DIR and an in-process cache, the BFF, and the built
# web app. No accounts, keys or services needed. Ctrl-C stops everything.
#
# Settings (environment): DATA_DIR (./data), GRPC_ADDR (127.0.0.1:50051), HTTP_ADDR
# (127.0.0.1:50052, file downloads), BFF_ADDR (127.0.0.1:8080), PUBLIC_URL (http://$BFF_ADDR),
# ADMIN_EMAIL and ADMIN_PASSWORD (an admin created at start).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

export DATA_DIR=${DATA_DIR:-./data}
export GRPC_ADDR=${GRPC_ADDR:-127.0.0.1:50051}
export HTTP_ADDR=${HTTP_ADDR:-127.0.0.1:50052}
export BFF_ADDR=${BFF_ADDR:-127.0.0.1:8080}
export SERVER_URL=${SERVER_URL:-http://$GRPC_ADDR}
export FILES_URL=${FILES_URL:-http://$HTTP_ADDR}
# Links in emails and the file links of replies open on the BFF.
export PUBLIC_URL=${PUBLIC_URL:-http://$BFF_ADDR}
export WEB_DIST=${WEB_DIST:-web/dist}

echo "==> building the web app"
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd web && npm run --silent build)

echo "==> building the server and the BFF"
cargo build -p repairs-server -p repairs-bff

SERVER_PID=
BFF_PID=
stop() {
  trap - INT TERM EXIT
  stop_product "$BFF_PID" "$SERVER_PID"
  exit 0
}
trap stop INT TERM EXIT

target/debug/repairs-server &
SERVER_PID=$!
port=${GRPC_ADDR##*:}
for _ in $(seq 1 300); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server did not start"; exit 1; }
  sleep 0.2
done

target/debug/repairs-bff &
BFF_PID=$!
echo
echo "    The product is running: open http://$BFF_ADDR"
echo "    (Ctrl-C stops it; SMS and email go to $DATA_DIR/outbox/)"
echo
wait -n "$SERVER_PID" "$BFF_PID"
