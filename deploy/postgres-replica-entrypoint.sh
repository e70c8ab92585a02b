#!/bin/sh
# The replica's entrypoint (compose.yaml, service postgres-replica). On the
# first start, with an empty data folder, it waits for the primary and copies
# it with pg_basebackup -R, which also writes standby.signal and the
# connection to stream from (primary_conninfo, in postgresql.auto.conf). Then,
# on every start, it hands over to the image's own entrypoint, which finds the
# data folder and starts Postgres as a hot standby: read-only, streaming.
set -eu

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 0700 "$PGDATA"
  echo "replica: waiting for the primary at $PRIMARY_HOST"
  until pg_isready --quiet --host="$PRIMARY_HOST"; do sleep 1; done
  echo "replica: copying the primary"
  # On failure pg_basebackup empties the folder again, so the next start retries.
  PGPASSWORD="$REPLICATION_PASSWORD" gosu postgres pg_basebackup \
    --host="$PRIMARY_HOST" --username=replicator --no-password \
    --pgdata="$PGDATA" --wal-method=stream --checkpoint=fast --write-recovery-conf
fi

exec docker-entrypoint.sh "$@"
