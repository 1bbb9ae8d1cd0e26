// Package audit is the append-only audit store behind owner confirmations:
// SQLite (modernc.org/sqlite, pure Go) by default, PostgreSQL (pgx) when a
// URL is given. It implements shared.AuditLookup, so the consent gate can
// check a confirmation against what was written when the owner said yes, and
// it is all the executor imports of the verifier.
package audit
