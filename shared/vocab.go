package shared

//go:generate go run ./internal/gen

// vocabularies is the one declaration of every closed list in contract 0.1.
//
// go generate (./internal/gen) derives from it the typed constants, Values,
// Valid, strict JSON (un)marshalling and, through Values, the JSON-Schema
// enums. Nothing else in the module spells a member out, so the types and the
// runtime checks cannot drift apart. Changing a list is a contract change: a
// new schemaVersion (docs/contract.md, "Changing the contract").
//
// Each entry: Go type name, constant prefix, doc sentence, members in wire form.
//
//lint:ignore U1000 read from this source by go generate, never at run time
var vocabularies = [...]vocabulary{
	{"ActionKind", "Kind", "is what a customer is trying to get done.", []string{
		"booking", "quote", "callback", "contact", "enquiry", "unknown"}},
	{"AccessMethod", "Access", "is how an action is reached: one door of an action.", []string{
		"html-form", "tel-link", "mailto-link", "scheduler-widget", "webmcp-tool",
		"documented-endpoint", "link-to-page", "unknown"}},
	{"SemanticType", "Semantic", "is what the business means by a field, the half of a field's type an agent reasons over.", []string{
		"person-name", "given-name", "family-name", "email", "phone", "company",
		"street-address", "locality", "region", "postcode", "country", "date", "time",
		"preferred-time-window", "service-requested", "message", "subject", "party-size",
		"budget", "website-url", "file-attachment", "existing-customer", "referral-source",
		"contact-preference", "consent", "marketing-opt-in", "honeypot", "system-token",
		"unknown"}},
	{"EffectKind", "Effect", "is one thing completing an action does in the world.", []string{
		"sends-email-to-business", "creates-callback-request", "requests-appointment",
		"books-appointment", "requests-quote", "places-order",
		"sends-confirmation-to-customer", "subscribes-to-marketing", "creates-account",
		"charges-payment", "shares-data-with-third-party", "unknown"}},
	{"ProvenanceMethod", "Method", "is how a belief recorded in the graph was formed.", []string{
		"parsed-html", "parsed-structured-data", "parsed-webmcp", "parsed-ard-catalog",
		"observed-runtime", "inferred", "owner-confirmed", "defaulted"}},
	{"Transport", "Transport", "is how a submission travels to the business.", []string{
		"form-post", "form-get", "json-endpoint", "webmcp-execute", "javascript-only",
		"none", "unknown"}},
	{"BarrierKind", "Barrier", "is something standing between an agent and a submission.", []string{
		"captcha", "login", "bot-challenge", "payment-wall", "unknown"}},
	{"LocatorStrategy", "Strategy", "is the language a locator's value is written in.", []string{
		"css", "xpath", "role", "label", "text", "testid"}},
	{"Stability", "Stability", "is how likely a locator is to survive the site's next deploy.", []string{
		"stable", "fragile", "unknown"}},
	{"RuleKind", "Rule", "is the kind of a validation rule.", []string{
		"required", "pattern", "min-length", "max-length", "min", "max", "step", "format",
		"one-of", "accept", "max-file-size", "unknown"}},
	{"ValueSpaceKind", "ValueSpace", "discriminates the variants of ValueSpace.", []string{
		"length", "pattern", "range", "one-of", "format", "unknown"}},
	{"ValidationSource", "Source", "discriminates declared from inferred validations.", []string{
		"declared", "inferred"}},
	{"VerificationStatus", "Status", "discriminates the three verification states, ordered by what they permit.", []string{
		"unverified", "sandbox-tested", "verified"}},
	{"ConfirmationMethod", "Confirmed", "is how an owner's confirmation was given.", []string{
		"owner-portal", "signed-link", "in-person", "unknown"}},
	{"SandboxOutcome", "Sandbox", "is what a sandbox run of an action showed.", []string{
		"passed", "failed", "unknown"}},
	{"CapPeriod", "Per", "is the window an owner's volume cap counts over.", []string{
		"hour", "day", "week", "month", "unknown"}},
	{"IssueCode", "Issue", "classifies a problem the reader found in a document; every Issue carries one.", []string{
		"json.syntax", "json.invalid-utf8", "json.trailing-data", "json.duplicate-key",
		"json.case-variant-key", "json.too-deep", "key.unknown", "key.missing", "type.mismatch",
		"value.not-in-vocabulary", "value.empty", "value.out-of-range", "value.invalid",
		"version.unsupported", "verification.missing", "verification.confirmation-missing",
		"effects.empty", "confidence.out-of-range", "confidence.certain-not-owner",
		"timestamp.invalid", "id.duplicate", "reference.dangling"}},
	{"MissingCode", "Missing", "names one unmet completeness condition (some carry a \":<detail>\" suffix).", []string{
		"access.no_drivable_door", "submission.javascript_only", "submission.unknown",
		"submission.no_submit_control", "inputs.none_agent_fillable",
		"inputs.required_semantic_unknown", "inputs.no_contact_channel", "effects.unknown",
		"provenance.missing"}},
	{"RefusalReason", "Refuse", "is one reason the consent gate refused live execution.", []string{
		"action.invalid", "verification.not-verified", "confirmation.unattributed",
		"confirmation.method-unknown", "confirmation.in-future",
		"confirmation.audit-unresolved", "confirmation.revoked", "confirmation.digest-mismatch",
		"confirmation.no-volume-cap",
		"confirmation.no-notify-target", "disclosure.empty", "disclosure.drift",
		"gate.internal-error"}},
}

// vocabulary is one entry of the declaration above; only the generator reads it.
//
//lint:ignore U1000 read from this source by go generate, never at run time
type vocabulary struct {
	typeName string
	prefix   string
	doc      string
	members  []string
}
