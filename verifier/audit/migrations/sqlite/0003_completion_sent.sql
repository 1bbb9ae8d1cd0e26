-- 0003: what a completed attempt sent, when only the call itself knew it
-- (a browser door: the live page adds its own tokens and fields). No row:
-- the request recorded when the attempt began is what was sent. A table of
-- its own, append-only like the rest, rather than a column added to
-- completions.
CREATE TABLE completion_sent (
	attempt_id TEXT PRIMARY KEY REFERENCES attempts (id),
	sent       BLOB NOT NULL
);
CREATE TRIGGER completion_sent_no_update BEFORE UPDATE ON completion_sent BEGIN SELECT RAISE(ABORT, 'audit: completion_sent is append-only'); END;
CREATE TRIGGER completion_sent_no_delete BEFORE DELETE ON completion_sent BEGIN SELECT RAISE(ABORT, 'audit: completion_sent is append-only'); END;
