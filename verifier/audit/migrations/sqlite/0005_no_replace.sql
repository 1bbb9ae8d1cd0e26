-- 0005: an insert that would take a record's place is dropped (SQLite).
-- SQLite's REPLACE conflict resolution (INSERT OR REPLACE, REPLACE INTO,
-- and an INSERT into a table whose key was declared ON CONFLICT REPLACE)
-- deletes the row in the way without firing its delete trigger unless the
-- connection turned recursive_triggers on, so the triggers of 0002-0004 let
-- any client rewrite a record that way: forge a confirmation's digest, move
-- a revocation off its confirmation, turn a fired attempt into a failed one.
-- Before each row is inserted, these triggers drop it (RAISE(IGNORE): the
-- statement goes on, the row is not written) when a record already holds its
-- key. The store's own inserts that may meet their key (ON CONFLICT DO
-- NOTHING) do just that already; an INTEGER PRIMARY KEY the insert does not
-- give is never an existing row's.

CREATE TRIGGER confirmations_no_replace BEFORE INSERT ON confirmations WHEN EXISTS (SELECT 1 FROM confirmations WHERE ref = NEW.ref) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER revocations_no_replace BEFORE INSERT ON revocations WHEN EXISTS (SELECT 1 FROM revocations WHERE id = NEW.id) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER attempts_no_replace BEFORE INSERT ON attempts WHEN EXISTS (SELECT 1 FROM attempts WHERE id = NEW.id OR (action_id = NEW.action_id AND idempotency_key = NEW.idempotency_key)) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER completions_no_replace BEFORE INSERT ON completions WHEN EXISTS (SELECT 1 FROM completions WHERE attempt_id = NEW.attempt_id) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER completion_sent_no_replace BEFORE INSERT ON completion_sent WHEN EXISTS (SELECT 1 FROM completion_sent WHERE attempt_id = NEW.attempt_id) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER abandonments_no_replace BEFORE INSERT ON abandonments WHEN EXISTS (SELECT 1 FROM abandonments WHERE attempt_id = NEW.attempt_id) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER refusals_no_replace BEFORE INSERT ON refusals WHEN EXISTS (SELECT 1 FROM refusals WHERE id = NEW.id) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER notifications_no_replace BEFORE INSERT ON notifications WHEN EXISTS (SELECT 1 FROM notifications WHERE id = NEW.id) BEGIN SELECT RAISE(IGNORE); END;
CREATE TRIGGER heartbeats_no_replace BEFORE INSERT ON heartbeats WHEN EXISTS (SELECT 1 FROM heartbeats WHERE id = NEW.id) BEGIN SELECT RAISE(IGNORE); END;
