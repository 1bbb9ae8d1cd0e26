-- 0005: an insert that would take a record's place is dropped (SQLite).
-- PostgreSQL has no REPLACE: an insert meeting a record's key fails, or with
-- ON CONFLICT DO UPDATE meets the update triggers of 0002-0004, so there is
-- nothing to add here; the version keeps both drivers' schemas in step.
SELECT 1;
