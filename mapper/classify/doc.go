// Package classify says what each field of a form means — one of the
// contract's 29 semantic types — and what the form is for: booking, quote,
// callback, contact, enquiry (the customer actions), comment, newsletter,
// search, login, registration, password-recovery, order or other.
//
// Trust order for a field, highest first: a WHATWG autocomplete token (the
// owner's own statement), the input type, then words — label (as the
// browser computes it), placeholder, name and id split into words, help
// text — matched against per-type pattern tables in 26 languages (13 of
// them for the common types only) with negative patterns (tables.go, the
// one place word lists live), then
// the form around it (a "name" beside a "surname" is a given name; the lone
// box of a newsletter form is an email). Where the word rules find nothing
// or only weaker words, a small learned linear model (model.go, weights in
// the generated model_gen.go, trained on the Formasaurus dev split by
// benchmark/cmd/train-classifier) may decide, never over autocomplete,
// input types or honeypot structure (FieldsWith, ReadFields). Type=hidden inputs and captcha
// responses are system tokens. Honeypots are found by structure before
// meaning — hidden by CSS while the form shows, off-screen, tabindex=-1 with
// autocomplete=off, "leave this field empty" text, a plugin's honeypot class,
// a name a service declares in markup — never by the field's name.
// Honeypots and system tokens are not agent-fillable.
//
// A form's purpose is decided by an ordered table of named rules
// (formRules in form.go: structure, then words, then the customer
// actions), then a learned purpose model (purpose.go, weights in the
// generated purpose_gen.go, trained on the same dev split) that may
// overrule the rules that are not sharp, and takes back a weak claim of
// a customer action it reads otherwise at a margin of its own; a form
// with card fields, a payment widget, pay words, a password or account
// creation in its submit control is never a customer action, nor are
// contact details with no message and nothing a customer action asks
// (FormWith, ReadForm).
//
// Every result carries a confidence set from the table in confidence.go
// and the evidence that decided it. Classification is pure Go over
// extract's types: no browser, no network.
package classify
