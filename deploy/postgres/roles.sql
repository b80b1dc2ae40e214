-- The event calendar API's two PostgreSQL roles (docs/operating.md, "Database roles (least privilege)").
--
-- Run once by a DBA (a superuser: it creates roles and extensions), with psql, connected to the
-- calendar's database:
--
--   psql -v owner=calendar_owner -v serving=calendar_serve -v schema=calendar \
--        -d 'postgres://postgres@db.example:5432/calendar' -f deploy/postgres/roles.sql
--
-- psql variables (-v name=value), each optional:
--   owner    the owning role (default calendar_owner): owns the schema and every table in it; runs
--            `calendar migrate`, `calendar import`, `calendar seed`, `calendar keys`, `calendar usage`.
--   serving  the serving role (default calendar_serve): runs `calendar serve` with MIGRATE=off.
--   schema   the schema that holds the calendar, DATABASE_SCHEMA (default calendar).
--
-- Running it again changes nothing: what exists is left as it is (an existing schema is given to the owner).
--
-- The serving role gets nothing in the schema here. `calendar migrate`, run as the owner with
-- DATABASE_SERVING_ROLE=<serving>, grants it what serving needs (src/db/grant-serving-role.ts) at the end
-- of every run, so the tables of later migrations are granted with them.
--
-- No passwords here. Set them in psql, which sends only a hash (or use certificates; pg_hba.conf decides):
--   \password calendar_owner
--   \password calendar_serve

\set ON_ERROR_STOP on
\if :{?owner}
\else
  \set owner calendar_owner
\endif
\if :{?serving}
\else
  \set serving calendar_serve
\endif
\if :{?schema}
\else
  \set schema calendar
\endif

-- Two roles, or the serving one would own what it must not change.
select format('do $$ begin raise exception %L; end $$', 'roles.sql: owner and serving must be two different roles') where :'owner' = :'serving' \gexec

-- Login roles without any attribute (CREATE ROLE's defaults: no superuser, no CREATEDB, no CREATEROLE).
select format('create role %I login', :'owner') where not exists (select from pg_roles where rolname = :'owner') \gexec
select format('create role %I login', :'serving') where not exists (select from pg_roles where rolname = :'serving') \gexec

-- PUBLIC may connect and make temporary tables by default; granted by name all the same, for a database
-- where that was revoked. Imports keep events that wait for their venue in a temporary table.
grant connect, temporary on database :"DBNAME" to :"owner";
grant connect on database :"DBNAME" to :"serving";

-- The first migration's extensions (searchTerm and suggest's matching). It creates them when they are
-- missing, which needs more than the owner may (CREATE on the database); made here, they are only found.
create extension if not exists pg_trgm with schema public;
create extension if not exists unaccent with schema public;
create extension if not exists fuzzystrmatch with schema public;

-- The schema, the owner's: it creates the tables in it. The owner needs no CREATE on the database
-- (a process that finds the schema does not try to create it).
create schema if not exists :"schema" authorization :"owner";
alter schema :"schema" owner to :"owner";

-- Before PostgreSQL 15 every role could create objects in schema public (a database upgraded from one
-- still can): the serving role could make tables there. A no-op where that is already revoked.
revoke create on schema public from public;
