// Package verifier is the only way an action becomes verified: sandbox runs
// in real Chromium with the submission intercepted (Sandbox), the owner's
// portal that shows a readiness report and a confirmation page per action
// (package portal), and reconciliation of a re-scanned graph against what the owner
// confirmed (Reconcile). Confirmations and revocations are append-only
// records in the audit store (package audit), which the consent gate and
// the executor read back.
//
// It imports shared and topology's browser launcher, never mapper.
package verifier
