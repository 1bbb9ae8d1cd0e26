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
//
// The contract reads one profile of RFC 3339 (docs/decisions/0004-timestamp-
// profile.md), the one the JSON Schema's pattern also states:
//
//	YYYY-MM-DDTHH:MM:SS[.F…](Z|+HH:MM|-HH:MM)
//
// with an upper-case T and Z, a real calendar date, hours 00–23, minutes and
// seconds 00–59 (no leap second :60), any number of fraction digits after a
// period (never a comma), and an offset of at most 23:59 either way.
type Timestamp string

// TimestampOf formats t in UTC with millisecond precision, as the mapper writes.
func TimestampOf(t time.Time) Timestamp {
	return Timestamp(t.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
}

// Time parses the timestamp. It fails, with a *time.ParseError, exactly when
// Valid is false.
func (t Timestamp) Time() (time.Time, error) {
	s := string(t)
	if strings.ContainsRune(s, ',') {
		return time.Time{}, &time.ParseError{Layout: time.RFC3339Nano, Value: s, Message: ": a comma before the fraction is not RFC 3339; write a period"}
	}
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, err
	}
	if !offsetInRange(s) {
		return time.Time{}, &time.ParseError{Layout: time.RFC3339Nano, Value: s, Message: ": time zone offset out of range (hours 00-23, minutes 00-59)"}
	}
	return tm, nil
}

// Valid reports whether t is a date-time of the contract's profile of RFC
// 3339 (see Timestamp). time.Parse alone is looser in two ways other readers
// (and the JSON Schema's date-time) are not: it takes a comma before the
// fraction, and offsets up to +24:60.
func (t Timestamp) Valid() bool {
	_, err := t.Time()
	return err == nil
}

// offsetInRange reports whether the offset of s, which time.Parse accepted
// as RFC 3339 (so it ends in Z or in ±hh:mm digits), is at most 23:59.
func offsetInRange(s string) bool {
	if strings.HasSuffix(s, "Z") || len(s) < len("+00:00") {
		return true
	}
	off := s[len(s)-len("+00:00"):]
	hh := int(off[1]-'0')*10 + int(off[2]-'0')
	mm := int(off[4]-'0')*10 + int(off[5]-'0')
	return hh <= 23 && mm <= 59
}
