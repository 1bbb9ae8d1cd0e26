-- 0001: the audit store's tables (PostgreSQL). Every table is append-only: the
-- store's code only ever INSERTs and SELECTs. Times are Unix nanoseconds
-- (UTC) so that SQLite and PostgreSQL compare and round-trip them alike;
-- confirmed_at is kept as the exact RFC 3339 text the confirmation states.

CREATE TABLE confirmations (
	ref          TEXT PRIMARY KEY,
	graph_id     TEXT NOT NULL,
	action_id    TEXT NOT NULL,
	confirmed_by TEXT NOT NULL,
	confirmed_at TEXT NOT NULL,
	method       TEXT NOT NULL,
	digest       TEXT NOT NULL,
	subject      BYTEA NOT NULL,
	recorded_ns  BIGINT NOT NULL
);
CREATE INDEX confirmations_action ON confirmations (action_id, recorded_ns);

CREATE TABLE revocations (
	id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	ref         TEXT NOT NULL REFERENCES confirmations (ref),
	revoked_by  TEXT NOT NULL,
	revoked_ns  BIGINT NOT NULL,
	reason      TEXT NOT NULL,
	recorded_ns BIGINT NOT NULL
);
CREATE INDEX revocations_ref ON revocations (ref);

CREATE TABLE attempts (
	id              TEXT PRIMARY KEY,
	action_id       TEXT NOT NULL,
	audit_ref       TEXT NOT NULL,
	idempotency_key TEXT,
	cap_max         BIGINT NOT NULL,
	cap_per         TEXT NOT NULL,
	request         BYTEA NOT NULL,
	begun_ns        BIGINT NOT NULL,
	instance        TEXT NOT NULL,
	recorded_ns     BIGINT NOT NULL,
	UNIQUE (action_id, idempotency_key)
);
CREATE INDEX attempts_window ON attempts (action_id, begun_ns);

CREATE TABLE completions (
	attempt_id  TEXT PRIMARY KEY REFERENCES attempts (id),
	outcome     TEXT NOT NULL,
	status      BIGINT NOT NULL,
	response    BYTEA NOT NULL,
	error       TEXT NOT NULL,
	at_ns       BIGINT NOT NULL,
	recorded_ns BIGINT NOT NULL
);

CREATE TABLE abandonments (
	attempt_id  TEXT PRIMARY KEY REFERENCES attempts (id),
	instance    TEXT NOT NULL,
	recorded_ns BIGINT NOT NULL
);

CREATE TABLE refusals (
	id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	action_id       TEXT NOT NULL,
	idempotency_key TEXT NOT NULL,
	kind            TEXT NOT NULL,
	reasons         TEXT NOT NULL,
	at_ns           BIGINT NOT NULL,
	recorded_ns     BIGINT NOT NULL
);
CREATE INDEX refusals_action ON refusals (action_id, id);

CREATE TABLE notifications (
	id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	attempt_id  TEXT NOT NULL REFERENCES attempts (id),
	try         BIGINT NOT NULL,
	status      BIGINT NOT NULL,
	error       TEXT NOT NULL,
	at_ns       BIGINT NOT NULL,
	recorded_ns BIGINT NOT NULL
);
CREATE INDEX notifications_attempt ON notifications (attempt_id, id);
