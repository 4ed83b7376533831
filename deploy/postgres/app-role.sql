-- The application's own login: not a superuser, creates no roles or databases, and owns one database,
-- where it creates its tables, so a flaw in the app cannot reach the cluster beyond it
-- (docs/decisions/062). psql variables: app_user, app_password, app_database.
CREATE ROLE :"app_user" LOGIN PASSWORD :'app_password'
  NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
CREATE DATABASE :"app_database" OWNER :"app_user";
REVOKE ALL ON DATABASE :"app_database" FROM PUBLIC;
