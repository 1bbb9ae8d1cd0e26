-- 0002: the database itself refuses to change or remove a record (SQLite).
-- The store never updates or deletes; these triggers make any other client
-- (a script, a person with the sqlite3 shell) fail the same way. The phrases
-- "BEFORE UPDATE ON" / "BEFORE DELETE ON" are the only ones the append-only
-- source test allows: they declare triggers, they change nothing.
CREATE TRIGGER confirmations_no_update BEFORE UPDATE ON confirmations BEGIN SELECT RAISE(ABORT, 'audit: confirmations is append-only'); END;
CREATE TRIGGER confirmations_no_delete BEFORE DELETE ON confirmations BEGIN SELECT RAISE(ABORT, 'audit: confirmations is append-only'); END;
CREATE TRIGGER revocations_no_update BEFORE UPDATE ON revocations BEGIN SELECT RAISE(ABORT, 'audit: revocations is append-only'); END;
CREATE TRIGGER revocations_no_delete BEFORE DELETE ON revocations BEGIN SELECT RAISE(ABORT, 'audit: revocations is append-only'); END;
CREATE TRIGGER attempts_no_update BEFORE UPDATE ON attempts BEGIN SELECT RAISE(ABORT, 'audit: attempts is append-only'); END;
CREATE TRIGGER attempts_no_delete BEFORE DELETE ON attempts BEGIN SELECT RAISE(ABORT, 'audit: attempts is append-only'); END;
CREATE TRIGGER completions_no_update BEFORE UPDATE ON completions BEGIN SELECT RAISE(ABORT, 'audit: completions is append-only'); END;
CREATE TRIGGER completions_no_delete BEFORE DELETE ON completions BEGIN SELECT RAISE(ABORT, 'audit: completions is append-only'); END;
CREATE TRIGGER abandonments_no_update BEFORE UPDATE ON abandonments BEGIN SELECT RAISE(ABORT, 'audit: abandonments is append-only'); END;
CREATE TRIGGER abandonments_no_delete BEFORE DELETE ON abandonments BEGIN SELECT RAISE(ABORT, 'audit: abandonments is append-only'); END;
CREATE TRIGGER refusals_no_update BEFORE UPDATE ON refusals BEGIN SELECT RAISE(ABORT, 'audit: refusals is append-only'); END;
CREATE TRIGGER refusals_no_delete BEFORE DELETE ON refusals BEGIN SELECT RAISE(ABORT, 'audit: refusals is append-only'); END;
CREATE TRIGGER notifications_no_update BEFORE UPDATE ON notifications BEGIN SELECT RAISE(ABORT, 'audit: notifications is append-only'); END;
CREATE TRIGGER notifications_no_delete BEFORE DELETE ON notifications BEGIN SELECT RAISE(ABORT, 'audit: notifications is append-only'); END;
