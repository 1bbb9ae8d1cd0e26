package shared

import (
	"fmt"
	"strings"
	"time"
)

// Reversible says whether an action can be undone: true, false, or the
// string "unknown" on the wire.
type Reversible string

// The three values of Reversible.
const (
	ReversibleTrue    Reversible = "true"
	ReversibleFalse   Reversible = "false"
	ReversibleUnknown Reversible = "unknown"
)

// Valid reports whether r is one of the three values.
func (r Reversible) Valid() bool {
	return r == ReversibleTrue || r == ReversibleFalse || r == ReversibleUnknown
}

// MarshalJSON writes true, false or "unknown".
func (r Reversible) MarshalJSON() ([]byte, error) {
	switch r {
	case ReversibleTrue, ReversibleFalse:
		return []byte(r), nil
	case ReversibleUnknown:
		return []byte(`"unknown"`), nil
	}
	return nil, fmt.Errorf("shared: invalid Reversible %q: want true, false or \"unknown\"", string(r))
}

// UnmarshalJSON accepts exactly true, false or "unknown".
func (r *Reversible) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "true", "false":
		*r = Reversible(b)
	case `"unknown"`:
		*r = ReversibleUnknown
	default:
		return fmt.Errorf("shared: invalid reversible %s: want true, false or \"unknown\"", b)
	}
	return nil
}

// Timestamp is an RFC 3339 date-time kept exactly as written, so that reading
// and writing a document never changes its digits.
type Timestamp string

// TimestampOf formats t in UTC with millisecond precision, as the mapper writes.
func TimestampOf(t time.Time) Timestamp {
	return Timestamp(t.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
}

// Time parses the timestamp.
func (t Timestamp) Time() (time.Time, error) { return time.Parse(time.RFC3339Nano, string(t)) }

// Valid reports whether t is an RFC 3339 date-time. time.Parse also accepts
// a comma before the fractional seconds, which RFC 3339 does not; a
// timestamp other readers (and the JSON Schema's date-time) would reject must
// not pass here.
func (t Timestamp) Valid() bool {
	if strings.ContainsRune(string(t), ',') {
		return false
	}
	_, err := t.Time()
	return err == nil
}
