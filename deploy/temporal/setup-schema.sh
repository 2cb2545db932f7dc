#!/bin/sh
# One-shot (temporalio/admin-tools): creates Temporal's two PostgreSQL databases and brings their schemas
# up to date. Safe to run on every `docker compose up`.
set -eu
: "${POSTGRES_SEEDS:=postgres}" "${DB_PORT:=5432}" "${POSTGRES_USER:=portal}"
: "${SQL_PASSWORD:?SQL_PASSWORD must be set}"
export SQL_PASSWORD
schema=/etc/temporal/schema/postgresql/v12

until nc -z "$POSTGRES_SEEDS" "$DB_PORT"; do
  echo "waiting for PostgreSQL at $POSTGRES_SEEDS:$DB_PORT"
  sleep 2
done
for db in temporal temporal_visibility; do
  case "$db" in temporal) dir=temporal ;; *) dir=visibility ;; esac
  tool="temporal-sql-tool --plugin postgres12 --ep $POSTGRES_SEEDS -p $DB_PORT -u $POSTGRES_USER --db $db"
  $tool create || echo "database $db exists"
  $tool setup-schema -v 0.0
  $tool update-schema -d "$schema/$dir/versioned"
done
echo "Temporal schemas are up to date"
