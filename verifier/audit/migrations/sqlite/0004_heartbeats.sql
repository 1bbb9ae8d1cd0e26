-- 0004: the executor instances' heartbeats (SQLite). An instance with
-- attempts in flight records, now and then, that it is alive and until when
-- it is to be taken for alive (until_ns: its lease); RecoverAbandoned marks
-- another instance's attempts outcome unknown only once none of its leases
-- lasts. A row per heartbeat, append-only like the rest: an instance is
-- alive at a time when any of its rows lasts past it. An instance without
-- a row (an older binary) is taken for dead, as before.
CREATE TABLE heartbeats (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	instance    TEXT NOT NULL,
	seen_ns     INTEGER NOT NULL,
	until_ns    INTEGER NOT NULL,
	recorded_ns INTEGER NOT NULL
);
-- Whether an instance holds a lease at a time; which leases ran out in a
-- window (a recovery run often looks at those instances only).
CREATE INDEX heartbeats_instance ON heartbeats (instance, until_ns);
CREATE INDEX heartbeats_until ON heartbeats (until_ns);
-- An instance's attempts, for that recovery.
CREATE INDEX attempts_instance ON attempts (instance);
CREATE TRIGGER heartbeats_no_update BEFORE UPDATE ON heartbeats BEGIN SELECT RAISE(ABORT, 'audit: heartbeats is append-only'); END;
CREATE TRIGGER heartbeats_no_delete BEFORE DELETE ON heartbeats BEGIN SELECT RAISE(ABORT, 'audit: heartbeats is append-only'); END;
