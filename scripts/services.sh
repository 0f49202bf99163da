# Throwaway Postgres and Redis on 127.0.0.1 for tests. Sourced by scripts/test.sh.
# Each is started in a temporary folder and stopped by its process id on exit.
# Also how the scripts that start the product stop it (stop_product).

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Postgres refuses to run as root: as root, run its tools as the postgres user.
pg_run() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_bin_dir() {
  if [ -n "${PG_BIN_DIR:-}" ]; then echo "$PG_BIN_DIR"; return; fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$dir" ]; then echo "$dir"; else dirname "$(command -v pg_ctl)"; fi
}

start_test_postgres() {
  local bin port dir
  bin=$(pg_bin_dir)
  port=$(free_port)
  dir=$(mktemp -d /tmp/repairs-test-pg.XXXXXX)
  chmod 755 "$dir"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
  pg_run "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1
  pg_run "$bin/pg_ctl" start -w -D "$dir/data" -l "$dir/postgres.log" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" >/dev/null
  TEST_PG_DIR=$dir
  TEST_PG_PID=$(head -n 1 "$dir/data/postmaster.pid")
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
}

stop_test_postgres() {
  if [ -n "${TEST_PG_PID:-}" ]; then
    kill -INT "$TEST_PG_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$TEST_PG_PID" 2>/dev/null || break; sleep 0.2; done
    rm -rf "$TEST_PG_DIR"
    TEST_PG_PID=
  fi
}

start_test_redis() {
  local port dir
  port=$(free_port)
  dir=$(mktemp -d /tmp/repairs-test-redis.XXXXXX)
  redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --dir "$dir"
  for _ in $(seq 1 50); do [ -s "$dir/redis.pid" ] && break; sleep 0.1; done
  TEST_REDIS_DIR=$dir
  TEST_REDIS_PID=$(cat "$dir/redis.pid")
  export TEST_REDIS_URL="redis://127.0.0.1:$port"
}

stop_test_redis() {
  if [ -n "${TEST_REDIS_PID:-}" ]; then
    kill "$TEST_REDIS_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$TEST_REDIS_PID" 2>/dev/null || break; sleep 0.1; done
    rm -rf "$TEST_REDIS_DIR"
    TEST_REDIS_PID=
  fi
}

# Stops a BFF and a server this shell started in the background (`stop_product BFF_PID
# SERVER_PID`; either may be empty): the server last, waited for, since an embedded one stops
# its Postgres cluster on the way out.
stop_product() {
  [ -n "$1" ] && kill "$1" 2>/dev/null
  if [ -n "$2" ]; then
    kill "$2" 2>/dev/null
    wait "$2" 2>/dev/null
  fi
  return 0
}
