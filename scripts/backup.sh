#!/usr/bin/env bash
# Backs up what the product keeps: the Postgres database (pg_dump, custom format) and the
# files (licences, photos, icons): the S3 bucket when FILES_BUCKET is set, otherwise the local
# folder DATA_DIR/files. Redis holds nothing that must survive (phone codes, cached values).
#
#   DATABASE_URL=... FILES_BUCKET=... AWS_...=... scripts/backup.sh /backups/repairs-$(date -u +%F)
#   (set -a; source target/cluster/cluster.env; scripts/backup.sh /tmp/backup)   # a cluster's
#
# Writes into the folder given (made; refused when it holds anything): database.dump, then
# bucket/ (objects/ and objects.json, with each object's content type) or files/, and
# backup.txt (what was copied, when). The database is dumped first, so every file it names
# was uploaded before the files are copied. pg_dump is the machine's (PG_BIN_DIR, or the
# newest /usr/lib/postgresql/*/bin): it must be at least the server's version.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
source scripts/deploy-tools.sh

out=${1:?usage: scripts/backup.sh BACKUP_DIR}
: "${DATABASE_URL:?set DATABASE_URL (the embedded default: back up DATA_DIR whole with the server stopped)}"
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "$out is not empty: give a new folder" >&2
  exit 1
fi
mkdir -p "$out"
started=$(date -u +%FT%TZ)

"$(pg_bin_dir)/pg_dump" --format=custom --no-owner --no-privileges --file="$out/database.dump" "$DATABASE_URL"

if [ -n "${FILES_BUCKET:-}" ]; then
  files=$(files_bucket download "$FILES_BUCKET" "$out/bucket")
else
  mkdir -p "$out/files"
  [ -d "${DATA_DIR:-./data}/files" ] && cp -a "${DATA_DIR:-./data}/files/." "$out/files/"
  files="$(find "$out/files" -type f | wc -l) files copied from ${DATA_DIR:-./data}/files"
fi

cat >"$out/backup.txt" <<TEXT
started: $started
finished: $(date -u +%FT%TZ)
database: $(du -h "$out/database.dump" | cut -f1) (pg_dump $("$(pg_bin_dir)/pg_dump" --version | awk '{print $NF}'))
files: $files
TEXT
cat "$out/backup.txt"
