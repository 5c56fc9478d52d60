#!/bin/sh
# What the official image's entrypoint does, for the variables compose.yaml sets: a cluster in PGDATA with the
# superuser POSTGRES_USER (password POSTGRES_PASSWORD) and the database POSTGRES_DB, made on the first start only.
set -eu
port="${POSTGRES_PORT:-5432}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth=scram-sha-256 --encoding=UTF8 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  echo "CREATE DATABASE \"$POSTGRES_DB\";" | postgres --single -D "$PGDATA" postgres >/dev/null
fi
exec postgres -D "$PGDATA" -p "$port" -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp
