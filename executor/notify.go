package executor

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// SignatureHeader carries a webhook's HMAC-SHA256 signature: "sha256=" and
// the lower-case hex HMAC of the body under NotifyOptions.Secret.
const SignatureHeader = "X-Frontlatch-Signature"

// Texts recorded (store.RecordNotification) for targets that are not sent to.
const (
	NotSentEmail     = "not sent: email notification needs a mail relay"
	NotSentNoSecret  = "not sent: no webhook signing secret is configured (Options.Notify.Secret)"
	NotSentBusy      = "not sent: too many notifications pending"
	NotSentTarget    = "not sent: the notify target is neither an http(s) URL nor an email address"
	notifyMaxExcerpt = 2 << 10
)

// NotifyOptions configures the webhook sent to the confirmation's notify
// target after each firing.
type NotifyOptions struct {
	// Secret signs every webhook body (SignatureHeader). Without it no
	// webhook is sent (and that is recorded).
	Secret []byte
	// MaxTries bounds the tries of one notification (default 4).
	MaxTries int
	// Backoff is the wait before the second try, doubled before each next
	// one (default 500ms), up to MaxBackoff (default 30s).
	Backoff, MaxBackoff time.Duration
	// Timeout bounds one try (default 10s).
	Timeout time.Duration
	// MaxPending bounds the notifications in flight (default 64); beyond it
	// a notification is recorded as not sent rather than queued without
	// bound.
	MaxPending int
	// HTTPClient sends the webhooks (default: a client that follows no
	// redirect).
	HTTPClient *http.Client
}

// Notification is the JSON body of the webhook.
type Notification struct {
	Event     string                  `json:"event"` // "action.fired"
	AttemptID string                  `json:"attemptId"`
	ActionID  string                  `json:"actionId"`
	Endpoint  string                  `json:"endpoint"`
	Status    int                     `json:"status"`
	Sent      []shared.SubmittedField `json:"sent"`
	At        string                  `json:"at"`
}

type notifier struct {
	o      NotifyOptions
	store  *audit.Store
	now    func() time.Time
	client *http.Client
	slots  chan struct{}
	wg     sync.WaitGroup
	sleep  func(context.Context, time.Duration) bool
	log    *slog.Logger
}

func newNotifier(o NotifyOptions, store *audit.Store, now func() time.Time, log *slog.Logger) *notifier {
	if o.MaxTries <= 0 {
		o.MaxTries = 4
	}
	if o.Backoff <= 0 {
		o.Backoff = 500 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 30 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxPending <= 0 {
		o.MaxPending = 64
	}
	c := o.HTTPClient
	if c == nil {
		c = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return &notifier{o: o, store: store, now: now, client: c, slots: make(chan struct{}, o.MaxPending), sleep: sleepCtx, log: log}
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Sign returns the SignatureHeader value of body under secret.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// later records a "not sent" in the background (bounded like the webhooks;
// when every slot is busy it is recorded at once), so the caller does not
// wait for the write.
func (n *notifier) later(attemptID, text string) {
	select {
	case n.slots <- struct{}{}:
	default:
		n.record(attemptID, 1, 0, text)
		return
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer func() { <-n.slots }()
		n.record(attemptID, 1, 0, text)
	}()
}

func (n *notifier) record(attemptID string, try, status int, text string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := n.store.RecordNotification(ctx, attemptID, try, status, text, n.now().UTC()); err != nil {
		// The firing itself is recorded; what is lost is this try's line
		// in the audit, so it is said where an operator reads.
		n.log.Error("executor: a notification try was not recorded in the audit store",
			"attempt", attemptID, "try", try, "status", status, "outcome", text, "err", err)
	}
}

// notSent returns why a firing will not be sent to target ("not sent: …"),
// or "" when it gets a webhook. The executor records a "not sent" with the
// attempt's completion, in one write.
func (n *notifier) notSent(target *string) string {
	t := ""
	if target != nil {
		t = strings.TrimSpace(*target)
	}
	u, err := url.Parse(t)
	isURL := err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	switch {
	case !isURL:
		if a, err := mail.ParseAddress(strings.TrimPrefix(t, "mailto:")); err == nil && a.Address != "" {
			return NotSentEmail
		}
		return NotSentTarget
	case len(n.o.Secret) == 0:
		return NotSentNoSecret
	}
	return ""
}

// send notifies target of a firing in the background. It never touches the
// attempt: a failing webhook cannot un-fire or re-fire the action.
func (n *notifier) send(attemptID, actionID string, target *string, res *Result) {
	if text := n.notSent(target); text != "" {
		n.later(attemptID, text)
		return
	}
	t := strings.TrimSpace(*target)
	body, err := json.Marshal(Notification{Event: "action.fired", AttemptID: attemptID, ActionID: actionID,
		Endpoint: res.Endpoint, Status: res.Status, Sent: res.Sent, At: string(shared.TimestampOf(n.now()))})
	if err != nil {
		n.record(attemptID, 1, 0, "not sent: "+err.Error())
		return
	}
	select {
	case n.slots <- struct{}{}:
	default:
		n.record(attemptID, 1, 0, NotSentBusy)
		return
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer func() { <-n.slots }()
		n.deliver(attemptID, t, body)
	}()
}

// deliver tries a webhook up to MaxTries times with exponential backoff,
// recording each try.
func (n *notifier) deliver(attemptID, target string, body []byte) {
	sig := Sign(n.o.Secret, body)
	wait := n.o.Backoff
	for try := 1; try <= n.o.MaxTries; try++ {
		status, err := n.post(target, body, sig)
		text := ""
		if err != nil {
			text = err.Error()
		}
		n.record(attemptID, try, status, text)
		if err == nil {
			return
		}
		if try == n.o.MaxTries {
			return
		}
		n.sleep(context.Background(), wait)
		wait = min(wait*2, n.o.MaxBackoff)
	}
}

func (n *notifier) post(target string, body []byte, sig string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), n.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(SignatureHeader, sig)
	resp, err := n.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, notifyMaxExcerpt))
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("the webhook answered %s", resp.Status)
	}
	return resp.StatusCode, nil
}

func (n *notifier) wait() { n.wg.Wait() }
