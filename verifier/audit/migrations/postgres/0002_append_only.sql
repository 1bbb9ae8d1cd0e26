-- 0002: the database itself refuses to change or remove a record (PostgreSQL).
-- The store never updates, deletes or truncates; these triggers make any
-- other client fail the same way. The phrases "BEFORE UPDATE OR DELETE ON" /
-- "BEFORE TRUNCATE ON" are the only ones the append-only source test allows:
-- they declare triggers, they change nothing.
CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
	RAISE EXCEPTION 'audit: % is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$fn$;
CREATE TRIGGER confirmations_append_only BEFORE UPDATE OR DELETE ON confirmations FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER confirmations_no_truncate BEFORE TRUNCATE ON confirmations FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER revocations_append_only BEFORE UPDATE OR DELETE ON revocations FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER revocations_no_truncate BEFORE TRUNCATE ON revocations FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER attempts_append_only BEFORE UPDATE OR DELETE ON attempts FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER attempts_no_truncate BEFORE TRUNCATE ON attempts FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER completions_append_only BEFORE UPDATE OR DELETE ON completions FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER completions_no_truncate BEFORE TRUNCATE ON completions FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER abandonments_append_only BEFORE UPDATE OR DELETE ON abandonments FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER abandonments_no_truncate BEFORE TRUNCATE ON abandonments FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER refusals_append_only BEFORE UPDATE OR DELETE ON refusals FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER refusals_no_truncate BEFORE TRUNCATE ON refusals FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER notifications_append_only BEFORE UPDATE OR DELETE ON notifications FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER notifications_no_truncate BEFORE TRUNCATE ON notifications FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
