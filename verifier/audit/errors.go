package audit

import (
	"errors"
	"fmt"
	"strings"
)

// The sentinels every error of the store matches through errors.Is. Each
// error the store returns is a *StoreError naming the operation and the
// driver, wrapping one of these (and, where there is one, the driver's or
// the context's own error).
var (
	// ErrNotFound: the reference, attempt or record named does not exist.
	ErrNotFound = errors.New("audit: not found")
	// ErrDuplicate: BeginAttempt was given an idempotency key already used
	// for the action; nothing new was written and the first attempt is
	// returned beside the error. RecordConfirmation returns it for a Ref
	// that is already recorded.
	ErrDuplicate = errors.New("audit: duplicate")
	// ErrCapReached: the action's volume cap is used up for the current
	// window; the refusal was recorded and no attempt was begun.
	ErrCapReached = errors.New("audit: volume cap reached")
	// ErrRevoked: BeginAttempt was given the audit record of a revoked
	// confirmation; the refusal was recorded and no attempt was begun.
	ErrRevoked = errors.New("audit: confirmation revoked")
	// ErrAlreadyCompleted: the attempt already has a completion.
	ErrAlreadyCompleted = errors.New("audit: attempt already completed")
	// ErrUnavailable: the store cannot answer (unreachable, closed, context
	// done, a driver failure). An error matching it never means "no".
	ErrUnavailable = errors.New("audit: store unavailable")
	// ErrInvalid: bad input (an empty action id, an unknown URL scheme, an
	// invalid timestamp or cap…); nothing was written.
	ErrInvalid = errors.New("audit: invalid input")
	// ErrNotAuditStore: what the URL names is no audit store — a file that
	// is not a SQLite database, or one that is corrupt, or a database that
	// holds another program's tables and no schema_migrations of the
	// store's (Open adds no table to it). Unlike
	// ErrUnavailable, nothing is to be waited for or retried: the store
	// URL is wrong, or the file must be restored from a copy. Nothing was
	// written.
	ErrNotAuditStore = errors.New("audit: not an audit store")
	// ErrSchemaVersion: the database's schema is newer than this code knows
	// (another, newer binary migrated it); nothing was written.
	ErrSchemaVersion = errors.New("audit: schema version unknown to this code")
)

// StoreError is every error the store returns: the operation, the driver
// ("sqlite" or "postgres", empty before one is chosen), the sentinel it
// matches (Kind) and the underlying cause, when there is one.
type StoreError struct {
	Op     string // "open", "begin-attempt", "lookup-audit", …
	Driver string
	Kind   error  // one of the Err* sentinels
	Detail string // what is wrong, for a person
	Err    error  // the driver's or the context's error, or nil
}

// Error formats "audit: OP (DRIVER): DETAIL: CAUSE".
func (e *StoreError) Error() string {
	s := "audit: " + e.Op
	if e.Driver != "" {
		s += " (" + e.Driver + ")"
	}
	msg := e.Detail
	if msg == "" && e.Kind != nil {
		msg = strings.TrimPrefix(e.Kind.Error(), "audit: ")
	}
	if msg != "" {
		s += ": " + msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the sentinel and the cause, so errors.Is matches both
// (ErrUnavailable and context.DeadlineExceeded, say).
func (e *StoreError) Unwrap() []error {
	var out []error
	if e.Kind != nil {
		out = append(out, e.Kind)
	}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

// fail builds a *StoreError.
func (s *Store) fail(op string, kind error, err error, format string, args ...any) error {
	d := ""
	if s != nil {
		d = s.driver
	}
	return &StoreError{Op: op, Driver: d, Kind: kind, Err: err, Detail: fmt.Sprintf(format, args...)}
}

// invalid is a bad-input error.
func (s *Store) invalid(op, format string, args ...any) error {
	return s.fail(op, ErrInvalid, nil, format, args...)
}

// unavailable wraps a driver or context failure.
func (s *Store) unavailable(op string, err error) error {
	var se *StoreError
	if errors.As(err, &se) {
		return err
	}
	return s.fail(op, ErrUnavailable, err, "")
}

// notAuditStore is an ErrNotAuditStore error.
func (s *Store) notAuditStore(op string, err error, format string, args ...any) error {
	return s.fail(op, ErrNotAuditStore, err, format, args...)
}
