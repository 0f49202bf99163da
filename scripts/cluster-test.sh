#!/usr/bin/env bash
# The cluster test (`make test` runs it): starts scripts/cluster.sh's cluster from
# target/debug's binaries in a folder of its own, runs web/cluster/ (Vitest, Node) against it:
# across the two replicas, then a backup restored into a fresh cluster; and stops whatever
# runs at the end. Needs the debug build and web's packages and generated code:
#
#   cargo build -p repairs-server -p repairs-bff && (cd web && npm ci && npm run generate)
#   scripts/cluster-test.sh
#
# CLUSTER_PROFILE=release tests the release build instead. Exits with Vitest's status; its
# last line is `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

own_dir=
if [ -z "${CLUSTER_DIR:-}" ]; then
  CLUSTER_DIR=$(mktemp -d /tmp/repairs-cluster.XXXXXX)
  own_dir=1
fi
export CLUSTER_DIR
export CLUSTER_PROFILE=${CLUSTER_PROFILE:-debug}

# shellcheck disable=SC2329 # run by the EXIT trap
finish() {
  bash scripts/cluster.sh stop >/dev/null
  [ -n "$own_dir" ] && rm -rf "$CLUSTER_DIR"
}
trap finish EXIT

started=$(date +%s)
bash scripts/cluster.sh start || exit 1
echo "cluster started in $(($(date +%s) - started)) s"
(cd web && CLUSTER_ENV="$CLUSTER_DIR/cluster.env" npx vitest run --config cluster/vitest.config.ts "$@")
status=$?
if [ "$status" -ne 0 ]; then
  for log in "$CLUSTER_DIR"/server-a.log "$CLUSTER_DIR"/server-b.log "$CLUSTER_DIR"/bff.log; do
    echo "--- $log"
    tail -n 20 "$log"
  done
fi
exit "$status"
