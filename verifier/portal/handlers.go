package portal

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// handleReport is the first page: the readiness report of the graph as it
// is on disk now.
func (s *Server) handleReport(w http.ResponseWriter, r *http.Request) {
	g, err := ReadGraphFile(r.Context(), s.o.GraphPath)
	if err != nil {
		s.graphFailure(w, err)
		return
	}
	rep := BuildReport(g, s.unconfirmed(r.Context(), g))
	s.write(w, http.StatusOK, reportPage, "Readiness report for "+rep.SiteName, rep)
}

func (s *Server) graphFailure(w http.ResponseWriter, err error) {
	var ge *GraphError
	var reasons []string
	if errors.As(err, &ge) {
		for _, is := range ge.Issues {
			reasons = append(reasons, is.String())
		}
	}
	s.message(w, http.StatusInternalServerError, "The graph does not read", err.Error(), reasons)
}

// handleAction is an action's confirmation page.
func (s *Server) handleAction(w http.ResponseWriter, r *http.Request) {
	g, err := ReadGraphFile(r.Context(), s.o.GraphPath)
	if err != nil {
		s.graphFailure(w, err)
		return
	}
	id := r.PathValue("id")
	i, err := findAction(s.o.GraphPath, g, id)
	if err != nil {
		s.message(w, http.StatusNotFound, "No such action", fmt.Sprintf("The graph has no action %q.", id), nil, "/", "Back to the readiness report")
		return
	}
	v, err := s.confirmViewOf(r.Context(), g, i, formView{Max: "10", Per: string(shared.PerDay)})
	if err != nil {
		s.message(w, http.StatusInternalServerError, "This action cannot be shown", err.Error(), nil, "/", "Back to the readiness report")
		return
	}
	s.write(w, http.StatusOK, actionPage, "Confirm "+g.Actions[i].Label, v)
}

// unconfirmed is shared.RefusedActions of g against the portal's store,
// for the report and the action pages: a confirmation the file states and
// the store does not hold is not shown as live. A lookup that fails
// refuses (its reason says so), and so does every action the store was
// not asked about when the lookups were cut short (RefusedActions names
// them: its error adds nothing the page shows). An action page asks for
// its one action (g of that action alone), not for all. The lookups are
// bounded by Options.StoreTimeout, as every store call is: a store that
// hangs makes the page say so instead of hanging it.
func (s *Server) unconfirmed(ctx context.Context, g *shared.ActionGraph) map[string]string {
	ctx, cancel := context.WithTimeout(ctx, s.o.StoreTimeout)
	defer cancel()
	refused, _ := shared.RefusedActions(ctx, g, s.o.Store)
	return refused
}

// confirmViewOf builds the page of g.Actions[i] with a fresh nonce; the
// form keeps the owner's entries of f.
func (s *Server) confirmViewOf(ctx context.Context, g *shared.ActionGraph, i int, f formView) (confirmView, error) {
	a := &g.Actions[i]
	subject, canon, shown, err := shownSubject(a)
	if err != nil {
		return confirmView{}, err
	}
	pd, err := pageDigestsOf(g, i)
	if err != nil {
		return confirmView{}, err
	}
	gr := shared.GraphCompleteness(g)
	v := confirmView{
		Action:     actionReport(a, gr.PerAction[i].Report, originOf(g.Site.URL), s.unconfirmed(ctx, &shared.ActionGraph{Actions: g.Actions[i : i+1]})[a.ID]),
		Disclosure: disclosureViewOf(a),
		Inputs:     inputsViewOf(a),
		Runs:       runsViewOf(a),
		Subject:    canon,
	}
	if vs, ok := a.Verification.(shared.Verified); ok && v.Action.Unconfirmed == "" {
		v.Live = limitsWords(vs.Confirmation.Limits) + " (confirmed by " + vs.Confirmation.ConfirmedBy + ", " + string(vs.Confirmation.ConfirmedAt) + ")"
	}
	f.Nonce, f.CSRF = s.issue(a.ID, shown, subject, pd)
	f.Shown = shown
	f.Action = actionPath(a.ID)
	f.Periods = periodOptions(f.Per)
	v.Form = f
	return v, nil
}

// confirmedView is the page after a confirmation.
type confirmedView struct {
	Label, By, At, Limits, Ref, Digest string
	// NotRevoked is the audit record of the confirmation this one replaces
	// when the store could not revoke it (NotRevokedErr says why).
	NotRevoked, NotRevokedErr string
}

// handleConfirm records the owner's confirmation. In order: the request
// must come from this server's own page (Origin, Sec-Fetch-Site), carry the
// session's CSRF token and an unused nonce issued for this action; the
// limits must be usable; the action on disk now, with the submitted limits,
// must have the digest of what was shown with them, and the rest of its
// page (fields, test runs, the action's bytes) must be what was shown
// (pageDigests). Only then is the audit
// record written, the result checked against the consent gate with the
// store, and the graph rewritten atomically; after that, the confirmation
// it replaces, if any, is revoked. Any refusal writes nothing to the graph
// and revokes nothing.
func (s *Server) handleConfirm(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	back := actionPath(id)
	refuse := func(status int, err error) {
		var re *RefusedError
		text := err.Error()
		if errors.As(err, &re) {
			text = re.Detail
		}
		s.message(w, status, "Nothing was confirmed", text, nil, back, "Open the action's page again")
	}
	if err := sameOrigin(r); err != nil {
		refuse(http.StatusForbidden, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		status := http.StatusBadRequest
		if _, big := errors.AsType[*http.MaxBytesError](err); big {
			status = http.StatusRequestEntityTooLarge
		}
		refuse(status, &RefusedError{Reason: RefuseBadRequest, Detail: "the form could not be read: " + err.Error()})
		return
	}
	if !s.checkCSRF(r.PostForm.Get("csrf")) {
		refuse(http.StatusForbidden, &RefusedError{Reason: RefuseCSRF, Detail: "the form's security token is not this session's"})
		return
	}
	is, ok := s.redeem(r.PostForm.Get("nonce"))
	if !ok {
		refuse(http.StatusConflict, &RefusedError{Reason: RefuseReplay, Detail: "this form was already sent, has expired, or was never issued by this server; open the action's page again"})
		return
	}
	if is.ActionID != id {
		refuse(http.StatusConflict, &RefusedError{Reason: RefuseWrongAction, Detail: "this form was issued for another action"})
		return
	}

	s.graphMu.Lock()
	defer s.graphMu.Unlock()
	g, was, err := readGraph(r.Context(), s.o.GraphPath)
	if err != nil {
		s.graphFailure(w, err)
		return
	}
	i, err := findAction(s.o.GraphPath, g, id)
	if err != nil {
		s.message(w, http.StatusNotFound, "No such action", fmt.Sprintf("The graph has no action %q any more; nothing was confirmed.", id), nil, "/", "Back to the readiness report")
		return
	}
	a := &g.Actions[i]

	f := formView{Name: r.PostForm.Get("confirmedBy"), Max: r.PostForm.Get("capMax"), Per: r.PostForm.Get("capPer"), Notify: r.PostForm.Get("notify")}
	limits, by, problems := parseLimits(f)
	if len(problems) > 0 {
		f.Errors = problems
		v, err := s.confirmViewOf(r.Context(), g, i, f)
		if err != nil {
			refuse(http.StatusInternalServerError, err)
			return
		}
		s.write(w, http.StatusUnprocessableEntity, actionPage, "Confirm "+a.Label, v)
		return
	}

	// What was shown, with the submitted limits, against the action on disk
	// now, with the same limits: a graph changed since the page was shown,
	// or a forged "shown" field, refuses.
	shownWith := is.Subject
	shownWith.Limits = limits
	now := shared.ConsentSubjectOf(a, limits)
	dShown, err1 := shared.ConsentDigest(shownWith)
	dNow, err2 := shared.ConsentDigest(now)
	_, _, dNowEmpty, err3 := shownSubject(a)
	pageNow, err4 := pageDigestsOf(g, i)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		refuse(http.StatusInternalServerError, err)
		return
	}
	var changes []string
	for _, c := range shared.CompareConsent(shownWith, now) {
		changes = append(changes, changeWords(c))
	}
	changes = append(changes, is.Page.changes(pageNow, len(changes) > 0)...)
	if !subtleEqual(r.PostForm.Get("shown"), is.Shown) || dShown != dNow || dNowEmpty != is.Shown || len(changes) > 0 {
		if len(changes) == 0 {
			changes = append(changes, "the page's fingerprint of what you were shown does not match what this server showed")
		}
		s.message(w, http.StatusConflict, "Nothing was confirmed", "What this action does is not what the page showed you (the graph changed since, or the form was altered). Open the page again and review it as it is now.", changes, back, "Review the action as it is now")
		return
	}

	conf := verifier.Confirmation{By: by, At: s.o.Now(), Method: shared.ConfirmedOwnerPortal, Limits: limits, Digest: dShown}
	ctx, cancel := context.WithTimeout(r.Context(), s.o.StoreTimeout)
	defer cancel()
	// Ask the gate first, on a dry run that records nothing: an action the
	// gate would refuse anyway (a blank summary, a name that shows nothing)
	// gets no audit record at all.
	dry := &dryRun{}
	trial, _, err := verifier.Confirm(ctx, g, id, conf, dry)
	if err != nil {
		s.confirmFailure(w, err, back)
		return
	}
	if reasons := gateReasons(ctx, trial, id, dry); len(reasons) > 0 {
		s.message(w, http.StatusUnprocessableEntity, "Nothing was confirmed", "This action cannot be confirmed as it stands; nothing was recorded:", reasons, back, "Open the action's page again")
		return
	}
	out, rec, err := verifier.Confirm(ctx, g, id, conf, s.o.Store)
	if err != nil {
		s.confirmFailure(w, err, back)
		return
	}
	if reasons := gateReasons(ctx, out, id, s.o.Store); len(reasons) > 0 {
		s.message(w, http.StatusInternalServerError, "Nothing was confirmed", ErrGate.Error(), reasons, back, "Open the action's page again")
		return
	}
	if err := writeGraphFile(s.o.GraphPath, out, was); err != nil {
		s.message(w, http.StatusConflict, "Nothing was confirmed", "The graph could not be written: "+err.Error(), nil, back, "Open the action's page again")
		return
	}
	// Only now, with the new confirmation in the file, is the one it
	// replaces revoked, so that putting the old one back into the file
	// (with its older, perhaps looser, limits) cannot pass the gate. Before
	// this point a refusal leaves the old confirmation live, as the page
	// says. A record the store does not hold for this action (ErrNotFound:
	// unknown, or another action's, named by an edited file) passes no gate
	// for this action and is not revoked.
	view := confirmedView{Label: a.Label, By: by, At: string(rec.ConfirmedAt), Limits: limitsWords(limits), Ref: rec.Ref, Digest: rec.Digest}
	if old, ok := a.Verification.(shared.Verified); ok && old.Confirmation.AuditRecord != nil {
		err := s.o.Store.RecordRevocation(ctx, audit.Revocation{ActionID: id, Ref: *old.Confirmation.AuditRecord, By: by, At: s.o.Now(),
			Reason: "replaced by the confirmation recorded as " + rec.Ref})
		if err != nil && !errors.Is(err, audit.ErrNotFound) {
			view.NotRevoked = *old.Confirmation.AuditRecord
			view.NotRevokedErr = err.Error()
		}
	}
	s.write(w, http.StatusOK, confirmedPage, "Confirmed "+a.Label, view)
}

// confirmFailure answers an error of verifier.Confirm or of the store:
// nothing was written to the graph.
func (s *Server) confirmFailure(w http.ResponseWriter, err error, back string) {
	if _, isStore := errors.AsType[*audit.StoreError](err); isStore || errors.Is(err, ErrStore) {
		if !errors.Is(err, ErrStore) {
			err = &StoreError{Op: "record confirmation", Err: err}
		}
		s.message(w, http.StatusServiceUnavailable, "Nothing was confirmed", "The audit store could not record your confirmation, so nothing was changed: "+err.Error(), nil, back, "Try again")
		return
	}
	status := http.StatusInternalServerError
	if errors.Is(err, verifier.ErrShownDiffers) {
		status = http.StatusConflict
	}
	s.message(w, status, "Nothing was confirmed", err.Error(), nil, back, "Open the action's page again")
}

// pendingRef stands for the audit record in a dry run.
const pendingRef = "pending"

// dryRun is a Confirmer that records nothing and a lookup that answers for
// the one confirmation it was handed exactly as the store will once that is
// written (the record's own digest, never the query's), so the consent gate
// can be asked before anything is written.
type dryRun struct{ rec audit.Confirmation }

func (d *dryRun) RecordConfirmation(_ context.Context, c audit.Confirmation) (audit.Confirmation, error) {
	c.Ref = pendingRef
	d.rec = c
	return c, nil
}

func (d *dryRun) LookupAudit(_ context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
	r := d.rec
	found := r.Ref != "" && q.Ref == r.Ref && q.ActionID == r.ActionID && q.ConfirmedBy == r.ConfirmedBy && q.ConfirmedAt == r.ConfirmedAt
	return shared.AuditAnswer{Found: found, Digest: r.Digest, Subject: r.Subject}, nil
}

// gateReasons asks the consent gate about action id of g with lookup and
// returns its reasons to refuse, none when it grants.
func gateReasons(ctx context.Context, g *shared.ActionGraph, id string, lookup shared.AuditLookup) []string {
	i, err := findAction("", g, id)
	if err != nil {
		return []string{err.Error()}
	}
	data, err := shared.WriteAction(&g.Actions[i])
	if err != nil {
		return []string{err.Error()}
	}
	err = shared.AssertLiveExecutionAllowedContext(ctx, data, lookup)
	if err == nil {
		return nil
	}
	ue, ok := errors.AsType[*shared.UnverifiedActionError](err)
	if !ok {
		return []string{err.Error()}
	}
	var out []string
	for _, r := range ue.Reasons {
		out = append(out, r.String())
	}
	return out
}
func subtleEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// webAddress reports whether s is an absolute http or https URL with a host:
// somewhere the executor can send a notice.
func webAddress(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// Bounds on what the owner enters.
const (
	maxCap      = 100000
	maxNameLen  = 200
	maxNotifyLn = 2000
)

// parseLimits reads the owner's entries; problems say, for the owner,
// what to fix.
func parseLimits(f formView) (shared.ConfirmationLimits, string, []string) {
	var problems []string
	by := strings.TrimSpace(f.Name)
	if by == "" || len(by) > maxNameLen { // the consent gate refuses a name that shows nothing
		problems = append(problems, fmt.Sprintf("Enter your name (at most %d characters): the confirmation records who gave it.", maxNameLen))
	}
	max, err := strconv.Atoi(strings.TrimSpace(f.Max))
	if err != nil || max < 1 || max > maxCap {
		problems = append(problems, fmt.Sprintf("Enter how many times agents may use it: a whole number from 1 to %d.", maxCap))
	}
	per := shared.CapPeriod(f.Per)
	if !per.Valid() || per == shared.PerUnknown {
		problems = append(problems, "Choose the period the limit counts over (hour, day, week or month).")
	}
	notify := strings.TrimSpace(f.Notify)
	if !webAddress(notify) || len(notify) > maxNotifyLn {
		problems = append(problems, "Enter where to send a notice after each use: a web address starting with https:// or http://.")
	}
	if len(problems) > 0 {
		return shared.ConfirmationLimits{}, "", problems
	}
	return shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: max, Per: per}, Notify: &notify}, by, nil
}
