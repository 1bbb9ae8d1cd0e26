// Package audit is the append-only audit store behind owner confirmations:
// SQLite (modernc.org/sqlite, pure Go) by default, PostgreSQL (pgx) when a
// URL is given. It implements shared.AuditLookup, so the consent gate can
// check a confirmation against what was written when the owner said yes, and
// it is all the executor imports of the verifier.
//
// Records are only ever inserted: a completion, a revocation, an
// abandonment and an executor instance's heartbeat are rows of their own,
// and no statement in the package updates or deletes (a test reads the
// source and the migrations to hold that). The migrations are embedded and
// versioned (schema_migrations); Open applies the missing ones and refuses
// a schema newer than the code.
//
// Several executor processes may share one store. Each says it is alive
// with heartbeats (Heartbeat) while it has attempts in flight, and
// RecoverAbandoned marks outcome unknown only the attempts of instances
// whose heartbeat leases have all run out, or that never recorded one.
//
// Volume caps are enforced in one write transaction with the insert they
// allow — SQLite's BEGIN IMMEDIATE, PostgreSQL's pg_advisory_xact_lock on
// the action id — so concurrent callers in any number of goroutines and
// processes never begin more attempts than the cap. Every error is a
// *StoreError matching one of the Err* sentinels; ErrUnavailable means the
// store could not tell, never "no". docs/verifier.md, "The audit store",
// describes the store and how its tests reach PostgreSQL.
package audit
