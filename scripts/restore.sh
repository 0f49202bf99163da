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
[ -f "$from/database.dump" ] || { echo "$from holds no database.dump" >&2; exit 1; }
: "${DATABASE_URL:?set DATABASE_URL to the database to restore into}"
if [ -n "${FILES_BUCKET:-}" ] && [ ! -d "$from/bucket" ]; then
  echo "$from holds the local folder's files: restore it with FILES_BUCKET unset (DATA_DIR)" >&2
  exit 1
fi
if [ -z "${FILES_BUCKET:-}" ] && [ ! -d "$from/files" ]; then
  echo "$from holds a bucket's files: restore it with FILES_BUCKET set" >&2
  exit 1
fi

# earthdistance's SQL functions name `earth` and cube's functions without a schema, and
# pg_restore runs with an empty search_path: the generated points (ll_to_earth) and the
# matching indexes would fail to compute. Their search_path is set while the rows and indexes
# go in, and reset after (a function with a SET clause is not inlined into queries).
earth_functions() { # set|reset
  "$(pg_bin_dir)/psql" -q -v ON_ERROR_STOP=1 "$DATABASE_URL" <<SQL
do \$\$
declare
  f regprocedure;
begin
  for f in
    select p.oid::regprocedure
    from pg_proc p
    join pg_depend d on d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e'
    join pg_extension e on e.oid = d.refobjid and e.extname = 'earthdistance'
    where p.prolang = (select oid from pg_language where lanname = 'sql')
  loop
    if '$1' = 'set' then
      execute format('alter function %s set search_path = %I, %I', f,
        (select extnamespace::regnamespace::text from pg_extension where extname = 'earthdistance'),
        (select extnamespace::regnamespace::text from pg_extension where extname = 'cube'));
    else
      execute format('alter function %s reset search_path', f);
    end if;
  end loop;
end
\$\$;
SQL
}

# The extensions first (they are created with IF NOT EXISTS), then everything else in one
# transaction, with earthdistance's search_path set in between.
toc=$(mktemp -d)
trap 'rm -rf "$toc"' EXIT
"$(pg_bin_dir)/pg_restore" --list "$from/database.dump" >"$toc/all"
grep -E '^[0-9]+; 3079 [0-9]+ EXTENSION ' "$toc/all" >"$toc/extensions"
grep -vE '^[0-9]+; 3079 [0-9]+ EXTENSION ' "$toc/all" >"$toc/rest"
restore_listed() { # list
  "$(pg_bin_dir)/pg_restore" --no-owner --no-privileges --exit-on-error --single-transaction \
    --use-list="$1" --dbname="$DATABASE_URL" "$from/database.dump"
}
restore_listed "$toc/extensions"
earth_functions set
restore_listed "$toc/rest"
earth_functions reset
echo "database restored into ${DATABASE_URL%%\?*}" | sed -E 's#//[^@/]*@#//#'

if [ -n "${FILES_BUCKET:-}" ]; then
  files_bucket create "$FILES_BUCKET"
  files_bucket upload "$from/bucket" "$FILES_BUCKET"
else
  mkdir -p "${DATA_DIR:-./data}/files"
  cp -a "$from/files/." "${DATA_DIR:-./data}/files/"
  echo "$(find "$from/files" -type f | wc -l) files copied into ${DATA_DIR:-./data}/files"
fi
