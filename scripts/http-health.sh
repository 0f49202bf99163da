#!/usr/bin/env bash
# Exits 0 when http://127.0.0.1:PORT/PATH answers 200, 1 otherwise: the images' health check
# (they carry no curl) and what scripts/cluster.sh waits on. Plain bash, through /dev/tcp.
#
#   http-health.sh 50052 /healthz
set -uo pipefail
port=${1:?usage: http-health.sh PORT PATH [HOST]}
path=${2:-/healthz}
host=${3:-127.0.0.1}
exec 3<>"/dev/tcp/$host/$port" || exit 1
printf 'GET %s HTTP/1.1\r\nHost: %s:%s\r\nConnection: close\r\n\r\n' "$path" "$host" "$port" >&3
read -r -t 5 _ status _ <&3 || exit 1
[ "$status" = 200 ]
