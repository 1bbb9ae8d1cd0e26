package portal

import "github.com/frontlatch/frontlatch/shared"

// The tables below put every member of the contract's vocabularies that an
// owner sees into plain words. Each is keyed by the vocabulary's own type
// and a test walks the vocabulary's Values(): a member added to the
// contract without words here fails the test, and so does a stale entry.

// plainCode is what the report says about one completeness code: why the
// action is not usable by an agent and what the owner can do about it.
type plainCode struct {
	// Why is one sentence; {detail} is replaced by what the code's detail
	// suffix names (a field, the action), already in plain words.
	Why string
	// Next is what to do about it.
	Next string
}

// missingSentences has one plain sentence per shared.MissingCode.
var missingSentences = map[shared.MissingCode]plainCode{
	shared.MissingAccessNoDrivableDoor: {
		Why:  "An agent has no way in that it can use on its own: this action is reachable only by phone, by email, through another company's booking widget or by a link to another page.",
		Next: "Offer this action as a plain form on your website (or as a WebMCP tool), so an agent can send it the way a customer would.",
	},
	shared.MissingSubmissionJavascriptOnly: {
		Why:  "The form is sent only by the page's script, in a way we could not read, so an agent cannot tell where the customer's details would go.",
		Next: "Let the form work without script (a normal form action), or document the address it sends to.",
	},
	shared.MissingSubmissionUnknown: {
		Why:  "We could not work out how or where this action's details are sent.",
		Next: "Give the form a clear destination (its action address) or document the endpoint it sends to.",
	},
	shared.MissingSubmissionNoSubmitControl: {
		Why:  "The form has no send button we could find, so an agent would not know how to send it.",
		Next: "Give the form a visible send button (a button of type submit).",
	},
	shared.MissingInputsNoneAgentFillable: {
		Why:  "There is nothing an agent could fill in for a customer: no field of this action is meant to be filled in.",
		Next: "Put the questions you need answered into form fields an agent can fill in.",
	},
	shared.MissingInputsRequiredSemanticUnknown: {
		Why:  "A required field, {detail}, asks for something we could not understand, so an agent would not know what to put in it.",
		Next: "Give that field a clear label that says what you are asking for.",
	},
	shared.MissingInputsNoContactChannel: {
		Why:  "The action collects no email address or phone number, so you would have no way to reach the customer back.",
		Next: "Add an email or phone field, so you can answer the customer.",
	},
	shared.MissingEffectsUnknown: {
		Why:  "We could not work out what happens when this action is sent, and nobody should be allowed to do something whose consequences are unknown.",
		Next: "Say on the page what happens next (for example: we will call you back within a day).",
	},
	shared.MissingProvenanceMissing: {
		Why:  "We did not record how we learned about {detail}, so it cannot be trusted as it stands.",
		Next: "Scan the site again with the current mapper.",
	},
}

// blockerSentences has one plain sentence per barrier kind
// (shared.Report.Blockers lists them as "barrier.<kind>").
var blockerSentences = map[shared.BarrierKind]plainCode{
	shared.BarrierCaptcha: {
		Why:  "The form is protected by a CAPTCHA, which an agent cannot and should not solve: an agent can prepare the request, but a person has to finish it.",
		Next: "If you want agents to send it, offer them a door without the CAPTCHA (a WebMCP tool or a documented endpoint) and keep the CAPTCHA for anonymous visitors.",
	},
	shared.BarrierLogin: {
		Why:  "The action is behind a login, so an agent cannot reach it for a customer who is not signed in.",
		Next: "Offer a way to ask for this without an account (a request form), or accept that agents cannot use it.",
	},
	shared.BarrierBotChallenge: {
		Why:  "The site challenges automated visitors before showing this action, so an agent is turned away.",
		Next: "Allow well-behaved agents through (for example for your own WebMCP tool), or offer another door.",
	},
	shared.BarrierPaymentWall: {
		Why:  "The action asks for a payment before it can be sent, which an agent must not do on its own.",
		Next: "Separate the request from the payment, so an agent can ask and the customer pays later.",
	},
	shared.BarrierUnknown: {
		Why:  "Something on the page stands between an agent and sending this action, and we could not say what.",
		Next: "Try the action yourself in a private browser window and remove whatever stops you.",
	},
}

// kindWords names what a customer is trying to get done.
var kindWords = map[shared.ActionKind]string{
	shared.KindBooking:  "a booking",
	shared.KindQuote:    "a quote request",
	shared.KindCallback: "a call-back request",
	shared.KindContact:  "a message to you",
	shared.KindEnquiry:  "an enquiry",
	shared.KindUnknown:  "something we could not classify",
}

// doorWords names how an action is reached.
var doorWords = map[shared.AccessMethod]string{
	shared.AccessHTMLForm:           "a form on your website",
	shared.AccessTelLink:            "a phone number link",
	shared.AccessMailtoLink:         "an email link",
	shared.AccessSchedulerWidget:    "another company's booking widget",
	shared.AccessWebMCPTool:         "a WebMCP tool (a function your site offers to AI agents)",
	shared.AccessDocumentedEndpoint: "a documented address that accepts requests",
	shared.AccessLinkToPage:         "a link to another page",
	shared.AccessUnknown:            "a way in we could not identify",
}

// transportWords says how a submission travels.
var transportWords = map[shared.Transport]string{
	shared.TransportFormPost:       "sent as an ordinary form",
	shared.TransportFormGet:        "sent as an ordinary form, in the web address",
	shared.TransportJSONEndpoint:   "sent by the page's script as data (JSON)",
	shared.TransportWebMCPExecute:  "run as a WebMCP tool in the visitor's browser",
	shared.TransportJavascriptOnly: "sent only by the page's script, in a way we could not read",
	shared.TransportNone:           "nothing is sent",
	shared.TransportUnknown:        "sent in a way we could not work out",
}

// effectWords says what one effect does, completing "Sending it …".
var effectWords = map[shared.EffectKind]string{
	shared.EffectSendsEmailToBusiness:        "sends you an email with the customer's details",
	shared.EffectCreatesCallbackRequest:      "asks you to phone the customer back",
	shared.EffectRequestsAppointment:         "asks you for an appointment that you still have to confirm",
	shared.EffectBooksAppointment:            "books a slot in your calendar",
	shared.EffectRequestsQuote:               "asks you for a quote",
	shared.EffectPlacesOrder:                 "places an order",
	shared.EffectSendsConfirmationToCustomer: "sends the customer a confirmation",
	shared.EffectSubscribesToMarketing:       "subscribes the customer to your marketing",
	shared.EffectCreatesAccount:              "creates an account for the customer",
	shared.EffectChargesPayment:              "charges the customer money",
	shared.EffectSharesDataWithThirdParty:    "passes the customer's details to another company",
	shared.EffectUnknown:                     "does something we could not work out",
}

// statusWords says what a verification status means for agents.
var statusWords = map[shared.VerificationStatus]string{
	shared.StatusUnverified:    "Not confirmed: agents may not use it",
	shared.StatusSandboxTested: "Tested safely, not confirmed: agents may not use it yet",
	shared.StatusVerified:      "Confirmed by you: agents may use it within your limits",
}

// periodWords names a volume cap's window, after "per".
var periodWords = map[shared.CapPeriod]string{
	shared.PerHour:    "hour",
	shared.PerDay:     "day",
	shared.PerWeek:    "week",
	shared.PerMonth:   "month",
	shared.PerUnknown: "unknown period",
}

// outcomeWords says what a sandbox run showed.
var outcomeWords = map[shared.SandboxOutcome]string{
	shared.SandboxPassed:  "passed",
	shared.SandboxFailed:  "failed",
	shared.SandboxUnknown: "outcome unknown",
}

// field is how the confirmation page describes one semantic type: in words,
// and whether a value of it is personal data (about an identifiable person).
type field struct {
	Words    string
	Personal bool
}

// semanticWords classifies every semantic type.
var semanticWords = map[shared.SemanticType]field{
	shared.SemanticPersonName:          {"name", true},
	shared.SemanticGivenName:           {"first name", true},
	shared.SemanticFamilyName:          {"last name", true},
	shared.SemanticEmail:               {"email address", true},
	shared.SemanticPhone:               {"phone number", true},
	shared.SemanticCompany:             {"company", false},
	shared.SemanticStreetAddress:       {"street address", true},
	shared.SemanticLocality:            {"town or suburb", true},
	shared.SemanticRegion:              {"state or region", false},
	shared.SemanticPostcode:            {"postcode", true},
	shared.SemanticCountry:             {"country", false},
	shared.SemanticDate:                {"date", false},
	shared.SemanticTime:                {"time", false},
	shared.SemanticPreferredTimeWindow: {"preferred time", false},
	shared.SemanticServiceRequested:    {"service wanted", false},
	shared.SemanticMessage:             {"message (free text: may hold anything the customer writes)", true},
	shared.SemanticSubject:             {"subject", false},
	shared.SemanticPartySize:           {"number of people", false},
	shared.SemanticBudget:              {"budget", false},
	shared.SemanticWebsiteURL:          {"website address", false},
	shared.SemanticFileAttachment:      {"file attachment (may hold anything)", true},
	shared.SemanticExistingCustomer:    {"whether they are an existing customer", true},
	shared.SemanticReferralSource:      {"how they heard of you", false},
	shared.SemanticContactPreference:   {"how they prefer to be contacted", false},
	shared.SemanticConsent:             {"consent given", false},
	shared.SemanticMarketingOptIn:      {"marketing opt-in", false},
	shared.SemanticHoneypot:            {"trap field for robots (left empty)", false},
	shared.SemanticSystemToken:         {"value the page sends by itself", false},
	shared.SemanticUnknown:             {"something we could not understand", true},
}

// words returns the plain words of v in table, or v itself for a value
// outside the vocabulary (which a valid graph never holds).
func words[K ~string](table map[K]string, v K) string {
	if w, ok := table[v]; ok {
		return w
	}
	return string(v)
}
