package shared

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// verifiedActionJSON is the seed's dental booking action with a complete,
// matching owner confirmation: the one document in this file the gate must
// let through.
const verifiedActionJSON = `{
  "id": "clinic01:booking:appointment",
  "kind": "booking",
  "label": "Book a dental appointment",
  "url": "https://harbourside-dental.com.au/",
  "access": [
    {
      "method": "html-form",
      "url": "https://harbourside-dental.com.au/",
      "locator": { "strategy": "css", "value": "form#appointment-form", "stability": "stable" },
      "occurrences": 2,
      "submission": {
        "transport": "form-post",
        "endpoint": "https://harbourside-dental.com.au/wp-admin/admin-ajax.php",
        "enctype": "application/x-www-form-urlencoded",
        "submitControl": { "strategy": "css", "value": "form#appointment-form button[type=submit]", "stability": "stable" }
      },
      "opaque": false,
      "vendor": null,
      "toolName": null,
      "provenance": { "method": "parsed-html", "confidence": 0.95, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": "form#appointment-form" }
    }
  ],
  "inputs": [
    {
      "name": "patient-name", "label": "Your name", "semantic": "person-name", "type": "text",
      "required": true, "agentFillable": true,
      "valueSpace": [ { "kind": "length", "minLength": null, "maxLength": 80 } ],
      "defaultValue": null, "hint": "First and last name",
      "locator": { "strategy": "css", "value": "form#appointment-form input[name=patient-name]", "stability": "stable" },
      "provenance": { "method": "parsed-html", "confidence": 0.97, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": "label[for=patient-name]" }
    },
    {
      "name": "phone", "label": "Phone", "semantic": "phone", "type": "tel",
      "required": true, "agentFillable": true,
      "valueSpace": [ { "kind": "pattern", "pattern": "^0[2-9]\\d{8}$" } ],
      "defaultValue": null, "hint": "Australian number, no spaces",
      "locator": { "strategy": "css", "value": "form#appointment-form input[name=phone]", "stability": "stable" },
      "provenance": { "method": "parsed-html", "confidence": 0.98, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": "input[type=tel][pattern]" }
    }
  ],
  "validations": [],
  "sideEffects": {
    "effects": [
      { "kind": "sends-email-to-business", "target": "reception@harbourside-dental.com.au", "holdsInventory": false,
        "provenance": { "method": "inferred", "confidence": 0.75, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": "Contact Form 7 signature" } },
      { "kind": "creates-callback-request", "target": null, "holdsInventory": false,
        "provenance": { "method": "inferred", "confidence": 0.65, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": "preferred time window" } }
    ],
    "reversible": "unknown",
    "createsObligation": false,
    "transmitsPii": true,
    "chargesMoney": false,
    "summary": "Emails the clinic a request for an appointment in a chosen time window. Reception phones the patient back to confirm an exact time; no slot is held and no charge is made.",
    "provenance": { "method": "inferred", "confidence": 0.7, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": "mapper's reading of the form" }
  },
  "barriers": [],
  "provenance": { "method": "parsed-html", "confidence": 0.9, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": "form text and field set" },
  "verification": {
    "status": "verified",
    "confirmation": {
      "confirmedBy": "Dr Mei Tanaka (practice owner)",
      "confirmedAt": "2026-09-01T10:15:00.000Z",
      "method": "owner-portal",
      "auditRecord": "audit-0001",
      "limits": {
        "volumeCap": { "max": 10, "per": "day" },
        "notify": "reception@harbourside-dental.com.au"
      },
      "disclosure": {
        "effects": ["sends-email-to-business", "creates-callback-request"],
        "holdsInventory": false,
        "reversible": "unknown",
        "createsObligation": false,
        "transmitsPii": true,
        "chargesMoney": false,
        "summary": "Emails the clinic a request for an appointment in a chosen time window. Reception phones the patient back to confirm an exact time; no slot is held and no charge is made."
      }
    },
    "sandboxRuns": [],
    "note": null
  }
}`

const (
	testActionID = "clinic01:booking:appointment"
	testAuditRef = "audit-0001"
)

// strictStore is an audit store as the verifier keeps one: per reference,
// the record written when the owner confirmed, the consent digest included,
// answered by comparing every field of the query exactly.
type strictStore map[string]storedConfirmation

type storedConfirmation struct {
	actionID, by string
	at           Timestamp
	digest       string
	subject      []byte
	revoked      bool
}

func (s strictStore) LookupAudit(_ context.Context, q AuditQuery) (AuditAnswer, error) {
	r, ok := s[q.Ref]
	if !ok || r.actionID != q.ActionID || r.by != q.ConfirmedBy || r.at != q.ConfirmedAt {
		return AuditAnswer{}, nil
	}
	return AuditAnswer{Found: true, Revoked: r.revoked, Digest: r.digest, Subject: r.subject}, nil
}

// confirmedStore records the confirmation of a valid verified action the way
// the verifier does when the owner says yes to it as it is: the digest of
// the action now, with the limits the owner set.
func confirmedStore(tb testing.TB, data []byte) strictStore {
	tb.Helper()
	a, issues := ReadAction(data)
	if len(issues) > 0 {
		tb.Fatalf("confirming an invalid action: %v", issues)
	}
	v := a.Verification.(Verified)
	subject := ConsentSubjectOf(a, v.Confirmation.Limits)
	canon, err := CanonicalConsent(subject)
	if err != nil {
		tb.Fatal(err)
	}
	digest, err := ConsentDigest(subject)
	if err != nil {
		tb.Fatal(err)
	}
	return strictStore{*v.Confirmation.AuditRecord: {
		actionID: a.ID, by: v.Confirmation.ConfirmedBy, at: v.Confirmation.ConfirmedAt,
		digest: digest, subject: canon,
	}}
}

// auditStore holds the confirmation of verifiedActionJSON and nothing else.
var auditStore = confirmedStore(&testing.T{}, []byte(verifiedActionJSON))

// edit decodes verifiedActionJSON, applies f to it and encodes it again.
func edit(t testing.TB, f func(doc map[string]any)) []byte {
	t.Helper()
	doc := decodeDoc(t, []byte(verifiedActionJSON))
	f(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("encoding edited action: %v", err)
	}
	return out
}

func decodeDoc(t testing.TB, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("decoding action: %v", err)
	}
	return doc
}

// obj walks doc along keys, each naming a nested object.
func obj(doc map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		doc = doc[k].(map[string]any)
	}
	return doc
}

func sideEffectsOf(doc map[string]any) map[string]any { return obj(doc, "sideEffects") }
func confirmationIn(doc map[string]any) map[string]any {
	return obj(doc, "verification", "confirmation")
}
func disclosureOf(doc map[string]any) map[string]any {
	return obj(doc, "verification", "confirmation", "disclosure")
}

// reasons renders a gate error's refusals as "reason[key]" and reports
// whether action.invalid was among them (it is returned separately, because
// whether an edit also makes the document invalid is the reader's call).
func reasons(t testing.TB, err error) (got []string, invalid bool) {
	t.Helper()
	if err == nil {
		return nil, false
	}
	var uae *UnverifiedActionError
	if !errors.As(err, &uae) {
		t.Fatalf("gate error %T is not an *UnverifiedActionError: %v", err, err)
	}
	if !errors.Is(err, ErrUnverifiedAction) {
		t.Fatalf("errors.Is(err, ErrUnverifiedAction) is false for %v", err)
	}
	if len(uae.Reasons) == 0 {
		t.Fatalf("refusal with no reasons: %v", err)
	}
	got = []string{}
	for _, r := range uae.Reasons {
		if !r.Reason.Valid() {
			t.Errorf("reason %q is not in the RefusalReason vocabulary", r.Reason)
		}
		if r.Detail == "" {
			t.Errorf("reason %s has no detail telling the user what to do", r.Reason)
		}
		if r.Reason == RefuseActionInvalid {
			invalid = true
			continue
		}
		s := string(r.Reason)
		if r.Key != "" {
			s += "[" + r.Key + "]"
		}
		got = append(got, s)
	}
	return got, invalid
}

// checkRefusal runs the gate on data and compares its reasons with want.
// action.invalid must be present exactly when the strict reader reports
// issues for data; wantInvalid forces it to be expected.
func checkRefusal(t *testing.T, data []byte, audit AuditLookup, want []string, wantInvalid bool) {
	t.Helper()
	err := AssertLiveExecutionAllowed(data, audit)
	if err == nil {
		t.Fatalf("gate allowed live execution; want refusal %v", want)
	}
	got, invalid := reasons(t, err)
	if want == nil {
		want = []string{}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refusal reasons mismatch (-want +got):\n%s\nerror: %v", diff, err)
	}
	_, issues := ReadAction(data)
	readerInvalid := len(issues) > 0
	if wantInvalid && !readerInvalid {
		t.Errorf("the strict reader accepted a document this test expects it to reject")
	}
	if invalid != readerInvalid {
		t.Errorf("action.invalid reported = %t, but the reader found %d issues %v", invalid, len(issues), issues)
	}
}

func TestGateAllowsCompleteMatchingConfirmation(t *testing.T) {
	if _, issues := ReadAction([]byte(verifiedActionJSON)); len(issues) > 0 {
		t.Fatalf("test fixture does not read cleanly: %v", issues)
	}
	if err := AssertLiveExecutionAllowed([]byte(verifiedActionJSON), auditStore); err != nil {
		t.Fatalf("gate refused a complete, matching confirmation: %v", err)
	}
	// Re-encoding (other key order, escaped HTML) changes nothing.
	if err := AssertLiveExecutionAllowed(edit(t, func(map[string]any) {}), auditStore); err != nil {
		t.Fatalf("gate refused the same action re-encoded: %v", err)
	}
}

func TestGateRefusesEachReason(t *testing.T) {
	lookupDown := errors.New("audit store unreachable")
	tests := []struct {
		name        string
		data        []byte
		audit       AuditLookup
		want        []string
		wantInvalid bool
		wantErrIs   error
		nilAudit    bool // pass no AuditLookup at all (otherwise nil means auditStore)
	}{
		{
			name: "unverified",
			data: edit(t, func(d map[string]any) {
				d["verification"] = map[string]any{"status": "unverified", "note": nil}
			}),
			want: []string{"verification.not-verified"},
		},
		{
			name: "sandbox-tested",
			data: edit(t, func(d map[string]any) {
				d["verification"] = map[string]any{"status": "sandbox-tested", "sandboxRuns": []any{}, "note": nil}
			}),
			want: []string{"verification.not-verified"},
		},
		{
			name: "verified without a confirmation",
			data: edit(t, func(d map[string]any) { delete(obj(d, "verification"), "confirmation") }),
			want: []string{"verification.not-verified"}, wantInvalid: true,
		},
		{
			name: "verified with a null confirmation",
			data: edit(t, func(d map[string]any) { obj(d, "verification")["confirmation"] = nil }),
			want: []string{"verification.not-verified"}, wantInvalid: true,
		},
		{
			name: "verification missing",
			data: edit(t, func(d map[string]any) { delete(d, "verification") }),
			want: []string{"verification.not-verified"}, wantInvalid: true,
		},
		{
			name: "confirmedBy empty",
			data: edit(t, func(d map[string]any) { confirmationIn(d)["confirmedBy"] = "" }),
			want: []string{"confirmation.unattributed", "confirmation.audit-unresolved"},
		},
		{
			name: "confirmedBy only spaces",
			data: edit(t, func(d map[string]any) { confirmationIn(d)["confirmedBy"] = " \t " }),
			want: []string{"confirmation.unattributed", "confirmation.audit-unresolved"},
		},
		{
			name: "confirmedBy only a zero-width space",
			data: edit(t, func(d map[string]any) { confirmationIn(d)["confirmedBy"] = "\u200b" }),
			want: []string{"confirmation.unattributed", "confirmation.audit-unresolved"},
		},
		{
			name: "audit record null",
			data: edit(t, func(d map[string]any) { confirmationIn(d)["auditRecord"] = nil }),
			want: []string{"confirmation.audit-unresolved"}, audit: auditStore,
		},
		{
			name: "audit record not found",
			data: edit(t, func(d map[string]any) { confirmationIn(d)["auditRecord"] = "audit-9999" }),
			want: []string{"confirmation.audit-unresolved"}, audit: auditStore,
		},
		{
			name:  "audit record of another action",
			data:  edit(t, func(d map[string]any) { d["id"] = "clinic01:quote:whitening" }),
			audit: auditStore, want: []string{"confirmation.audit-unresolved"},
		},
		{
			name:     "nil audit lookup",
			data:     []byte(verifiedActionJSON),
			nilAudit: true, want: []string{"confirmation.audit-unresolved"},
		},
		{
			name:  "typed nil audit lookup",
			data:  []byte(verifiedActionJSON),
			audit: AuditLookupFunc(nil), want: []string{"confirmation.audit-unresolved"},
		},
		{
			name: "audit lookup error",
			data: []byte(verifiedActionJSON),
			audit: AuditLookupFunc(func(_ context.Context, q AuditQuery) (AuditAnswer, error) {
				// Found with the right digest must not count beside an error.
				return AuditAnswer{Found: true, Digest: q.Digest}, lookupDown
			}),
			want: []string{"confirmation.audit-unresolved"}, wantErrIs: lookupDown,
		},
		{
			name: "audit lookup panics",
			data: []byte(verifiedActionJSON),
			audit: AuditLookupFunc(func(context.Context, AuditQuery) (AuditAnswer, error) {
				panic("boom")
			}),
			want: []string{"gate.internal-error"},
		},
		{
			name: "volume cap null",
			data: edit(t, func(d map[string]any) { obj(d, "verification", "confirmation", "limits")["volumeCap"] = nil }),
			want: []string{"confirmation.digest-mismatch", "confirmation.no-volume-cap"},
		},
		{
			name: "volume cap zero",
			data: edit(t, func(d map[string]any) { obj(d, "verification", "confirmation", "limits", "volumeCap")["max"] = 0 }),
			want: []string{"confirmation.digest-mismatch", "confirmation.no-volume-cap"},
		},
		{
			name: "volume cap negative",
			data: edit(t, func(d map[string]any) { obj(d, "verification", "confirmation", "limits", "volumeCap")["max"] = -5 }),
			want: []string{"confirmation.digest-mismatch", "confirmation.no-volume-cap"},
		},
		{
			name: "volume cap over an unknown period",
			data: edit(t, func(d map[string]any) {
				obj(d, "verification", "confirmation", "limits", "volumeCap")["per"] = "unknown"
			}),
			want: []string{"confirmation.digest-mismatch", "confirmation.no-volume-cap"},
		},
		{
			name: "notify null",
			data: edit(t, func(d map[string]any) { obj(d, "verification", "confirmation", "limits")["notify"] = nil }),
			want: []string{"confirmation.digest-mismatch", "confirmation.no-notify-target"},
		},
		{
			name: "notify empty",
			data: edit(t, func(d map[string]any) { obj(d, "verification", "confirmation", "limits")["notify"] = "" }),
			want: []string{"confirmation.digest-mismatch", "confirmation.no-notify-target"},
		},
		{
			name: "summary with one added space",
			data: edit(t, func(d map[string]any) {
				se := sideEffectsOf(d)
				se["summary"] = strings.Replace(se["summary"].(string), "no slot", "no  slot", 1)
			}),
			want: []string{"confirmation.digest-mismatch", "disclosure.drift[summary]"},
		},
		{
			name: "summary with a trailing newline",
			data: edit(t, func(d map[string]any) {
				se := sideEffectsOf(d)
				se["summary"] = se["summary"].(string) + "\n"
			}),
			want: []string{"confirmation.digest-mismatch", "disclosure.drift[summary]"},
		},
		{
			name: "acknowledged summary with a trailing space",
			data: edit(t, func(d map[string]any) {
				ds := disclosureOf(d)
				ds["summary"] = ds["summary"].(string) + " "
			}),
			want: []string{"disclosure.drift[summary]"},
		},
		{
			name: "summary swapped for a different promise",
			data: edit(t, func(d map[string]any) {
				sideEffectsOf(d)["summary"] = "Books and charges a $90 deposit."
			}),
			want: []string{"confirmation.digest-mismatch", "disclosure.drift[summary]"},
		},
		{
			name: "empty summaries on both sides",
			data: edit(t, func(d map[string]any) {
				sideEffectsOf(d)["summary"] = ""
				disclosureOf(d)["summary"] = ""
			}),
			want: []string{"confirmation.digest-mismatch", "disclosure.empty[summary]"},
		},
		{
			name: "whitespace summaries on both sides",
			data: edit(t, func(d map[string]any) {
				sideEffectsOf(d)["summary"] = "  "
				disclosureOf(d)["summary"] = "  "
			}),
			want: []string{"confirmation.digest-mismatch", "disclosure.empty[summary]"},
		},
		{
			name: "owner shown an empty summary, action now states one",
			data: edit(t, func(d map[string]any) { disclosureOf(d)["summary"] = "" }),
			want: []string{"disclosure.empty[summary]", "disclosure.drift[summary]"},
		},
		{
			name: "owner acknowledged no effects",
			data: edit(t, func(d map[string]any) { disclosureOf(d)["effects"] = []any{} }),
			want: []string{"disclosure.empty[effects]", "disclosure.drift[effects]"},
		},
		{
			name: "chargesMoney flipped: the review's one-move break",
			data: edit(t, func(d map[string]any) { sideEffectsOf(d)["chargesMoney"] = true }),
			want: []string{"confirmation.digest-mismatch", "disclosure.drift[chargesMoney]"},
		},
		{
			name: "every confirmation check fails at once",
			data: edit(t, func(d map[string]any) {
				c := confirmationIn(d)
				c["confirmedBy"] = ""
				c["auditRecord"] = nil
				c["limits"] = map[string]any{"volumeCap": nil, "notify": nil}
				se := sideEffectsOf(d)
				se["chargesMoney"] = true
				se["summary"] = se["summary"].(string) + " "
			}),
			audit: auditStore,
			want: []string{
				"confirmation.unattributed", "confirmation.audit-unresolved",
				"confirmation.no-volume-cap", "confirmation.no-notify-target",
				"disclosure.drift[chargesMoney]", "disclosure.drift[summary]",
			},
		},
		{
			name: "unknown extra key",
			data: edit(t, func(d map[string]any) { d["approvedByOwner"] = true }),
			want: []string{}, wantInvalid: true,
		},
		{
			name: "unknown key with drift: both reported",
			data: edit(t, func(d map[string]any) {
				d["approvedByOwner"] = true
				sideEffectsOf(d)["chargesMoney"] = true
			}),
			want: []string{"confirmation.digest-mismatch", "disclosure.drift[chargesMoney]"}, wantInvalid: true,
		},
		{
			name: "case-variant Verification key beside verification",
			data: edit(t, func(d map[string]any) {
				d["Verification"] = d["verification"]
			}),
			want: []string{}, wantInvalid: true,
		},
		{
			name: "case-variant key only: Verification instead of verification",
			data: edit(t, func(d map[string]any) {
				d["Verification"] = d["verification"]
				delete(d, "verification")
			}),
			want: []string{"verification.not-verified"}, wantInvalid: true,
		},
		{
			name: "case-variant Summary in sideEffects",
			data: edit(t, func(d map[string]any) {
				se := sideEffectsOf(d)
				se["Summary"] = "Books a slot and charges a deposit."
			}),
			want: []string{}, wantInvalid: true,
		},
		{
			name: "duplicate verification key, unverified first",
			data: []byte(strings.Replace(verifiedActionJSON, `"verification": {`,
				`"verification": {"status": "unverified", "note": null}, "verification": {`, 1)),
			// The strict reader keeps the first occurrence: reported as unverified.
			want: []string{"verification.not-verified"}, wantInvalid: true,
		},
		{
			name: "duplicate verification key, verified first",
			data: []byte(strings.TrimSuffix(verifiedActionJSON, "}") +
				`, "verification": {"status": "unverified", "note": null}}`),
			// The first (verified) occurrence is read; the duplicate alone refuses.
			want: []string{}, wantInvalid: true,
		},
		{
			name: "duplicate chargesMoney in sideEffects",
			data: []byte(strings.Replace(verifiedActionJSON, `"chargesMoney": false,
    "summary"`, `"chargesMoney": false, "chargesMoney": true,
    "summary"`, 1)),
			// The first occurrence (unchanged) is read; the duplicate alone refuses.
			want: []string{}, wantInvalid: true,
		},
		{
			name: "trailing data",
			data: []byte(verifiedActionJSON + `{}`),
			want: nil, wantInvalid: true,
		},
		{name: "empty input", data: nil, want: nil, wantInvalid: true},
		{name: "null", data: []byte(`null`), want: nil, wantInvalid: true},
		{name: "array", data: []byte(`[` + verifiedActionJSON + `]`), want: nil, wantInvalid: true},
		{name: "not JSON", data: []byte(`verified`), want: nil, wantInvalid: true},
		{name: "empty object", data: []byte(`{}`), want: []string{"verification.not-verified"}, wantInvalid: true},
		{
			name: "status only, the hand-edited approval",
			data: []byte(`{"verification": {"status": "verified"}}`),
			want: []string{"verification.not-verified"}, wantInvalid: true,
		},
		{
			name: "invalid UTF-8 in summary",
			data: []byte(strings.ReplaceAll(verifiedActionJSON, "no charge is made.", "no charge is made.\xff")),
			// Read as U+FFFD on both sides: the file agrees with itself, not
			// with what the owner confirmed.
			want: []string{"confirmation.digest-mismatch"}, wantInvalid: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			audit := tt.audit
			if audit == nil && !tt.nilAudit {
				audit = auditStore
			}
			checkRefusal(t, tt.data, audit, tt.want, tt.wantInvalid)
			if tt.wantErrIs != nil {
				if err := AssertLiveExecutionAllowed(tt.data, audit); !errors.Is(err, tt.wantErrIs) {
					t.Errorf("errors.Is(err, %v) = false; err = %v", tt.wantErrIs, err)
				}
			}
		})
	}
}

// mutationsOf proposes values that differ from v and keep its JSON type
// family, for a generic edit of one consent-bound key.
func mutationsOf(v any) []any {
	var out []any
	switch x := v.(type) {
	case bool:
		out = append(out, !x)
	case string:
		out = append(out, x+" ", " "+x, x+"\n", "x"+x, true, false, "unknown")
	case []any:
		if len(x) > 1 { // reversed order: kinds are compared in order
			r := make([]any, len(x))
			for i := range x {
				r[i] = x[len(x)-1-i]
			}
			out = append(out, r, x[:len(x)-1])
		}
		out = append(out, append(append([]any{}, x...), x[0]))
	}
	return append(out, true, false, "unknown")
}

// TestGateDriftEachConsentBoundKey changes one consent-bound key at a time,
// on the action's side and on the owner's side, by a generic edit chosen per
// key (no key is named here), and requires exactly that key to drift.
func TestGateDriftEachConsentBoundKey(t *testing.T) {
	sides := []struct {
		name string
		m    func(map[string]any) map[string]any
	}{
		{"action now", sideEffectsOf},
		{"owner was shown", disclosureOf},
	}
	for _, key := range ConsentBoundSideEffectKeys() {
		for _, side := range sides {
			t.Run(key+"/"+side.name, func(t *testing.T) {
				orig := side.m(decodeDoc(t, []byte(verifiedActionJSON)))[key]
				if orig == nil {
					t.Fatalf("fixture has no %q on the %s side", key, side.name)
				}
				tried := 0
				for _, mv := range mutationsOf(orig) {
					if reflect.DeepEqual(mv, orig) {
						continue // not an edit
					}
					data := edit(t, func(d map[string]any) { side.m(d)[key] = mv })
					if a, issues := ReadAction(data); a == nil || len(issues) > 0 {
						continue // the edit made the document invalid; try another
					}
					tried++
					want := []string{"disclosure.drift[" + key + "]"}
					if side.name == "action now" { // what the action does changed: so did its digest
						want = append([]string{"confirmation.digest-mismatch"}, want...)
					}
					checkRefusal(t, data, auditStore, want, false)
				}
				if tried == 0 {
					t.Fatalf("no generic edit of %q kept the action valid; extend mutationsOf for this key's type", key)
				}
			})
		}
	}
}

// TestGateDriftHoldsInventory: the "effects" key binds holdsInventory as the
// OR over effects, on both sides.
func TestGateDriftHoldsInventory(t *testing.T) {
	tests := []struct {
		name string
		edit func(d map[string]any)
		want []string
	}{
		{
			name: "an effect now holds inventory",
			edit: func(d map[string]any) {
				sideEffectsOf(d)["effects"].([]any)[1].(map[string]any)["holdsInventory"] = true
			},
			want: []string{"confirmation.digest-mismatch", "disclosure.drift[effects]"},
		},
		{
			name: "owner acknowledged holding inventory, action holds none",
			edit: func(d map[string]any) { disclosureOf(d)["holdsInventory"] = true },
			want: []string{"disclosure.drift[effects]"},
		},
		{
			name: "owner acknowledged holding inventory, one effect holds it",
			edit: func(d map[string]any) {
				disclosureOf(d)["holdsInventory"] = true
				sideEffectsOf(d)["effects"].([]any)[0].(map[string]any)["holdsInventory"] = true
			},
			// The file agrees with itself, but not with what the owner confirmed.
			want: []string{"confirmation.digest-mismatch"},
		},
		{
			name: "effect target changes: bound through the digest (decision 0003)",
			edit: func(d map[string]any) {
				sideEffectsOf(d)["effects"].([]any)[0].(map[string]any)["target"] = "bookings@harbourside-dental.com.au"
			},
			want: []string{"confirmation.digest-mismatch"},
		},
		{
			name: "side-effect provenance changes: excluded from consent",
			edit: func(d map[string]any) {
				obj(d, "sideEffects", "provenance")["confidence"] = 0.71
			},
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := edit(t, tt.edit)
			if tt.want == nil {
				if err := AssertLiveExecutionAllowed(data, auditStore); err != nil {
					t.Fatalf("gate refused: %v", err)
				}
				return
			}
			checkRefusal(t, data, auditStore, tt.want, false)
		})
	}
}

// TestGateRederivesEveryCall: the gate caches no answer (only the read of
// the bytes, gate_memo.go); the same bytes are refused as soon as the audit
// record stops resolving.
func TestGateRederivesEveryCall(t *testing.T) {
	resolves := true
	calls := 0
	audit := AuditLookupFunc(func(ctx context.Context, q AuditQuery) (AuditAnswer, error) {
		calls++
		if !resolves {
			return AuditAnswer{}, nil
		}
		return auditStore.LookupAudit(ctx, q)
	})
	data := []byte(verifiedActionJSON)
	if err := AssertLiveExecutionAllowed(data, audit); err != nil {
		t.Fatalf("first call refused: %v", err)
	}
	resolves = false
	if err := AssertLiveExecutionAllowed(data, audit); !errors.Is(err, ErrUnverifiedAction) {
		t.Fatalf("second call after the record vanished: err = %v, want a refusal", err)
	}
	if calls != 2 {
		t.Errorf("audit lookups = %d, want 2 (one per call)", calls)
	}
}

func TestGateAuditQuery(t *testing.T) {
	var got AuditQuery
	audit := AuditLookupFunc(func(ctx context.Context, q AuditQuery) (AuditAnswer, error) {
		got = q
		return auditStore.LookupAudit(ctx, q)
	})
	if err := AssertLiveExecutionAllowed([]byte(verifiedActionJSON), audit); err != nil {
		t.Fatalf("gate refused: %v", err)
	}
	want := AuditQuery{
		Ref: testAuditRef, ActionID: testActionID,
		ConfirmedBy: "Dr Mei Tanaka (practice owner)", ConfirmedAt: "2026-09-01T10:15:00.000Z",
		Digest: goldenDigest(t, "clinic01-booking"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit query mismatch (-want +got):\n%s", diff)
	}
}

// TestGateContextDone: a context that is done refuses with its error,
// whatever the store answers — before the lookup and during it.
func TestGateContextDone(t *testing.T) {
	granting := AuditLookupFunc(func(ctx context.Context, q AuditQuery) (AuditAnswer, error) {
		return auditStore.LookupAudit(context.Background(), q) // ignores ctx
	})
	t.Run("done before the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := AssertLiveExecutionAllowedContext(ctx, []byte(verifiedActionJSON), granting)
		if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrUnverifiedAction) {
			t.Fatalf("err = %v, want a refusal wrapping context.Canceled", err)
		}
	})
	t.Run("done during the lookup", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		during := AuditLookupFunc(func(c context.Context, q AuditQuery) (AuditAnswer, error) {
			cancel()
			return granting(c, q)
		})
		err := AssertLiveExecutionAllowedContext(ctx, []byte(verifiedActionJSON), during)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want a refusal wrapping context.Canceled", err)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), -time.Second)
		defer cancel()
		err := AssertLiveExecutionAllowedContext(ctx, []byte(verifiedActionJSON), granting)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a refusal wrapping context.DeadlineExceeded", err)
		}
	})
}

// forgeries are the review's attack on the file: each edits one verified
// action on both sides (what it does and what the owner was shown), so the
// file agrees with itself, and only the audit record can tell.
var forgeries = []struct {
	name  string
	edit  func(d map[string]any)
	paths []string // what the refusal must name as changed
}{
	{"charges money", func(d map[string]any) {
		sideEffectsOf(d)["chargesMoney"] = true
		disclosureOf(d)["chargesMoney"] = true
	}, []string{"$.disclosure.chargesMoney"}},
	{"creates an obligation", func(d map[string]any) {
		sideEffectsOf(d)["createsObligation"] = true
		disclosureOf(d)["createsObligation"] = true
	}, []string{"$.disclosure.createsObligation"}},
	{"summary swapped", func(d map[string]any) {
		sideEffectsOf(d)["summary"] = "Charges the patient a $500 non-refundable deposit."
		disclosureOf(d)["summary"] = "Charges the patient a $500 non-refundable deposit."
	}, []string{"$.disclosure.summary"}},
	{"first effect charges payment", func(d map[string]any) {
		sideEffectsOf(d)["effects"].([]any)[0].(map[string]any)["kind"] = "charges-payment"
		disclosureOf(d)["effects"].([]any)[0] = "charges-payment"
	}, []string{"$.disclosure.effects[0]", "$.effects[0].kind"}},
	{"volume cap raised to the maximum per hour", func(d map[string]any) {
		obj(d, "verification", "confirmation", "limits")["volumeCap"] = map[string]any{"max": json.Number("9223372036854775807"), "per": "hour"}
	}, []string{"$.limits.volumeCap.max", "$.limits.volumeCap.per"}},
	{"notify points elsewhere", func(d map[string]any) {
		obj(d, "verification", "confirmation", "limits")["notify"] = "attacker@example.net"
	}, []string{"$.limits.notify"}},
	{"endpoint moved to another host", func(d map[string]any) {
		door := d["access"].([]any)[0].(map[string]any)
		door["submission"].(map[string]any)["endpoint"] = "https://collector.example.net/wp-admin/admin-ajax.php"
	}, []string{"$.doors[0].endpoint"}},
	{"transport changed", func(d map[string]any) {
		door := d["access"].([]any)[0].(map[string]any)
		door["submission"].(map[string]any)["transport"] = "json-endpoint"
	}, []string{"$.doors[0].transport"}},
	{"enctype changed", func(d map[string]any) {
		door := d["access"].([]any)[0].(map[string]any)
		door["submission"].(map[string]any)["enctype"] = "multipart/form-data"
	}, []string{"$.doors[0].enctype"}},
	{"door url changed", func(d map[string]any) {
		d["access"].([]any)[0].(map[string]any)["url"] = "https://harbourside-dental.com.au/other"
	}, []string{"$.doors[0].url"}},
	{"door added", func(d map[string]any) {
		doors := d["access"].([]any)
		extra := map[string]any{}
		for k, v := range doors[0].(map[string]any) {
			extra[k] = v
		}
		extra["url"] = "https://collector.example.net/"
		d["access"] = append(doors, extra)
	}, []string{"$.doors[1]"}},
	{"effect target changed", func(d map[string]any) {
		sideEffectsOf(d)["effects"].([]any)[0].(map[string]any)["target"] = "attacker@example.net"
	}, []string{"$.effects[0].target"}},
	{"kind changed", func(d map[string]any) { d["kind"] = "quote" }, []string{"$.kind"}},
	{"all of the review's edits at once", func(d map[string]any) {
		se, ds := sideEffectsOf(d), disclosureOf(d)
		for _, m := range []map[string]any{se, ds} {
			m["chargesMoney"], m["createsObligation"] = true, true
			m["summary"] = "Charges the patient a $500 non-refundable deposit."
		}
		se["effects"].([]any)[0].(map[string]any)["kind"] = "charges-payment"
		ds["effects"].([]any)[0] = "charges-payment"
		limits := obj(d, "verification", "confirmation", "limits")
		limits["volumeCap"] = map[string]any{"max": json.Number("9223372036854775807"), "per": "hour"}
		limits["notify"] = "attacker@example.net"
		door := d["access"].([]any)[0].(map[string]any)
		door["submission"].(map[string]any)["endpoint"] = "https://collector.example.net/wp-admin/admin-ajax.php"
	}, []string{"$.disclosure.chargesMoney", "$.limits.notify", "$.doors[0].endpoint"}},
}

// TestGateRefusesForgedConsent: each forgery, consistent within the file,
// is refused with confirmation.digest-mismatch alone, and the refusal says
// what differs from what the owner confirmed.
func TestGateRefusesForgedConsent(t *testing.T) {
	for _, f := range forgeries {
		t.Run(f.name, func(t *testing.T) {
			data := edit(t, f.edit)
			checkRefusal(t, data, auditStore, []string{"confirmation.digest-mismatch"}, false)
			var uae *UnverifiedActionError
			errors.As(AssertLiveExecutionAllowed(data, auditStore), &uae)
			detail := uae.Reasons[0].Detail
			for _, p := range f.paths {
				if !strings.Contains(detail, p+": confirmed ") {
					t.Errorf("the refusal does not name %s:\n%s", p, detail)
				}
			}
			// The same file confirmed as it now is would pass: the refusal is
			// about what the owner saw, not about the edit being unusual.
			if err := AssertLiveExecutionAllowed(data, confirmedStore(t, data)); err != nil {
				t.Errorf("the edited action, confirmed by its owner as it is, was refused: %v", err)
			}
		})
	}
}

// TestGateRefusesStrippedBarrier: an owner confirmed an action behind a
// CAPTCHA; a file with the CAPTCHA taken out (so that an executor would try
// to submit it) is not what they confirmed.
func TestGateRefusesStrippedBarrier(t *testing.T) {
	withCaptcha := edit(t, func(d map[string]any) {
		d["barriers"] = []any{map[string]any{"kind": "captcha", "detail": "reCAPTCHA v3",
			"provenance": map[string]any{"method": "parsed-html", "confidence": 0.9, "at": "2026-08-25T08:39:12.596Z", "by": "mapper@0.1.0", "evidence": nil}}}
	})
	store := confirmedStore(t, withCaptcha)
	if err := AssertLiveExecutionAllowed(withCaptcha, store); err != nil {
		t.Fatalf("the confirmed action with its barrier was refused: %v", err)
	}
	stripped := edit(t, func(d map[string]any) { d["barriers"] = []any{} })
	checkRefusal(t, stripped, store, []string{"confirmation.digest-mismatch"}, false)
}

// TestGateRefusesRevoked: a revoked confirmation refuses although the file
// and the digest are unchanged.
func TestGateRefusesRevoked(t *testing.T) {
	store := confirmedStore(t, []byte(verifiedActionJSON))
	rec := store[testAuditRef]
	rec.revoked = true
	store[testAuditRef] = rec
	checkRefusal(t, []byte(verifiedActionJSON), store, []string{"confirmation.revoked"}, false)
}

// TestGateDigestWithoutSubject: a store that keeps only the digest still
// refuses a mismatch; it cannot say what differs.
func TestGateDigestWithoutSubject(t *testing.T) {
	store := confirmedStore(t, []byte(verifiedActionJSON))
	rec := store[testAuditRef]
	rec.subject = nil
	store[testAuditRef] = rec
	data := edit(t, forgeries[0].edit)
	checkRefusal(t, data, store, []string{"confirmation.digest-mismatch"}, false)
}

// TestGateConfirmationClaims: the method must be known and the time not in
// the future beyond MaxClockSkew. Each document is confirmed as it is, so
// only the claim under test can refuse.
func TestGateConfirmationClaims(t *testing.T) {
	soon := TimestampOf(time.Now().Add(MaxClockSkew / 2))
	later := TimestampOf(time.Now().Add(2 * MaxClockSkew))
	tests := []struct {
		name string
		edit func(d map[string]any)
		want []string
	}{
		{"method unknown", func(d map[string]any) { confirmationIn(d)["method"] = "unknown" }, []string{"confirmation.method-unknown"}},
		{"confirmed within the clock skew", func(d map[string]any) { confirmationIn(d)["confirmedAt"] = string(soon) }, nil},
		{"confirmed in the future", func(d map[string]any) { confirmationIn(d)["confirmedAt"] = string(later) }, []string{"confirmation.in-future"}},
		{"confirmed in the far future", func(d map[string]any) { confirmationIn(d)["confirmedAt"] = "2999-01-01T00:00:00Z" }, []string{"confirmation.in-future"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := edit(t, tt.edit)
			store := confirmedStore(t, data)
			if tt.want == nil {
				if err := AssertLiveExecutionAllowed(data, store); err != nil {
					t.Fatalf("gate refused: %v", err)
				}
				return
			}
			checkRefusal(t, data, store, tt.want, false)
		})
	}
}

func TestUnverifiedActionErrorMessage(t *testing.T) {
	data := edit(t, func(d map[string]any) {
		obj(d, "verification", "confirmation", "limits")["notify"] = nil
		sideEffectsOf(d)["chargesMoney"] = true
	})
	err := AssertLiveExecutionAllowed(data, auditStore)
	var uae *UnverifiedActionError
	if !errors.As(err, &uae) {
		t.Fatalf("err = %v, want *UnverifiedActionError", err)
	}
	if !uae.Has(RefuseConfirmationDigestMismatch) {
		t.Errorf("Has(digest-mismatch) = false for an edit of what the action does")
	}
	if uae.ActionID != testActionID {
		t.Errorf("ActionID = %q, want %q", uae.ActionID, testActionID)
	}
	if !uae.Has(RefuseDisclosureDrift) || uae.Has(RefuseActionInvalid) {
		t.Errorf("Has: drift=%t invalid=%t, want true false", uae.Has(RefuseDisclosureDrift), uae.Has(RefuseActionInvalid))
	}
	msg := err.Error()
	for _, want := range []string{
		`"clinic01:booking:appointment"`, "(3 reasons)", "confirmation.no-notify-target", "confirmation.digest-mismatch", "$.limits.notify: confirmed ",
		"disclosure.drift[chargesMoney]", "confirm the action as it is now",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error message lacks %q:\n%s", want, msg)
		}
	}
}

func TestGateInvalidCarriesIssues(t *testing.T) {
	err := AssertLiveExecutionAllowed([]byte(`{"id": 7}`), auditStore)
	var uae *UnverifiedActionError
	if !errors.As(err, &uae) {
		t.Fatalf("err = %v, want *UnverifiedActionError", err)
	}
	if !uae.Has(RefuseActionInvalid) || len(uae.Issues) == 0 {
		t.Errorf("want action.invalid with the reader's issues, got reasons %v issues %v", uae.Reasons, uae.Issues)
	}
	if !errors.Is(err, ErrInvalidGraph) {
		t.Errorf("errors.Is(err, ErrInvalidGraph) = false for an invalid document")
	}
}

// TestConsentValueCoversBoundKeys guards the generated comparison: every
// bound key yields a comparable value, so the gate's loop compares it.
func TestConsentValueCoversBoundKeys(t *testing.T) {
	var d AcknowledgedDisclosure
	for _, key := range ConsentBoundSideEffectKeys() {
		t.Run(key, func(t *testing.T) {
			if d.consentValue(key) == nil {
				t.Fatalf("consentValue(%q) = nil: the gate could not compare this key; run go generate", key)
			}
		})
	}
	if v := d.consentValue("provenance"); v != nil {
		t.Errorf("consentValue(provenance) = %v, want nil: provenance is excluded from consent", v)
	}
}

// FuzzGate searches for a document the gate lets through without a complete,
// matching confirmation. Whenever the gate returns nil, the oracle below —
// plain encoding/json, a blank rule of its own from the Unicode properties,
// and the strict store's one confirmation — must find every piece of
// evidence, and find what the action does now equal to what was confirmed.
func FuzzGate(f *testing.F) {
	f.Add([]byte(verifiedActionJSON))
	seeds := []func(map[string]any){
		func(map[string]any) {},
		func(d map[string]any) { d["verification"] = map[string]any{"status": "unverified", "note": nil} },
		func(d map[string]any) { confirmationIn(d)["confirmedBy"] = "" },
		func(d map[string]any) { confirmationIn(d)["auditRecord"] = "audit-0002" },
		func(d map[string]any) { confirmationIn(d)["method"] = "unknown" },
		func(d map[string]any) { confirmationIn(d)["confirmedAt"] = "2999-01-01T00:00:00Z" },
		func(d map[string]any) { confirmationIn(d)["confirmedAt"] = "2026-09-01T10:15:00.000+24:00" },
		func(d map[string]any) { obj(d, "verification", "confirmation", "limits")["volumeCap"] = nil },
		func(d map[string]any) { obj(d, "verification", "confirmation", "limits")["notify"] = nil },
		func(d map[string]any) { sideEffectsOf(d)["chargesMoney"] = true },
		func(d map[string]any) { sideEffectsOf(d)["summary"] = "" },
		func(d map[string]any) { disclosureOf(d)["holdsInventory"] = true },
		func(d map[string]any) { d["Verification"] = d["verification"] },
	}
	for _, r := range blankLookalikes {
		seeds = append(seeds,
			func(d map[string]any) { confirmationIn(d)["confirmedBy"] = r },
			func(d map[string]any) { obj(d, "verification", "confirmation", "limits")["notify"] = r },
			func(d map[string]any) { sideEffectsOf(d)["summary"], disclosureOf(d)["summary"] = r, r },
		)
	}
	for _, fg := range forgeries {
		seeds = append(seeds, fg.edit)
	}
	for _, s := range seeds {
		f.Add(edit(f, s))
	}
	f.Add([]byte(strings.Replace(verifiedActionJSON, `"summary": "Emails`, `"summary": "Emails", "summary": "Emails`, 1)))
	f.Add([]byte(`{"verification":{"status":"verified"}}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		err := AssertLiveExecutionAllowed(data, auditStore)
		if err != nil {
			var uae *UnverifiedActionError
			if !errors.As(err, &uae) || len(uae.Reasons) == 0 || !errors.Is(err, ErrUnverifiedAction) {
				t.Fatalf("refusal is not a well-formed *UnverifiedActionError: %v", err)
			}
			return
		}
		if problem := independentlyUnconfirmed(data); problem != "" {
			t.Fatalf("gate allowed an action that is not fully confirmed: %s\n%s", problem, data)
		}
	})
}

// blankLookalikes are strings that show a person nothing although every
// rune in them is "graphic": the review's bypasses of the blank rule.
var blankLookalikes = []string{
	"\u2800", "\u3164", "\u115f", "\u1160", "\uffa0", "\u034f", "\u17b5", "\u0301",
	"\u0301\u0302", " \u3164 ", "\u200b\u2800",
}

// oracleBlank is the oracle's own blank rule, from the Unicode properties: a
// string is visible only when it holds a letter, number, punctuation, symbol
// or private-use character that is not default-ignorable (Hangul fillers,
// the combining grapheme joiner…) and not the dotless Braille pattern; marks
// alone, spaces, controls and format characters show nothing.
func oracleBlank(s string) bool {
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		case unicode.Is(unicode.Braille, r) && r == 0x2800: // a Braille cell with no dot raised
		case unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S, unicode.Co):
			return false
		}
	}
	return true
}

// independentlyUnconfirmed is the fuzz oracle: plain encoding/json and
// hand-written checks, sharing nothing with the gate but the key list.
// It returns what is missing, or "" when the evidence is complete.
func independentlyUnconfirmed(data []byte) string {
	var doc, confirmed map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return "not a JSON object: " + err.Error()
	}
	if err := json.Unmarshal([]byte(verifiedActionJSON), &confirmed); err != nil {
		return "the oracle's own confirmation does not decode: " + err.Error()
	}
	get := func(m any, k string) any {
		if mm, ok := m.(map[string]any); ok {
			return mm[k]
		}
		return nil
	}
	text := func(v any) bool { s, ok := v.(string); return ok && !oracleBlank(s) }
	ver := get(doc, "verification")
	if get(ver, "status") != "verified" {
		return "status is not verified"
	}
	c := get(ver, "confirmation")
	if !text(get(c, "confirmedBy")) {
		return "no confirmedBy"
	}
	if m := get(c, "method"); m == "unknown" || !text(m) {
		return "no known confirmation method"
	}
	// The strict store holds one record: this reference, action, confirmer
	// and time.
	cc := get(get(confirmed, "verification"), "confirmation")
	if ref, _ := get(c, "auditRecord").(string); ref != testAuditRef || get(doc, "id") != testActionID {
		return "audit record does not resolve"
	}
	if get(c, "confirmedBy") != get(cc, "confirmedBy") || get(c, "confirmedAt") != get(cc, "confirmedAt") {
		return "the audit record does not record this confirmer and time"
	}
	limits := get(c, "limits")
	if max, _ := get(get(limits, "volumeCap"), "max").(float64); !(max > 0) {
		return "no positive volume cap"
	}
	if per := get(get(limits, "volumeCap"), "per"); per == "unknown" || !text(per) {
		return "volume cap over no known period"
	}
	if !text(get(limits, "notify")) {
		return "no notify target"
	}
	// What the owner confirmed, from the oracle's copy of the confirmed
	// action: identity, limits, every door's destination, effect targets.
	consent := func(d map[string]any) any {
		var doors, effects []any
		accesses, _ := get(d, "access").([]any)
		for _, a := range accesses {
			sub := get(a, "submission")
			doors = append(doors, []any{get(a, "method"), get(a, "url"), get(a, "toolName"),
				get(sub, "transport"), get(sub, "endpoint"), get(sub, "enctype")})
		}
		list, _ := get(get(d, "sideEffects"), "effects").([]any)
		for _, e := range list {
			effects = append(effects, []any{get(e, "kind"), get(e, "target")})
		}
		return []any{get(d, "id"), get(d, "kind"), get(get(get(d, "verification"), "confirmation"), "limits"), doors, effects}
	}
	if !reflect.DeepEqual(consent(doc), consent(confirmed)) {
		return "doors, effects or limits differ from what the owner confirmed"
	}
	shown, now := get(c, "disclosure"), get(doc, "sideEffects")
	for _, key := range ConsentBoundSideEffectKeys() {
		if key == "effects" {
			effects, _ := get(now, "effects").([]any)
			kinds := []any{}
			holds := false
			for _, e := range effects {
				kinds = append(kinds, get(e, "kind"))
				holds = holds || get(e, "holdsInventory") == true
			}
			if len(kinds) == 0 || !reflect.DeepEqual(get(shown, "effects"), kinds) || get(shown, "holdsInventory") != holds {
				return "effects differ from what the owner acknowledged"
			}
			continue
		}
		a, b := get(shown, key), get(now, key)
		if a == nil || !reflect.DeepEqual(a, b) {
			return key + " differs from what the owner acknowledged"
		}
		if s, ok := a.(string); ok && oracleBlank(s) {
			return key + " is blank"
		}
		if !reflect.DeepEqual(a, get(get(cc, "disclosure"), key)) {
			return key + " is not what the owner was shown"
		}
	}
	return ""
}

// TestGateRefusesBlankLookalikes: a confirmedBy, notify or summary that
// shows a person nothing refuses even when the owner "confirmed" exactly it
// (the store holds the digest of the document as it is), so only the blank
// rule can refuse.
func TestGateRefusesBlankLookalikes(t *testing.T) {
	for _, r := range blankLookalikes {
		for _, tt := range []struct {
			field string
			edit  func(d map[string]any)
			want  []string
		}{
			{"confirmedBy", func(d map[string]any) { confirmationIn(d)["confirmedBy"] = r }, []string{"confirmation.unattributed"}},
			{"notify", func(d map[string]any) { obj(d, "verification", "confirmation", "limits")["notify"] = r }, []string{"confirmation.no-notify-target"}},
			{"summary", func(d map[string]any) { sideEffectsOf(d)["summary"], disclosureOf(d)["summary"] = r, r }, []string{"disclosure.empty[summary]"}},
		} {
			t.Run(fmt.Sprintf("%s=%+q", tt.field, r), func(t *testing.T) {
				data := edit(t, tt.edit)
				checkRefusal(t, data, confirmedStore(t, data), tt.want, false)
			})
		}
	}
	// Private use is not blank: a confirmer written in a private-use script
	// is attributed.
	data := edit(t, func(d map[string]any) { confirmationIn(d)["confirmedBy"] = "\ue000" })
	if err := AssertLiveExecutionAllowed(data, confirmedStore(t, data)); err != nil {
		t.Errorf("a private-use confirmedBy was refused: %v", err)
	}
}

// TestGateRefusesOutOfRangeOffsets: a confirmedAt the JSON Schema rejects
// is refused by the gate too (the reader's timestamp rule), never granted.
func TestGateRefusesOutOfRangeOffsets(t *testing.T) {
	for _, off := range []string{"+24:00", "+24:59", "-24:00", "+23:60"} {
		t.Run(off, func(t *testing.T) {
			data := edit(t, func(d map[string]any) { confirmationIn(d)["confirmedAt"] = "2026-09-01T10:15:00.000" + off })
			err := AssertLiveExecutionAllowed(data, auditStore)
			var uae *UnverifiedActionError
			if !errors.As(err, &uae) || !uae.Has(RefuseActionInvalid) {
				t.Fatalf("err = %v, want action.invalid", err)
			}
		})
	}
}
