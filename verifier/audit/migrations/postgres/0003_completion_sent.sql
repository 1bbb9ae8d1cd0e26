-- 0003: what a completed attempt sent, when only the call itself knew it
-- (a browser door: the live page adds its own tokens and fields). No row:
-- the request recorded when the attempt began is what was sent. A table of
-- its own, append-only like the rest, rather than a column added to
-- completions.
CREATE TABLE completion_sent (
	attempt_id TEXT PRIMARY KEY REFERENCES attempts (id),
	sent       BYTEA NOT NULL
);
CREATE TRIGGER completion_sent_append_only BEFORE UPDATE OR DELETE ON completion_sent FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER completion_sent_no_truncate BEFORE TRUNCATE ON completion_sent FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
