-- 0006: the schema's history is a record too (SQLite). A row deleted from
-- schema_migrations made Open apply that migration again over the tables it
-- had made, which failed on every Open after; a row rewritten or replaced
-- (REPLACE deletes without a delete trigger, see 0005) would name another
-- history. The database refuses both, as it does for the records.
CREATE TRIGGER schema_migrations_no_update BEFORE UPDATE ON schema_migrations BEGIN SELECT RAISE(ABORT, 'audit: schema_migrations is append-only'); END;
CREATE TRIGGER schema_migrations_no_delete BEFORE DELETE ON schema_migrations BEGIN SELECT RAISE(ABORT, 'audit: schema_migrations is append-only'); END;
CREATE TRIGGER schema_migrations_no_replace BEFORE INSERT ON schema_migrations WHEN EXISTS (SELECT 1 FROM schema_migrations WHERE version = NEW.version) BEGIN SELECT RAISE(IGNORE); END;
