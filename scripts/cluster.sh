#!/usr/bin/env bash
# The production shape on one machine, from the built binaries: two server replicas on
# different ports sharing one Postgres, one Redis and one S3 bucket (moto's S3 server), and the
# BFF spreading its calls over both; everything on 127.0.0.1. What compose.yaml runs in
# containers, for machines without a container engine (and for the cluster test).
#
#   cargo build --release -p repairs-server -p repairs-bff && (cd web && npm run build)
#   scripts/cluster.sh start            # prints the addresses; they are also in target/cluster/cluster.env
#   scripts/cluster.sh stop
#
#   scripts/cluster.sh start --debug                 # target/debug's binaries (the test's)
#   scripts/cluster.sh start --restore BACKUP_DIR    # a fresh cluster from scripts/backup.sh's copy
#
# Settings (environment): CLUSTER_DIR (target/cluster: logs, each replica's DATA_DIR, the
# state), CLUSTER_PROFILE (release or debug), CLUSTER_BIN_DIR (where the binaries are:
# target/$CLUSTER_PROFILE unless given), JWT_SECRET (random unless given; give an earlier
# cluster's to keep its sign-ins across a restore), ADMIN_EMAIL and ADMIN_PASSWORD (admin@example.ca and a
# generated one, written to cluster.env), CLUSTER_BFF_SERVERS (the replicas the BFF's
# SERVER_URL lists: a,b unless given). Postgres and Redis are the throwaway ones of scripts/services.sh,
# with the machine's binaries; the texts and emails of both replicas go to one outbox folder,
# CLUSTER_DIR/a/outbox.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
source scripts/deploy-tools.sh

CLUSTER_DIR=${CLUSTER_DIR:-$PWD/target/cluster}
STATE=$CLUSTER_DIR/cluster.env
PROFILE=${CLUSTER_PROFILE:-release}
RESTORE=
BUCKET=repairs-files
CLUSTER_BFF_SERVERS=${CLUSTER_BFF_SERVERS:-a,b}

usage() { sed -n '2,/^set -Eeuo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }

# Writes NAME=value to the state file (and sets it here).
remember() { # name value
  printf '%s=%s\n' "$1" "$2" >>"$STATE"
  printf -v "$1" '%s' "$2"
}

wait_healthy() { # name port path pid log
  for _ in $(seq 1 300); do
    bash scripts/http-health.sh "$2" "$3" 2>/dev/null && return 0
    if ! kill -0 "$4" 2>/dev/null; then
      echo "$1 stopped while starting:" >&2
      tail -n 20 "$5" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "$1 did not answer $3 on port $2 within a minute" >&2
  return 1
}

# Starts a process in its own session (it outlives this script) and records its id.
launch() { # name log command...
  local name=$1 log=$2
  shift 2
  setsid "$@" >"$log" 2>&1 </dev/null &
  remember "${name}_PID" "$!"
}

# moto's S3 server; start_s3 launches it, s3_ready waits for it and makes the bucket.
start_s3() {
  local port
  port=$(free_port)
  launch S3 "$CLUSTER_DIR/s3.log" "$MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$port"
  remember AWS_ENDPOINT_URL "http://127.0.0.1:$port"
  export AWS_ENDPOINT_URL
}

s3_ready() {
  wait_healthy "the S3 server" "${AWS_ENDPOINT_URL##*:}" /moto-api/ "$S3_PID" "$CLUSTER_DIR/s3.log"
  files_bucket create "$BUCKET"
}

# One server replica: NAME is a or b; its DATA_DIR is CLUSTER_DIR/NAME.
start_server() { # name
  local upper grpc http data
  upper=$(echo "$1" | tr '[:lower:]' '[:upper:]')
  grpc=$(free_port)
  http=$(free_port)
  data=$CLUSTER_DIR/$1
  mkdir -p "$data"
  # One outbox folder for both replicas: whichever sends a message, it is found in one place.
  [ "$1" = a ] || ln -sfn "$CLUSTER_DIR/a/outbox" "$data/outbox"
  remember "SERVER_${upper}_GRPC" "127.0.0.1:$grpc"
  remember "SERVER_${upper}_HTTP" "127.0.0.1:$http"
  remember "SERVER_${upper}_DATA_DIR" "$data"
  GRPC_ADDR=127.0.0.1:$grpc HTTP_ADDR=127.0.0.1:$http DATA_DIR=$data \
    launch "SERVER_${upper}" "$CLUSTER_DIR/server-$1.log" "$BIN/repairs-server"
  local pid_var="SERVER_${upper}_PID"
  wait_healthy "server $1" "$http" /healthz "${!pid_var}" "$CLUSTER_DIR/server-$1.log"
}

start() {
  if [ -f "$STATE" ]; then
    echo "a cluster runs from $CLUSTER_DIR: scripts/cluster.sh stop first" >&2
    exit 1
  fi
  BIN=${CLUSTER_BIN_DIR:-target/$PROFILE}
  for binary in repairs-server repairs-bff; do
    if [ ! -x "$BIN/$binary" ]; then
      local flag=--release
      [ "$PROFILE" = debug ] && flag=
      echo "missing $BIN/$binary: cargo build $flag -p repairs-server -p repairs-bff" >&2
      exit 1
    fi
  done
  install_s3_tools
  rm -rf "$CLUSTER_DIR/a" "$CLUSTER_DIR/b" "$CLUSTER_DIR"/*.log
  mkdir -p "$CLUSTER_DIR"
  : >"$STATE"
  trap 'echo "the cluster did not start; stopping what did" >&2; stop' ERR

  # The S3 server starts while Postgres and Redis do.
  remember FILES_BUCKET "$BUCKET"
  remember AWS_REGION ca-central-1
  remember AWS_ACCESS_KEY_ID cluster
  remember AWS_SECRET_ACCESS_KEY cluster-secret
  remember AWS_ALLOW_HTTP true
  export FILES_BUCKET AWS_REGION AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_ALLOW_HTTP
  start_s3
  start_test_postgres
  remember TEST_PG_PID "$TEST_PG_PID"
  remember TEST_PG_DIR "$TEST_PG_DIR"
  remember DATABASE_URL "$TEST_DATABASE_URL"
  start_test_redis
  remember TEST_REDIS_PID "$TEST_REDIS_PID"
  remember TEST_REDIS_DIR "$TEST_REDIS_DIR"
  remember REDIS_URL "$TEST_REDIS_URL"
  export DATABASE_URL REDIS_URL
  s3_ready
  if [ -n "$RESTORE" ]; then
    bash scripts/restore.sh "$RESTORE"
  fi

  local bff_port
  bff_port=$(free_port)
  remember BFF_URL "http://127.0.0.1:$bff_port"
  remember ADMIN_EMAIL "${ADMIN_EMAIL:-admin@example.ca}"
  remember ADMIN_PASSWORD "${ADMIN_PASSWORD:-admin-$(head -c 12 /dev/urandom | base64 | tr -d '/+=')}"
  export JWT_SECRET=${JWT_SECRET:-$(head -c 32 /dev/urandom | base64 | tr -d '/+=')}
  export PUBLIC_URL=$BFF_URL
  # Every call of a test comes from 127.0.0.1: the hourly SMS budgets are raised, as the
  # texts only reach the outbox file.
  export SMS_BUDGET_PER_HOUR=${SMS_BUDGET_PER_HOUR:-10000} \
    SMS_BUDGET_PER_ADDRESS_PER_HOUR=${SMS_BUDGET_PER_ADDRESS_PER_HOUR:-10000} \
    SMS_BUDGET_PER_COUNTRY_PER_HOUR=${SMS_BUDGET_PER_COUNTRY_PER_HOUR:-10000}
  # Replica a applies the migrations and creates the admin before b starts.
  ADMIN_EMAIL=$ADMIN_EMAIL ADMIN_PASSWORD=$ADMIN_PASSWORD start_server a
  start_server b

  local servers=() name
  for name in ${CLUSTER_BFF_SERVERS//,/ }; do
    name="SERVER_$(echo "$name" | tr '[:lower:]' '[:upper:]')_GRPC"
    servers+=("http://${!name}")
  done
  BFF_ADDR=127.0.0.1:$bff_port SERVER_URL=$(IFS=,; echo "${servers[*]}") \
    FILES_URL=http://$SERVER_A_HTTP,http://$SERVER_B_HTTP WEB_DIST=web/dist \
    launch BFF "$CLUSTER_DIR/bff.log" "$BIN/repairs-bff"
  wait_healthy "the BFF" "$bff_port" /healthz "$BFF_PID" "$CLUSTER_DIR/bff.log"
  trap - ERR
  cat <<EOF
The cluster runs ($PROFILE binaries; logs and state in $CLUSTER_DIR):
  BFF        $BFF_URL   (admin: $ADMIN_EMAIL, password in $STATE)
  server a   grpc $SERVER_A_GRPC   http $SERVER_A_HTTP
  server b   grpc $SERVER_B_GRPC   http $SERVER_B_HTTP
  Postgres   $DATABASE_URL
  Redis      $REDIS_URL
  S3         $AWS_ENDPOINT_URL   bucket $FILES_BUCKET
Stop it with: scripts/cluster.sh stop
EOF
}

# Stops the processes (SIGTERM, then SIGKILL after 10 s) and waits for them to end.
stop_pids() { # pid...
  local pid
  for pid in "$@"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 100); do
    local running=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && running=1; done
    [ "$running" = 0 ] && return 0
    sleep 0.1
  done
  for pid in "$@"; do kill -KILL "$pid" 2>/dev/null || true; done
}

stop() {
  trap - ERR
  [ -f "$STATE" ] || { echo "no cluster runs from $CLUSTER_DIR"; return 0; }
  local BFF_PID='' SERVER_A_PID='' SERVER_B_PID='' S3_PID=''
  # shellcheck disable=SC1090
  source "$STATE"
  # The BFF and the replicas first (they drain), then what they use.
  # shellcheck disable=SC2086 # the ids of those that were started
  stop_pids $BFF_PID $SERVER_A_PID $SERVER_B_PID
  stop_test_redis &
  stop_pids "$S3_PID" &
  stop_test_postgres
  wait
  rm -f "$STATE"
  echo "the cluster of $CLUSTER_DIR is stopped"
}

command=${1:-}
shift || true
while [ $# -gt 0 ]; do
  case $1 in
    --debug) PROFILE=debug ;;
    --release) PROFILE=release ;;
    --restore) RESTORE=$(cd "${2:?--restore needs a backup folder}" && pwd); shift ;;
    -h | --help) usage ;;
    *) echo "unknown option $1" >&2; usage 1 >&2 ;;
  esac
  shift
done
case $command in
  start) start ;;
  stop) stop ;;
  -h | --help | help) usage ;;
  *) usage 1 >&2 ;;
esac
