package executor_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

const callback = "electrician01:callback:callback"

func goodCallback() map[string]any {
	return map[string]any{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"}
}

// goodCallbackSent is what the call-back form sends for goodCallback: the
// agent's values, the fields it left empty, and the honeypot empty.
func goodCallbackSent() url.Values {
	return url.Values{"full_name": {"Ana Ruiz"}, "phone": {"+64 9 828 7400"}, "call_window": {"morning"}, "suburb": {""}, "about": {""}, "website": {""}}
}

func auditRef(t *testing.T, action []byte) string {
	t.Helper()
	a, issues := shared.ReadAction(action)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	v, ok := a.Verification.(shared.Verified)
	if !ok || v.Confirmation.AuditRecord == nil {
		t.Fatalf("not verified: %T", a.Verification)
	}
	return *v.Confirmation.AuditRecord
}

// TestGateRefusals: every call begins with the consent gate; whatever it
// refuses fires nothing, and the refusal carries the gate's own error.
func TestGateRefusals(t *testing.T) {
	tests := []struct {
		name   string
		action func(t *testing.T, st storeT, graph []byte) []byte
		reason shared.RefusalReason
	}{
		{"unverified", func(t *testing.T, st storeT, graph []byte) []byte {
			b, err := executor.ActionBytes(graph, callback)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}, shared.RefuseVerificationNotVerified},
		{"revoked", func(t *testing.T, st storeT, graph []byte) []byte {
			b := confirmed(t, st, graph, callback)
			if err := st.RecordRevocation(t.Context(), audit.Revocation{ActionID: callback, Ref: auditRef(t, b), By: executortest.Owner, At: time.Now(), Reason: "test"}); err != nil {
				t.Fatal(err)
			}
			return b
		}, shared.RefuseConfirmationRevoked},
		{"endpoint edited after confirmation", func(t *testing.T, st storeT, graph []byte) []byte {
			b := confirmed(t, st, graph, callback)
			return bytes.Replace(b, []byte(`/callback-request"`), []byte(`/elsewhere"`), 1)
		}, shared.RefuseConfirmationDigestMismatch},
		{"forged audit record", func(t *testing.T, st storeT, graph []byte) []byte {
			b := confirmed(t, st, graph, callback)
			ref := auditRef(t, b)
			return bytes.Replace(b, []byte(`"`+ref+`"`), []byte(`"aud_forged"`), 1)
		}, shared.RefuseConfirmationAuditUnresolved},
		{"not a document", func(t *testing.T, st storeT, graph []byte) []byte {
			return []byte(`{"id": "x", "verification": {"status": "verified"}`)
		}, shared.RefuseActionInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, graph := site(t, "electrician01")
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			_, err := ex.Execute(t.Context(), executor.Call{Action: tt.action(t, st, graph), Input: goodCallback()})
			var re *executor.RefusedError
			var ue *shared.UnverifiedActionError
			if !errors.As(err, &re) || !errors.As(err, &ue) || !errors.Is(err, shared.ErrUnverifiedAction) {
				t.Fatalf("err = %v, want a refusal carrying the gate's error", err)
			}
			if !ue.Has(tt.reason) || !re.Has(string(tt.reason)) {
				t.Errorf("reasons %v, want %s", re.Reasons, tt.reason)
			}
			assertRefusals(t, st, auditedID(re), 1, string(tt.reason))
			if n := len(submissions(t, srv, "electrician01")); n != 0 {
				t.Errorf("%d submissions, want 0", n)
			}
		})
	}
}

// TestRevokedWhileThePageLoads: the owner revokes after the gate passed
// the call and while the executor reads the live page for clinic01's
// Contact Form 7 tokens. BeginAttempt re-checks the audit record in the
// attempt's transaction: the call is refused as revoked, audited once, and
// nothing reaches the site.
func TestRevokedWhileThePageLoads(t *testing.T) {
	srv, graph := site(t, "clinic01")
	st := openStore(t)
	action := confirmed(t, st, withoutBarriers(t, graph), "clinic01:booking:appointment")
	ref := auditRef(t, action)
	var pageReads atomic.Int32
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Timeout: 20 * time.Second, Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Method == http.MethodGet && pageReads.Add(1) == 1 {
			if err := st.RecordRevocation(r.Context(), audit.Revocation{ActionID: "clinic01:booking:appointment", Ref: ref, By: executortest.Owner, At: time.Now(), Reason: "changed my mind"}); err != nil {
				return nil, err
			}
		}
		return tr.RoundTrip(r)
	})}
	ex := newExecutor(t, st, executor.Options{HTTPClient: client})
	_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: map[string]any{"patient-name": "Mia Wong", "phone": "0292471234"}})
	var re *executor.RefusedError
	if !errors.As(err, &re) || !re.Has(string(shared.RefuseConfirmationRevoked)) || !errors.Is(err, shared.ErrUnverifiedAction) {
		t.Fatalf("err = %v, want a refusal for %s carrying the gate's error", err, shared.RefuseConfirmationRevoked)
	}
	if pageReads.Load() != 1 {
		t.Errorf("%d page reads, want 1 (the revocation must land after the gate)", pageReads.Load())
	}
	assertRefusals(t, st, re.ActionID, 1, string(shared.RefuseConfirmationRevoked))
	if atts, err := st.Attempts(t.Context(), re.ActionID); err != nil || len(atts) != 0 {
		t.Errorf("attempts = %d (%v), want none", len(atts), err)
	}
	if n := len(submissions(t, srv, "clinic01")); n != 0 {
		t.Errorf("%d submissions reached the site, want 0", n)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestEveryReason: one call that is wrong in several ways hears of all of
// them at once.
func TestEveryReason(t *testing.T) {
	srv, graph := site(t, "clinic01")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action, err := executor.ActionBytes(graph, "clinic01:booking:appointment") // unverified, and behind a CAPTCHA
	if err != nil {
		t.Fatal(err)
	}
	_, err = ex.Execute(t.Context(), executor.Call{Action: action, Input: map[string]any{"patient-name": "Mia", "phone": "12345", "colour": "blue", "_wpcf7": "99"}})
	var re *executor.RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v", err)
	}
	var codes []string
	for _, r := range re.Reasons {
		codes = append(codes, r.Code+":"+r.Field+":"+r.Rule)
	}
	for _, want := range []string{
		string(shared.RefuseVerificationNotVerified) + "::",
		executor.ReasonBarrier + ":captcha:",
		executor.ReasonUnknownInput + ":colour:unknown",
		executor.ReasonNotFillable + ":_wpcf7:agent-fillable",
		executor.ReasonInvalidInput + ":phone:pattern",
	} {
		if !slices.Contains(codes, want) {
			t.Errorf("reasons %v lack %s", codes, want)
		}
	}
	for _, target := range []error{executor.ErrRefused, executor.ErrBarrier, executor.ErrUnknownInput, executor.ErrInvalidInput, shared.ErrUnverifiedAction} {
		if !errors.Is(err, target) {
			t.Errorf("errors.Is(err, %v) = false", target)
		}
	}
	if n := len(submissions(t, srv, "clinic01")); n != 0 {
		t.Errorf("%d submissions, want 0", n)
	}
}

// TestInputRules: declared rules refuse with a message naming the field and
// the rule; inferred rules only warn.
func TestInputRules(t *testing.T) {
	tests := []struct {
		site, action string
		input        map[string]any
		field, rule  string // the refusal expected; "" means it fires
		warn         string // a warning expected when it fires
	}{
		{"electrician01", callback, map[string]any{"phone": "+64 9 828 7400", "call_window": "morning"}, "full_name", "required", ""},
		{"electrician01", callback, map[string]any{"full_name": strings.Repeat("n", 101), "phone": "021 555", "call_window": "morning"}, "full_name", "max-length", ""},
		{"electrician01", callback, map[string]any{"full_name": "Ana", "phone": "021 555", "call_window": "midnight"}, "call_window", "one-of", ""},
		{"lawfirm01", "lawfirm01:enquiry:enquiry", map[string]any{"full_name": "Jo", "email": "jo@example.org", "practice_area": "Family", "message": "too short", "privacy_consent": true}, "message", "min-length", ""},
		{"lawfirm01", "lawfirm01:enquiry:enquiry", map[string]any{"full_name": "Jo", "email": "jo@example.org", "practice_area": "Family", "message": "Long enough to be a real message.", "privacy_consent": false}, "privacy_consent", "required", ""},
		{"jsbooking01", "jsbooking01:contact:quick-message", map[string]any{"name": "Lou", "email": "not an email", "message": "Hi"}, "email", "format", ""},
		// An email input takes one address, as a browser's does without
		// the multiple attribute, which the action does not record: a list
		// would have the site write to another recipient (it passed before).
		{"jsbooking01", "jsbooking01:contact:quick-message", map[string]any{"name": "Lou", "email": "lou@example.org,eve@example.net", "message": "Hi"}, "email", "format", ""},
		{"jsonld01", "jsonld01:booking:table-request", map[string]any{"date": "2026-12-24", "time": "19:00", "party": 11, "name": "Ivy", "email": "ivy@example.org", "phone": "0362247788"}, "party", "max", ""},
		{"jsonld01", "jsonld01:booking:table-request", map[string]any{"date": "2026-12-24", "time": "19:00", "party": 2.5, "name": "Ivy", "email": "ivy@example.org", "phone": "0362247788"}, "party", "step", ""},
		{"jsonld01", "jsonld01:booking:table-request", map[string]any{"date": "24/12/2026", "time": "19:00", "party": 2, "name": "Ivy", "email": "ivy@example.org", "phone": "0362247788"}, "date", "format", ""},
		// The phone's tel format is only inferred: it warns and fires.
		{"electrician01", callback, map[string]any{"full_name": "Ana", "phone": "call me maybe", "call_window": "evening"}, "", "", "phone"},
	}
	for _, tt := range tests {
		t.Run(tt.site+"/"+tt.field+"/"+tt.rule, func(t *testing.T) {
			srv, graph := site(t, tt.site)
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, tt.action), Input: tt.input})
			subs := submissions(t, srv, tt.site)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Execute: %v", err)
				}
				if len(subs) != 1 {
					t.Errorf("%d submissions, want 1", len(subs))
				}
				if !slices.ContainsFunc(res.Warnings, func(w string) bool {
					return strings.Contains(w, strconv.Quote(tt.warn)) && strings.Contains(w, "not enforced")
				}) {
					t.Errorf("warnings %q, want one about %s", res.Warnings, tt.warn)
				}
				return
			}
			var re *executor.RefusedError
			if !errors.As(err, &re) || !errors.Is(err, executor.ErrInvalidInput) {
				t.Fatalf("err = %v, want an input refusal", err)
			}
			if len(re.Reasons) != 1 || re.Reasons[0].Field != tt.field || re.Reasons[0].Rule != tt.rule {
				t.Errorf("reasons %v, want exactly %s/%s", re.Reasons, tt.field, tt.rule)
			}
			if msg := re.Reasons[0].Detail; !strings.Contains(msg, tt.field) {
				t.Errorf("message %q does not name the field", msg)
			}
			if len(subs) != 0 {
				t.Errorf("%d submissions, want 0", len(subs))
			}
		})
	}
}

// TestBadInput: whatever an agent sends, it gets a typed error and nothing
// is fired.
func TestBadInput(t *testing.T) {
	huge := map[string]any{}
	for i := range executor.MaxInputKeys + 1 {
		huge["k"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26)] = "v"
	}
	tests := []struct {
		name   string
		input  map[string]any
		action func([]byte) []byte
		want   error
		rule   string
	}{
		{"object for a string", map[string]any{"full_name": map[string]any{"a": 1}, "phone": "1", "call_window": "morning"}, nil, executor.ErrInvalidInput, "type"},
		{"list for a string", map[string]any{"full_name": []any{"a"}, "phone": "1", "call_window": "morning"}, nil, executor.ErrInvalidInput, "type"},
		{"boolean for a string", map[string]any{"full_name": true, "phone": "1", "call_window": "morning"}, nil, executor.ErrInvalidInput, "type"},
		{"oversized value", map[string]any{"full_name": "Ana", "phone": "1", "call_window": "morning", "about": strings.Repeat("x", executor.MaxValueBytes+1)}, nil, executor.ErrInvalidInput, "size"},
		{"invalid UTF-8", map[string]any{"full_name": "Ana\xff", "phone": "1", "call_window": "morning"}, nil, executor.ErrInvalidInput, "encoding"},
		{"unknown key", map[string]any{"full_name": "Ana", "phone": "1", "call_window": "morning", "<script>": "x"}, nil, executor.ErrUnknownInput, "unknown"},
		{"honeypot from the agent", map[string]any{"full_name": "Ana", "phone": "1", "call_window": "morning", "website": "http://spam"}, nil, executor.ErrInvalidInput, "agent-fillable"},
		{"too many keys", huge, nil, executor.ErrInvalidInput, "size"},
		{"huge action", goodCallback(), func(b []byte) []byte {
			return append(b[:len(b)-2:len(b)-2], append(bytes.Repeat([]byte(" "), executor.MaxActionBytes), '}')...)
		}, executor.ErrInvalidInput, "size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, graph := site(t, "electrician01")
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			action := confirmed(t, st, graph, callback)
			if tt.action != nil {
				action = tt.action(action)
			}
			_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: tt.input})
			var re *executor.RefusedError
			if !errors.As(err, &re) || !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want a refusal matching %v", err, tt.want)
			}
			if !slices.ContainsFunc(re.Reasons, func(r executor.Reason) bool { return r.Rule == tt.rule }) {
				t.Errorf("reasons %v lack rule %s", re.Reasons, tt.rule)
			}
			assertRefusals(t, st, auditedID(re), 1, tt.rule+"]")
			if len(err.Error()) > 20000 {
				t.Errorf("the error is %d bytes long: agent-chosen text must be bounded", len(err.Error()))
			}
			if n := len(submissions(t, srv, "electrician01")); n != 0 {
				t.Errorf("%d submissions, want 0", n)
			}
			if atts, _ := st.Attempts(t.Context(), callback); len(atts) != 0 {
				t.Errorf("%d attempts begun, want 0", len(atts))
			}
		})
	}
}

// TestHugeActionWithABadKeyIsAudited: an action over MaxActionBytes called
// with an idempotency key the store cannot keep (a NUL byte, bytes that are
// not UTF-8, over 256 bytes) is refused for both, and the refusal is
// audited, without the key. Before, the action's size was refused first,
// under the key as given, which the store refused: the refusal was
// returned but left no trace ("the refusal could not be audited").
func TestHugeActionWithABadKeyIsAudited(t *testing.T) {
	for _, tt := range []struct{ name, key string }{
		{"NUL byte", "order-1\x00"},
		{"invalid UTF-8", "order-\xff"},
		{"too long", strings.Repeat("k", 257)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, graph := site(t, "electrician01")
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			action := confirmed(t, st, graph, callback)
			action = append(action[:len(action)-2:len(action)-2], append(bytes.Repeat([]byte(" "), executor.MaxActionBytes), '}')...)
			_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: tt.key})
			var re *executor.RefusedError
			if !errors.As(err, &re) || !errors.Is(err, executor.ErrInvalidInput) {
				t.Fatalf("err = %v, want a refusal matching ErrInvalidInput", err)
			}
			var got []string
			for _, r := range re.Reasons {
				got = append(got, r.Code+"["+r.Field+"/"+r.Rule+"]")
			}
			want := []string{executor.ReasonInvalidInput + "[idempotencyKey/size]", executor.ReasonActionTooLarge + "[/size]"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
			rs, rerr := st.Refusals(t.Context(), executor.UnreadableActionID)
			if rerr != nil || len(rs) != 1 || rs[0].IdempotencyKey != "" {
				t.Errorf("refusals audited: %+v (%v), want one, without the key; the call returned %v", rs, rerr, err)
			}
			if n := len(submissions(t, srv, "electrician01")); n != 0 {
				t.Errorf("%d submissions, want 0", n)
			}
		})
	}
}

// TestRefusalOfAnyKeyIsAudited: an unknown key holding a NUL byte or bytes
// that are not UTF-8 is refused and the refusal is audited, its field
// quoted (on the code before, the field kept the NUL, the store refused
// the text, and the refusal left no trace: "the refusal could not be
// audited").
func TestRefusalOfAnyKeyIsAudited(t *testing.T) {
	tests := []struct {
		name, key string
		field     string // the Reason's Field
	}{
		{"NUL byte", "colour\x00", `"colour\x00"`},
		{"invalid UTF-8", "col\xffour", `"col\xffour"`},
		{"NUL and invalid UTF-8", "\x00\xfe\xff", `"\x00\xfe\xff"`},
		{"control character", "red\x1b[0m", `"red\x1b[0m"`},
		{"plain", "colour", "colour"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
				srv, graph := site(t, "electrician01")
				ex := newExecutor(t, st, executor.Options{})
				input := goodCallback()
				input[tt.key] = "blue"
				_, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: input})
				var re *executor.RefusedError
				if !errors.As(err, &re) || !errors.Is(err, executor.ErrUnknownInput) {
					t.Fatalf("err = %v, want a refusal matching ErrUnknownInput", err)
				}
				if errors.Is(err, audit.ErrInvalid) || strings.Contains(err.Error(), "could not be audited") {
					t.Fatalf("the refusal was not audited: %v", err)
				}
				if len(re.Reasons) != 1 || re.Reasons[0].Field != tt.field || re.Reasons[0].Rule != "unknown" {
					t.Fatalf("reasons %q, want one naming %s", re.Reasons, tt.field)
				}
				for _, r := range re.Reasons {
					if s := r.String(); strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
						t.Errorf("reason %q holds a NUL byte or is not UTF-8", s)
					}
				}
				rs, err := st.Refusals(t.Context(), callback)
				if err != nil {
					t.Fatal(err)
				}
				if len(rs) != 1 {
					t.Fatalf("%d refusals audited, want 1", len(rs))
				}
				want := []string{re.Reasons[0].String()}
				if diff := cmp.Diff(want, rs[0].Reasons); diff != "" {
					t.Errorf("audited reasons (-want +got):\n%s", diff)
				}
				if n := len(submissions(t, srv, "electrician01")); n != 0 {
					t.Errorf("%d submissions, want 0", n)
				}
			})
		})
	}
}

// withoutMaxLength returns graph with every action's max-length rules
// removed, so that values up to MaxValueBytes pass.
func withoutMaxLength(t *testing.T, graph []byte) []byte {
	t.Helper()
	g, issues := shared.Read(graph)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	for i := range g.Actions {
		a := &g.Actions[i]
		a.Validations = slices.DeleteFunc(a.Validations, func(v shared.Validation) bool {
			switch x := v.(type) {
			case shared.DeclaredValidation:
				return x.Rule.Kind == shared.RuleMaxLength
			case shared.InferredValidation:
				return x.Rule.Kind == shared.RuleMaxLength
			}
			return false
		})
	}
	out, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRequestRecordBound: input within the documented bounds fits the
// audit record — it is kept without HTML escaping, so a value of '<' is
// not recorded six times its size (on the code before, three 64 KiB values
// of '<' made a record over audit.MaxRequest, BeginAttempt failed with a
// plain error and nothing was audited) — and a request whose record is
// truly over the bound is a refusal (rule size, naming the bound),
// audited, with nothing sent.
func TestRequestRecordBound(t *testing.T) {
	fill := func(c string) map[string]any {
		in := goodCallback()
		for _, k := range []string{"full_name", "suburb", "about"} {
			in[k] = strings.Repeat(c, executor.MaxValueBytes)
		}
		return in
	}
	tests := []struct {
		name    string
		input   map[string]any
		refused bool
	}{
		{"three 64 KiB values of '<'", fill("<"), false},
		{"three 64 KiB values of '&'", fill("&"), false},
		// A control character is recorded as \u0001 whatever the encoder:
		// 3 × 64 KiB × 6 bytes is over 1 MiB.
		{"three 64 KiB values of U+0001", fill("\x01"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
				srv, graph := site(t, "electrician01")
				ex := newExecutor(t, st, executor.Options{})
				action := confirmed(t, st, withoutMaxLength(t, graph), callback)
				_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: tt.input})
				atts, aerr := st.Attempts(t.Context(), callback)
				if aerr != nil {
					t.Fatal(aerr)
				}
				subs := submissions(t, srv, "electrician01")
				if !tt.refused {
					if err != nil {
						t.Fatalf("Execute: %v", err)
					}
					if len(atts) != 1 || len(atts[0].Request) > audit.MaxRequest || !bytes.Contains(atts[0].Request, []byte(strings.Repeat(tt.input["about"].(string)[:1], 64))) {
						t.Fatalf("attempts %d, want one whose record (at most %d bytes) holds the values unescaped", len(atts), audit.MaxRequest)
					}
					if len(subs) != 1 {
						t.Errorf("%d submissions, want 1", len(subs))
					}
					assertRefusals(t, st, callback, 0, "")
					return
				}
				var re *executor.RefusedError
				if !errors.As(err, &re) || !errors.Is(err, executor.ErrInvalidInput) || !errors.Is(err, executor.ErrRefused) {
					t.Fatalf("err = %v, want a refusal matching ErrInvalidInput", err)
				}
				if len(re.Reasons) != 1 || re.Reasons[0].Rule != "size" || !strings.Contains(re.Reasons[0].Detail, strconv.Itoa(audit.MaxRequest)) {
					t.Errorf("reasons %v, want one of rule size naming %d", re.Reasons, audit.MaxRequest)
				}
				assertRefusals(t, st, callback, 1, "size]")
				if len(atts) != 0 || len(subs) != 0 {
					t.Errorf("%d attempts, %d submissions; want none", len(atts), len(subs))
				}
			})
		})
	}
}

// TestUnknownAction: ActionBytes of an id the graph does not have.
func TestUnknownAction(t *testing.T) {
	_, graph := site(t, "electrician01")
	_, err := executor.ActionBytes(graph, "electrician01:nope")
	var ue *executor.UnknownActionError
	if !errors.Is(err, executor.ErrUnknownAction) || !errors.As(err, &ue) || !slices.Contains(ue.Known, callback) {
		t.Fatalf("err = %v", err)
	}
	if _, err := executor.ActionBytes([]byte(`{"not": "a graph"}`), callback); !errors.Is(err, shared.ErrInvalidGraph) {
		t.Errorf("a non-graph: err = %v", err)
	}
}

// TestActionBytesVerbatim: the bytes are the document's own, not a
// re-encoding.
func TestActionBytesVerbatim(t *testing.T) {
	_, graph := site(t, "electrician01")
	b, err := executor.ActionBytes(graph, callback)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(graph, b) || !bytes.HasPrefix(b, []byte("{")) {
		t.Fatalf("ActionBytes is not a slice of the document")
	}
	if a, issues := shared.ReadAction(b); len(issues) > 0 || a.ID != callback {
		t.Fatalf("read %v %v", a, issues)
	}
}

// auditedID is the action id a refusal is audited under.
func auditedID(re *executor.RefusedError) string {
	if re.ActionID == "" {
		return executor.UnreadableActionID
	}
	return re.ActionID
}

// TestRefuse: a refusal decided in front of the executor is audited as
// Execute audits its own — under its action, with the key the store can
// keep, its texts made storable — and returned as audited.
func TestRefuse(t *testing.T) {
	for _, tt := range []struct {
		name, actionID, key string
		reasons             []executor.Reason
		wantID, wantKey     string
		want                []string // the reasons audited
	}{
		{name: "an argument", actionID: callback, key: "order-1",
			reasons: []executor.Reason{{Code: executor.ReasonInvalidInput, Field: "phone", Rule: "type", Detail: "argument \"phone\": got number, want string"}},
			wantID:  callback, wantKey: "order-1", want: []string{`input.invalid[phone/type]: argument "phone": got number, want string`}},
		{name: "a key the store cannot keep, a field it cannot either", actionID: callback, key: "order\x00",
			reasons: []executor.Reason{{Code: executor.ReasonUnknownInput, Field: "col\xffour\x00", Detail: "x"}},
			wantID:  callback, wantKey: "", want: []string{`input.unknown[col\xffour\x00]: x`}},
		{name: "no action, no reason", wantID: executor.UnreadableActionID,
			want: []string{"gate.internal-error: refused without a reason given; report this as a bug"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			re, err := ex.Refuse(t.Context(), tt.actionID, tt.key, tt.reasons)
			if err != nil {
				t.Fatal(err)
			}
			if !errors.Is(re, executor.ErrRefused) {
				t.Errorf("%v does not match ErrRefused", re)
			}
			rs, err := st.Refusals(t.Context(), tt.wantID)
			if err != nil || len(rs) != 1 {
				t.Fatalf("refusals under %q: %+v (%v), want one", tt.wantID, rs, err)
			}
			var returned []string
			for _, r := range re.Reasons {
				returned = append(returned, r.String())
			}
			if diff := cmp.Diff(tt.want, rs[0].Reasons); diff != "" {
				t.Errorf("audited (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, returned); diff != "" {
				t.Errorf("returned (-want +got):\n%s", diff)
			}
			if rs[0].IdempotencyKey != tt.wantKey {
				t.Errorf("audited under key %q, want %q", rs[0].IdempotencyKey, tt.wantKey)
			}
		})
	}
}

// TestRefusalOfAHugeActionIDIsAudited: an action whose id is longer than
// the audit store keeps (audit.MaxText) is refused and the refusal audited,
// filed under the id's start and the SHA-256 of the whole, which the
// returned refusal names too. Before, the store refused the record (the
// refusal was returned but left no trace) and the error quoted the whole
// id, 70 KiB of it.
func TestRefusalOfAHugeActionIDIsAudited(t *testing.T) {
	srv, graph := site(t, "electrician01")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action := confirmed(t, st, graph, callback)
	long := callback + strings.Repeat("x", 70<<10)
	action = bytes.Replace(action, []byte(`"`+callback+`"`), []byte(`"`+long+`"`), 1)
	_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
	var re *executor.RefusedError
	if !errors.As(err, &re) || !errors.Is(err, shared.ErrUnverifiedAction) {
		t.Fatalf("err = %.300v, want the gate's refusal", err)
	}
	if strings.Contains(err.Error(), "could not be audited") || len(err.Error()) > 20000 {
		t.Errorf("err is %d bytes and ends %q: want it audited and bounded", len(err.Error()), err.Error()[max(0, len(err.Error())-200):])
	}
	if !strings.HasPrefix(re.ActionID, callback) || len(re.ActionID) > 2<<10 || !strings.Contains(re.ActionID, "sha256") {
		t.Errorf("the refusal names action %.300q, want the id's start and its digest", re.ActionID)
	}
	if rs, err := st.Refusals(t.Context(), re.ActionID); err != nil || len(rs) != 1 {
		t.Errorf("refusals filed under the name given: %d (%v), want 1", len(rs), err)
	}
	if n := len(submissions(t, srv, "electrician01")); n != 0 {
		t.Errorf("%d submissions, want 0", n)
	}
}
