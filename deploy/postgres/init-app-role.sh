#!/bin/sh
# Runs once, when PostgreSQL's data volume is first initialised (/docker-entrypoint-initdb.d), as the
# superuser POSTGRES_USER: creates the application's role and database (app-role.sql).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  --set=app_user="$APP_DB_USER" --set=app_password="$APP_DB_PASSWORD" --set=app_database="$APP_DB_NAME" \
  --file=/etc/tribute/app-role.sql
