#!/bin/sh
# The primary's first start (compose.yaml, service postgres): the postgres
# image runs the scripts in /docker-entrypoint-initdb.d once, after initdb,
# with a server that only listens on its socket. This one adds the role the
# replica copies and streams with, and lets it connect for replication from
# the compose network ("samenet": any address on a subnet this server is on).
# Later starts find the data folder and skip it.
set -e

psql --no-psqlrc --set=ON_ERROR_STOP=1 --username="$POSTGRES_USER" --dbname="$POSTGRES_DB" \
  --set=password="$REPLICATION_PASSWORD" <<'SQL'
create role replicator with replication login password :'password';
SQL

echo 'host replication replicator samenet scram-sha-256' >> "$PGDATA/pg_hba.conf"
