#!/bin/sh
# Run once by the postgres image, on an empty data directory (/docker-entrypoint-initdb.d):
# deploy/postgres-setup.sql with the App's role and database, the role's password read from
# the Compose secret postgres-app-password. The server listens on its Unix socket only here.
set -eu
psql -X -q --username "$POSTGRES_USER" --dbname postgres \
  -v role=envelope_gate -v database=envelope_gate \
  -v password="$(cat /run/secrets/postgres-app-password)" \
  -f /opt/envelope-gate/postgres-setup.sql
