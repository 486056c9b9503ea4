-- PostgreSQL for the envelope-gate App (docs/app.md, "PostgreSQL"). Run once, as a superuser
-- (or a role with CREATEROLE and CREATEDB), with psql:
--
--   psql "host=db.internal user=postgres dbname=postgres" \
--     -v role=envelope_gate -v database=envelope_gate -v password="$(cat pg-password)" \
--     -f deploy/postgres-setup.sql
--
-- It makes one login role that owns one database, and nothing more. The App migrates its own
-- schema at start (src/store/migrations.ts): CREATE SCHEMA IF NOT EXISTS (the schema is
-- ENVELOPE_GATE_PG_SCHEMA, default public), CREATE TABLE, CREATE [UNIQUE] INDEX, ALTER TABLE,
-- DROP TABLE of its own tables, INSERT and UPDATE, under pg_advisory_xact_lock. Owning the
-- database gives exactly that: CONNECT, CREATE (schemas) and, on PostgreSQL 15 and later, the
-- public schema (owned by pg_database_owner). The role is no superuser and cannot create
-- databases or roles, replicate, or bypass row security.
\set ON_ERROR_STOP on

CREATE ROLE :"role" LOGIN PASSWORD :'password'
  NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;

CREATE DATABASE :"database" OWNER :"role" ENCODING 'UTF8' TEMPLATE template0;

-- Nobody else may connect to it or create in it (PUBLIC gets CONNECT and TEMP by default).
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
GRANT CONNECT, CREATE, TEMPORARY ON DATABASE :"database" TO :"role";

\connect :"database"
-- Before PostgreSQL 15 every role could create in public; from 15 on only its owner can.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
ALTER SCHEMA public OWNER TO :"role";
