#!/usr/bin/env bash
# Restores a copy made by scripts/backup.sh into the database of DATABASE_URL and the files'
# place (the S3 bucket of FILES_BUCKET, made when missing; otherwise DATA_DIR/files).
#
#   DATABASE_URL=... FILES_BUCKET=... AWS_...=... scripts/restore.sh /backups/repairs-2026-11-26
#   scripts/cluster.sh start --restore /backups/repairs-2026-11-26      # a fresh cluster from it
#
# Restore into an empty database with no server running (scale the Deployments to 0, or
# before `cluster.sh start` starts them): the servers then find their migrations applied.
# Objects whose key exists are overwritten; nothing else in the bucket is removed. A copy of
# the local folder restores into a local folder, a bucket's into a bucket.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
source scripts/deploy-tools.sh

from=${1:?usage: scripts/restore.sh BACKUP_DIR}
: "${DATABASE_URL:?set DATABASE_URL to the database to restore into}"
[ -f "$from/database.dump" ] || { echo "$from holds no database.dump" >&2; exit 1; }
if [ -n "${FILES_BUCKET:-}" ] && [ ! -d "$from/bucket" ]; then
  echo "$from holds the local folder's files: restore it with FILES_BUCKET unset (DATA_DIR)" >&2
  exit 1
fi
if [ -z "${FILES_BUCKET:-}" ] && [ ! -d "$from/files" ]; then
  echo "$from holds a bucket's files: restore it with FILES_BUCKET set" >&2
  exit 1
fi

"$(pg_bin_dir)/pg_restore" --no-owner --no-privileges --exit-on-error --single-transaction \
  --dbname="$DATABASE_URL" "$from/database.dump"
echo "database restored into ${DATABASE_URL%%\?*}" | sed -E 's#//[^@/]*@#//#'

if [ -n "${FILES_BUCKET:-}" ]; then
  install_deploy_tools
  "$DEPLOY_VENV/bin/python" scripts/files_bucket.py create "$FILES_BUCKET"
  "$DEPLOY_VENV/bin/python" scripts/files_bucket.py upload "$from/bucket" "$FILES_BUCKET"
else
  mkdir -p "${DATA_DIR:-./data}/files"
  cp -a "$from/files/." "${DATA_DIR:-./data}/files/"
  echo "$(find "$from/files" -type f | wc -l) files copied into ${DATA_DIR:-./data}/files"
fi
