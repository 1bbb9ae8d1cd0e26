package verifier

// What the browser sent, read from the intercepted request. Pure: the
// browser side hands over method, URL, resource type, headers and body.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/door"
)

// Door is one way a submission travels: what the graph states, or what the
// browser was seen doing.
type Door struct {
	// Transport in the contract's vocabulary (form-post, form-get,
	// json-endpoint…).
	Transport shared.Transport
	// Method is the HTTP method ("" when the graph does not say).
	Method string
	// Endpoint is the absolute URL the request goes to ("" when unknown).
	Endpoint string
	// ContentType is the body's media type ("" for none or unknown).
	ContentType string
	// ByScript is true when the page's script sent the request (fetch or
	// XHR) rather than the browser's own form submission.
	ByScript bool
}

func (d Door) String() string {
	s := string(d.Transport)
	if d.Method != "" {
		s += " " + d.Method
	}
	if d.Endpoint != "" {
		s += " " + d.Endpoint
	}
	if d.ContentType != "" {
		s += " (" + d.ContentType + ")"
	}
	if d.ByScript {
		s += " sent by the page's script"
	}
	return s
}

// interceptedRequest is one request the sandbox stopped.
type interceptedRequest struct {
	Method       string
	URL          string
	ResourceType string // CDP's: Document, XHR, Fetch, Ping, Preflight…
	ContentType  string // the Content-Type header, parameters included
	Body         []byte
	// BodyMissing is true when the browser said there was a body but did
	// not hand it over (too large for the protocol).
	BodyMissing bool
}

// byScript reports whether the page's script, not a form submission, sent it.
func (r interceptedRequest) byScript() bool {
	return r.ResourceType != "Document"
}

// mediaType is the Content-Type without parameters, lower-cased.
func (r interceptedRequest) mediaType() string {
	mt, _, err := mime.ParseMediaType(r.ContentType)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(r.ContentType))
	}
	return mt
}

// door classifies the request in the contract's transport vocabulary. A
// script that sends form-encoded data makes the same request a form would,
// so it is a form-post (or form-get); JSON is a json-endpoint.
func (r interceptedRequest) door() Door {
	d := Door{Method: strings.ToUpper(r.Method), Endpoint: stripFragment(r.URL), ContentType: r.mediaType(), ByScript: r.byScript()}
	switch {
	case d.Method == "GET":
		// Where it goes; what it carries (the query) is the run's fields.
		d.Transport = shared.TransportFormGet
		d.Endpoint, _, _ = strings.Cut(d.Endpoint, "?")
	case strings.HasSuffix(d.ContentType, "/json") || strings.HasSuffix(d.ContentType, "+json"):
		d.Transport = shared.TransportJSONEndpoint
	case d.Method == "POST" && (d.ContentType == "application/x-www-form-urlencoded" || d.ContentType == "multipart/form-data" || d.ContentType == "text/plain"):
		d.Transport = shared.TransportFormPost
	default:
		d.Transport = shared.TransportUnknown
	}
	return d
}

func stripFragment(raw string) string {
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		return raw[:i]
	}
	return raw
}

// fields returns what the request carries, field by field, in the order it
// carries them: the query of a GET, else the body by its media type. A file
// is recorded by name and size, never by content. JSON values that are not
// strings are written as compact JSON.
func (r interceptedRequest) fields() ([]shared.SubmittedField, error) {
	fs, err := r.allFields()
	return bounded(fs), err
}

// maxFields bounds how many fields a run records; a page could send any
// number.
const maxFields = 500

// maxEndpointBytes bounds the endpoint a run records, and maxShownEndpoint
// the endpoint its note names: a page may post to a URL of megabytes (a
// form's action with a long query), which would blow up the graph the run
// is written into and crowd everything else out of the note.
const (
	maxEndpointBytes = 2048
	maxShownEndpoint = 200
)

// boundedEndpoint cuts an endpoint to maxEndpointBytes (on a rune boundary,
// marked with an ellipsis) and makes it valid UTF-8, which the contract's
// writer requires.
func boundedEndpoint(u string) string {
	return shared.Clip(strings.ToValidUTF8(u, "\uFFFD"), maxEndpointBytes)
}

// bounded cuts a field list to maxFields and each name and value to
// maxFieldBytes (on a rune boundary, marked with an ellipsis), so a hostile
// page cannot blow up the graph a run is written into, and makes each valid
// UTF-8 (a byte that is not becomes U+FFFD: a query's %FF, a multipart
// part's raw bytes), which the contract's writer requires: else the run is
// not written at all.
func bounded(fs []shared.SubmittedField) []shared.SubmittedField {
	if len(fs) > maxFields {
		fs = fs[:maxFields]
	}
	text := func(s string) string { return shared.Clip(strings.ToValidUTF8(s, "\uFFFD"), maxFieldBytes) }
	for i := range fs {
		fs[i].Name, fs[i].Value = text(fs[i].Name), text(fs[i].Value)
	}
	return fs
}

func (r interceptedRequest) allFields() ([]shared.SubmittedField, error) {
	if strings.EqualFold(r.Method, "GET") {
		u, err := url.Parse(r.URL)
		if err != nil {
			return []shared.SubmittedField{}, fmt.Errorf("read the query: %w", err)
		}
		return orderedQuery(u.RawQuery)
	}
	if r.BodyMissing {
		return []shared.SubmittedField{}, fmt.Errorf("the browser did not hand over the %s body (too large for the DevTools protocol)", r.mediaType())
	}
	mt, params, _ := mime.ParseMediaType(r.ContentType)
	switch {
	case mt == "application/x-www-form-urlencoded":
		return orderedQuery(string(r.Body))
	case mt == "multipart/form-data":
		return multipartFields(r.Body, params["boundary"])
	case strings.HasSuffix(mt, "/json") || strings.HasSuffix(mt, "+json"):
		return jsonFields(r.Body)
	case mt == "text/plain" && len(r.Body) > 0:
		// enctype=text/plain: name=value lines.
		out := []shared.SubmittedField{}
		for _, line := range strings.Split(strings.TrimRight(string(r.Body), "\r\n"), "\n") {
			k, v, _ := strings.Cut(strings.TrimRight(line, "\r"), "=")
			if k != "" {
				out = append(out, shared.SubmittedField{Name: k, Value: v})
			}
		}
		return out, nil
	case len(r.Body) == 0:
		return []shared.SubmittedField{}, nil
	}
	return []shared.SubmittedField{}, fmt.Errorf("a %s body is not read field by field", mt)
}

// orderedQuery parses name=value pairs keeping their order and repeats
// (url.ParseQuery sorts them into a map).
func orderedQuery(q string) ([]shared.SubmittedField, error) {
	out := []shared.SubmittedField{}
	for _, pair := range strings.Split(q, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			return out, fmt.Errorf("read the form body: %w", err)
		}
		value, err := url.QueryUnescape(v)
		if err != nil {
			return out, fmt.Errorf("read the form body: %w", err)
		}
		if name != "" {
			out = append(out, shared.SubmittedField{Name: name, Value: value})
		}
	}
	return out, nil
}

func multipartFields(body []byte, boundary string) ([]shared.SubmittedField, error) {
	out := []shared.SubmittedField{}
	if boundary == "" {
		return out, fmt.Errorf("a multipart body without a boundary")
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("read the multipart body: %w", err)
		}
		data, err := io.ReadAll(io.LimitReader(p, maxFieldBytes+1))
		if err != nil {
			return out, fmt.Errorf("read the multipart body: %w", err)
		}
		name := p.FormName()
		if name == "" {
			continue
		}
		v := string(data)
		if fn := p.FileName(); fn != "" {
			v = fmt.Sprintf("file %s (%d bytes)", fn, len(data))
		}
		out = append(out, shared.SubmittedField{Name: name, Value: v})
	}
}

// maxFieldBytes bounds one recorded value; a page could send megabytes.
const maxFieldBytes = 64 << 10

// jsonFields reads a JSON object's members in order. Anything but an object
// is one field named "$".
func jsonFields(body []byte) ([]shared.SubmittedField, error) {
	out := []shared.SubmittedField{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return out, fmt.Errorf("read the JSON body: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return []shared.SubmittedField{{Name: "$", Value: strings.TrimSpace(string(body))}}, nil
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return out, fmt.Errorf("read the JSON body: %w", err)
		}
		key, _ := kt.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return out, fmt.Errorf("read the JSON body: %w", err)
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			var buf bytes.Buffer
			if json.Compact(&buf, raw) == nil {
				s = buf.String()
			} else {
				s = string(raw)
			}
		}
		out = append(out, shared.SubmittedField{Name: key, Value: s})
	}
	return out, nil
}

// sameEndpoint is door.SameEndpoint for two raw endpoints, a form-get's
// query being its fields; two that do not parse are the same only when
// they are equal.
func sameEndpoint(a, b string, t shared.Transport) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return door.SameEndpoint(ub, ua, t == shared.TransportFormGet)
}
