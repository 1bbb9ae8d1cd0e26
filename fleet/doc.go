// Package fleet maps thousands of sites: a queue of map jobs on River
// (github.com/riverqueue/river) — SQLite through its riversqlite driver as
// the embedded default, PostgreSQL through riverpgxv5 when many machines
// share the work — and the results in the same database: every map of every
// site, append-only, so a site's latest graph, its completeness and its
// history can all be asked for.
//
// Add queues sites (unique per site within UniqueWindow); Work runs workers
// (several per process, a per-host limit, local or remote Chromium), retried
// with backoff by River and discarded after MaxAttempts with their last
// error; Status, Failures, Changes and Export read the results. A periodic
// job re-scans sites with owner-confirmed actions and reconciles them
// against the verifier's audit store, so a confirmation expires the moment
// what the owner confirmed changes.
package fleet
