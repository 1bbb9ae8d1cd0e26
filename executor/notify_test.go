package executor_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/shared"
)

type hook struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	sigs   []string
}

func newHook(t *testing.T, status func(try int) int, delay time.Duration) *hook {
	t.Helper()
	h := &hook{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.bodies = append(h.bodies, b)
		h.sigs = append(h.sigs, r.Header.Get("X-Frontlatch-Signature"))
		n := len(h.bodies)
		h.mu.Unlock()
		time.Sleep(delay)
		w.WriteHeader(status(n))
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hook) received() ([][]byte, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([][]byte(nil), h.bodies...), append([]string(nil), h.sigs...)
}

// TestNotify: after each firing the owner's webhook gets a signed POST,
// retried with backoff a bounded number of times; a failing webhook never
// un-fires or re-fires the action; Close waits for what is pending.
func TestNotify(t *testing.T) {
	secret := []byte("s3cret")
	tests := []struct {
		name      string
		status    func(try int) int
		wantTries int
	}{
		{"answered", func(int) int { return 204 }, 1},
		{"fails twice then answers", func(n int) int {
			if n < 3 {
				return 503
			}
			return 200
		}, 3},
		{"always fails", func(int) int { return 500 }, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hk := newHook(t, tt.status, 50*time.Millisecond)
			srv, graph := site(t, "electrician01")
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Notify: executor.NotifyOptions{Secret: secret, MaxTries: 4, Backoff: 5 * time.Millisecond}})
			action := executortest.ConfirmAction(t, st, graph, callback, executortest.Limits(10, shared.PerDay, hk.URL+"/hook"))
			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
			if err != nil {
				t.Fatal(err)
			}
			if err := ex.Close(); err != nil {
				t.Fatal(err)
			}
			bodies, sigs := hk.received()
			if len(bodies) != tt.wantTries {
				t.Fatalf("the webhook was tried %d times, want %d", len(bodies), tt.wantTries)
			}
			for i, b := range bodies {
				m := hmac.New(sha256.New, secret)
				m.Write(b)
				if want := "sha256=" + hex.EncodeToString(m.Sum(nil)); sigs[i] != want {
					t.Errorf("try %d signature %q, want %q", i+1, sigs[i], want)
				}
				var n executor.Notification
				if err := json.Unmarshal(b, &n); err != nil || n.AttemptID != res.AttemptID || n.ActionID != callback || n.Event != "action.fired" || n.Status != res.Status {
					t.Errorf("try %d body %s (%v)", i+1, b, err)
				}
			}
			if n := len(submissions(t, srv, "electrician01")); n != 1 {
				t.Errorf("the action fired %d times, want 1 whatever the webhook did", n)
			}
			atts, err := st.Attempts(t.Context(), callback)
			if err != nil || len(atts) != 1 || atts[0].Completed == nil || atts[0].Completed.Outcome != "fired" {
				t.Errorf("attempts %+v %v, want one fired", atts, err)
			}
			assertNotifications(t, st, res.AttemptID, tt.wantTries)
		})
	}
}

// TestNotifyNotSent: targets the executor does not send to are recorded
// as not sent, with the reason — with the completion, so the record is
// there when Execute returns — and the firing stands.
func TestNotifyNotSent(t *testing.T) {
	tests := []struct {
		name, target string
		secret       []byte
		want         string
	}{
		{"email", "owner@example.test", []byte("x"), executor.NotSentEmail},
		{"webhook without a secret", "http://127.0.0.1:1/hook", nil, executor.NotSentNoSecret},
		{"neither", "call the front desk", []byte("x"), executor.NotSentTarget},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, graph := site(t, "electrician01")
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Notify: executor.NotifyOptions{Secret: tt.secret}})
			action := executortest.ConfirmAction(t, st, graph, callback, executortest.Limits(10, shared.PerDay, tt.target))
			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
			if err != nil {
				t.Fatal(err)
			}
			assertNotSent(t, st, res.AttemptID, tt.want) // before Close: nothing is left pending
			_ = ex.Close()
			if n := len(submissions(t, srv, "electrician01")); n != 1 {
				t.Errorf("%d submissions", n)
			}
			assertNotSent(t, st, res.AttemptID, tt.want)
		})
	}
}

// TestNotifyRecordFailureLogged: a webhook try the audit store does not
// take (here: the store closed while the try was out) is said through
// Options.Logger, with the attempt and the try, not dropped.
func TestNotifyRecordFailureLogged(t *testing.T) {
	hk := newHook(t, func(int) int { return 204 }, 300*time.Millisecond)
	_, graph := site(t, "electrician01")
	st := openStore(t)
	var logged lockedBuffer
	ex := newExecutor(t, st, executor.Options{Notify: executor.NotifyOptions{Secret: []byte("s3cret"), MaxTries: 1},
		Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	action := executortest.ConfirmAction(t, st, graph, callback, executortest.Limits(10, shared.PerDay, hk.URL+"/hook"))
	res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ex.Close(); err != nil {
		t.Fatal(err)
	}
	out := logged.String()
	for _, want := range []string{"was not recorded in the audit store", "attempt=" + res.AttemptID, "try=1", "status=204"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log does not say %q:\n%s", want, out)
		}
	}
}
