-- 0006: the schema's history is a record too (PostgreSQL). A row deleted
-- from schema_migrations made Open apply that migration again over the
-- tables it had made, which failed on every Open after; a row rewritten
-- would name another history. The database refuses both, and TRUNCATE, as
-- it does for the records (audit_append_only is 0002's).
CREATE TRIGGER schema_migrations_append_only BEFORE UPDATE OR DELETE ON schema_migrations FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER schema_migrations_no_truncate BEFORE TRUNCATE ON schema_migrations FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
