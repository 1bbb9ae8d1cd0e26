package executor

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/shared"
)

// DefaultMaxUploadBytes is the default of Options.MaxUploadBytes: the most
// file bytes (decoded) one call may upload, all its files together.
const DefaultMaxUploadBytes = 10 << 20

// maxFileName bounds a file name sent to a site, in bytes.
const maxFileName = 200

// File is one file for a file input (<input type=file>). An agent gives it
// as the JSON object the compiler's tool schema describes (decision 0007):
//
//	{"name": "leak.jpg", "mediaType": "image/jpeg", "content": "<base64>"}
//
// with content alone required. A Go caller may put a File (or *File) in
// Call.Input instead, its Content the bytes themselves.
type File struct {
	// Name is the file's name as the site is told it. Any folder part is
	// dropped, control and formatting characters removed; a name without
	// an extension gets its media type's; none at all becomes "upload"
	// with that extension.
	Name string
	// MediaType is its media type without parameters (image/jpeg); by
	// default the name's extension says, else the content (sniffed).
	MediaType string
	// Content is the file's bytes.
	Content []byte
}

// SentFile is what the audit log and Result keep of a file sent: never its
// bytes, only what identifies them.
type SentFile struct {
	// Field is the input's name, the form field the file was sent under.
	Field string `json:"field"`
	// Name is the file name sent (Content-Disposition filename).
	Name string `json:"name"`
	// MediaType is the part's Content-Type.
	MediaType string `json:"mediaType"`
	// Size is the file's length in bytes.
	Size int64 `json:"size"`
	// SHA256 is the hex SHA-256 of its bytes.
	SHA256 string `json:"sha256"`
}

// upload is one file checked and ready to send.
type upload struct {
	name      string
	mediaType string
	content   []byte
}

func (u *upload) record(field string) SentFile {
	sum := sha256.Sum256(u.content)
	return SentFile{Field: field, Name: u.name, MediaType: u.mediaType, Size: int64(len(u.content)), SHA256: hex.EncodeToString(sum[:])}
}

// File object keys, as the compiler's schema names them.
const (
	fileKeyName      = "name"
	fileKeyMediaType = "mediaType"
	fileKeyContent   = "content"
)

// mediaTypeRE is a media type without parameters (type/subtype, RFC 9110
// tokens), the compiler schema's pattern.
var mediaTypeRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// readFiles reads the agent's value for a file input: one file object (or
// File), or a list of them. A file input takes one file: the graph does not
// record a multiple attribute on one. budget is what the call may still
// upload; it is reduced by what is accepted. ok is false when the value was
// refused (invalid was called).
func readFiles(in *shared.Input, raw any, budget *int64, invalid func(field, rule, format string, args ...any)) (files []*upload, ok bool) {
	var list []any
	switch x := raw.(type) {
	case []any:
		list = x
	case []File:
		for i := range x {
			list = append(list, &x[i])
		}
	case []*File:
		for _, f := range x {
			list = append(list, f)
		}
	default:
		list = []any{raw}
	}
	if len(list) > 1 {
		invalid(in.Name, "multiple", "%q takes one file (the page's input is not recorded as multiple); %d were given", in.Name, len(list))
		return nil, false
	}
	for _, one := range list {
		f, ok := decodeFile(in.Name, one, *budget, invalid)
		if !ok {
			return nil, false
		}
		if int64(len(f.Content)) > *budget {
			invalid(in.Name, "size", "%q is %d bytes; the executor uploads at most %d bytes of files per call (Options.MaxUploadBytes)", in.Name, len(f.Content), *budget)
			return nil, false
		}
		u, ok := prepareFile(in.Name, f, invalid)
		if !ok {
			return nil, false
		}
		*budget -= int64(len(u.content))
		files = append(files, u)
	}
	return files, true
}

// decodeFile reads one file value: a File, or the JSON object.
// A base64 content longer than budget's encoding is refused before it is
// decoded.
func decodeFile(field string, v any, budget int64, invalid func(field, rule, format string, args ...any)) (File, bool) {
	switch x := v.(type) {
	case File:
		return x, true
	case *File:
		if x != nil {
			return *x, true
		}
	case map[string]any:
		var f File
		for k := range x {
			if k != fileKeyName && k != fileKeyMediaType && k != fileKeyContent {
				invalid(field, "type", "%q takes a file as {name, mediaType, content}; %q is not one of its keys", field, clipName(k))
				return File{}, false
			}
		}
		for _, k := range []string{fileKeyName, fileKeyMediaType} {
			s, given := x[k]
			if !given || s == nil {
				continue
			}
			str, isString := s.(string)
			if !isString {
				invalid(field, "type", "%q: the file's %s must be a string, not %s", field, k, jsonKind(s))
				return File{}, false
			}
			if k == fileKeyName {
				f.Name = str
			} else {
				f.MediaType = str
			}
		}
		c, given := x[fileKeyContent]
		s, isString := c.(string)
		if !given || !isString {
			invalid(field, "type", "%q: the file's content must be given, as a base64 string", field)
			return File{}, false
		}
		if limit := int64(base64.StdEncoding.EncodedLen(int(min(budget, math.MaxInt32)))); int64(len(s)) > limit+limit/38+4 { // MIME line breaks
			invalid(field, "size", "%q: the file's content is %d base64 characters; the executor uploads at most %d bytes of files per call (Options.MaxUploadBytes)", field, len(s), budget)
			return File{}, false
		}
		b, err := decodeBase64(s)
		if err != nil {
			invalid(field, "encoding", "%q: the file's content is not base64 (RFC 4648, the standard alphabet): %v", field, err)
			return File{}, false
		}
		f.Content = b
		return f, true
	}
	invalid(field, "type", "%q is a file upload: give {\"name\", \"mediaType\", \"content\": base64}, not %s", field, jsonKind(v))
	return File{}, false
}

// decodeBase64 decodes the standard alphabet, padded or not; line breaks
// are ignored, as MIME writes them.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
	if len(s)%4 != 0 {
		return base64.RawStdEncoding.Strict().DecodeString(strings.TrimRight(s, "="))
	}
	return base64.StdEncoding.Strict().DecodeString(s)
}

// prepareFile checks a file's media type against its name and content and
// gives it a safe name.
func prepareFile(field string, f File, invalid func(field, rule, format string, args ...any)) (*upload, bool) {
	declared := ""
	if f.MediaType != "" {
		if !mediaTypeRE.MatchString(f.MediaType) {
			invalid(field, "media-type", "%q: %q is not a media type (type/subtype, without parameters)", field, shared.Clip(f.MediaType, 80))
			return nil, false
		}
		declared = canonicalType(f.MediaType)
		if declared == "application/octet-stream" {
			declared = "" // "some bytes": says nothing against the name or the content
		}
	}
	name := safeName(f.Name)
	byName := typeOfName(name)
	sniffed := sniff(f.Content)
	switch {
	case declared != "" && byName != "" && declared != byName:
		invalid(field, "media-type", "%q: the name %q says %s, not %s", field, name, byName, declared)
		return nil, false
	case sniffed != "" && declared != "" && !agree(declared, sniffed):
		invalid(field, "media-type", "%q: the content is %s, not %s", field, sniffed, declared)
		return nil, false
	case sniffed != "" && byName != "" && !agree(byName, sniffed):
		invalid(field, "media-type", "%q: the content is %s, not the %s its name %q says", field, sniffed, byName, name)
		return nil, false
	}
	mt := cmp.Or(declared, byName, sniffed)
	if mt == "" {
		mt = "application/octet-stream"
		if t := strings.ToLower(http.DetectContentType(f.Content)); strings.HasPrefix(t, "text/plain") {
			mt = "text/plain"
		}
	}
	if name == "" {
		name = "upload"
	}
	if path.Ext(name) == "" {
		name += extensionOf(mt)
	}
	return &upload{name: name, mediaType: mt, content: f.Content}, true
}

// agree reports whether a claimed media type and a sniffed one can be the
// same file: equal, or both audio or video (one MP4 container holds either:
// an .m4a sniffs as video/mp4).
func agree(claimed, sniffed string) bool {
	av := func(t string) bool { return strings.HasPrefix(t, "audio/") || strings.HasPrefix(t, "video/") }
	return claimed == sniffed || (av(claimed) && av(sniffed))
}

// safeName makes a file name safe to send: its last path element (either
// slash), valid UTF-8, no control or formatting characters (a right-to-left
// override can make "gpj.exe" read as "exe.jpg"), no leading dots or
// spaces, no trailing dots or spaces, at most maxFileName bytes, its
// extension kept. "" when nothing is left.
func safeName(s string) string {
	s = strings.ToValidUTF8(s, "")
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Map(func(r rune) rune {
		if r == '\t' || (unicode.IsSpace(r) && !unicode.IsControl(r)) {
			return ' ' // a tab, a no-break space: a plain space
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	s = strings.TrimRight(strings.TrimLeft(s, ". "), ". ")
	if len(s) > maxFileName {
		ext := path.Ext(s)
		if len(ext) > 16 {
			ext = ""
		}
		stem := s[:len(s)-len(ext)]
		cut := maxFileName - len(ext)
		for cut > 0 && !utf8.RuneStart(stem[cut]) {
			cut--
		}
		s = strings.TrimRight(stem[:cut], ". ") + ext
	}
	return s
}

// Media types of the extensions a small business's form most often takes,
// so the executor's reading does not depend on the system's mime.types.
var extTypes = map[string]string{
	".pdf": "application/pdf", ".doc": "application/msword", ".rtf": "application/rtf",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xls":  "application/vnd.ms-excel", ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".ppt": "application/vnd.ms-powerpoint", ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".odt": "application/vnd.oasis.opendocument.text", ".ods": "application/vnd.oasis.opendocument.spreadsheet",
	".txt": "text/plain", ".csv": "text/csv", ".zip": "application/zip",
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".jfif": "image/jpeg", ".png": "image/png", ".gif": "image/gif",
	".webp": "image/webp", ".heic": "image/heic", ".heif": "image/heif", ".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff",
	".svg": "image/svg+xml", ".avif": "image/avif",
	".mp4": "video/mp4", ".mov": "video/quicktime", ".webm": "video/webm", ".avi": "video/x-msvideo",
	".mp3": "audio/mpeg", ".m4a": "audio/mp4", ".wav": "audio/wav", ".ogg": "audio/ogg",
}

// typeExts is the extension a media type gets when a file has no name.
var typeExts = map[string]string{
	"image/jpeg": ".jpg", "text/plain": ".txt", "application/octet-stream": ".bin",
	"audio/mpeg": ".mp3", "image/tiff": ".tif", "audio/wave": ".wav", "audio/x-wav": ".wav",
}

// aliases are media type names for one type.
var aliases = map[string]string{
	"image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "application/x-pdf": "application/pdf",
	"audio/x-wav": "audio/wav", "audio/wave": "audio/wav", "audio/mp3": "audio/mpeg", "image/x-png": "image/png",
}

func canonicalType(mt string) string {
	mt = strings.ToLower(mt)
	if a, ok := aliases[mt]; ok {
		return a
	}
	return mt
}

// typeOfName is the media type a file name's extension names, "" when it
// has none or one the executor does not know.
func typeOfName(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if ext == "" {
		return ""
	}
	if t, ok := extTypes[ext]; ok {
		return t
	}
	if t, _, err := mime.ParseMediaType(mime.TypeByExtension(ext)); err == nil && t != "" {
		return canonicalType(t)
	}
	return ""
}

func extensionOf(mt string) string {
	if e, ok := typeExts[mt]; ok {
		return e
	}
	best := ""
	for e, t := range extTypes { // the shortest, then the first in order: deterministic
		if t == mt && (best == "" || len(e) < len(best) || (len(e) == len(best) && e < best)) {
			best = e
		}
	}
	if best != "" {
		return best
	}
	if es, err := mime.ExtensionsByType(mt); err == nil && len(es) > 0 {
		return es[0]
	}
	return ""
}

// sniff is the content's media type when its bytes say it for certain (an
// image, a PDF, audio, video: net/http.DetectContentType's signatures);
// "" for text, ZIP containers (a .docx is one) and anything unknown, which
// say nothing against the name.
func sniff(b []byte) string {
	t, _, _ := mime.ParseMediaType(http.DetectContentType(b))
	switch {
	case strings.HasPrefix(t, "image/"), strings.HasPrefix(t, "audio/"), strings.HasPrefix(t, "video/"), t == "application/pdf":
		return canonicalType(t)
	}
	return ""
}

// acceptHolds checks a file against an accept attribute's list, with HTML's
// semantics: a token .ext matches the name's extension, type/subtype the
// media type, type/* any subtype of type. It returns "" when one matches,
// else why not.
func acceptHolds(accept string, u *upload) (msg string, checked bool) {
	ext := strings.ToLower(path.Ext(u.name))
	var tokens []string
	for _, tok := range strings.Split(accept, ",") {
		tok = strings.ToLower(strings.TrimSpace(tok))
		if tok == "" {
			continue
		}
		tokens = append(tokens, tok)
		switch {
		case tok == "*" || tok == "*/*":
			return "", true
		case strings.HasPrefix(tok, "."):
			if ext == tok {
				return "", true
			}
		case strings.HasSuffix(tok, "/*"):
			if strings.HasPrefix(u.mediaType, strings.TrimSuffix(tok, "*")) {
				return "", true
			}
		case strings.Contains(tok, "/"):
			if canonicalType(tok) == u.mediaType {
				return "", true
			}
		}
	}
	if len(tokens) == 0 {
		return "", false
	}
	what := fmt.Sprintf("%q (%s)", u.name, u.mediaType)
	if u.mediaType == "application/octet-stream" {
		what = fmt.Sprintf("%q, whose type neither its extension nor its content says (give mediaType)", u.name)
		if ext != "" && typeOfName(u.name) == "" {
			what = fmt.Sprintf("%q, whose extension %s names no type the executor knows and whose content does not say (give mediaType)", u.name, ext)
		}
	}
	return fmt.Sprintf("the page accepts only %s; not %s", strings.Join(tokens, ", "), what), true
}

var sizeRE = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*([a-z]*)$`)

// parseFileSize reads a max-file-size rule's value: bytes, or a number with
// a unit — KB, MB, GB are powers of 1000; KiB, MiB, GiB and the bare K, M,
// G of PHP's upload_max_filesize powers of 1024. ok is false for anything
// else.
func parseFileSize(v string) (int64, bool) {
	m := sizeRE.FindStringSubmatch(strings.ToLower(strings.TrimSpace(v)))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	mult := map[string]float64{"": 1, "b": 1, "byte": 1, "bytes": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9,
		"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30}[m[2]]
	if mult == 0 {
		return 0, false
	}
	x := math.Floor(n * mult)
	if x > math.MaxInt64/2 {
		return 0, false
	}
	return int64(x), true
}

// checkFiles applies a file rule (accept, max-file-size) to each file given
// for an input; a rule on no file holds. checked is false for a rule the
// executor cannot evaluate (an unreadable size, a kind that is not a file
// rule).
func checkFiles(field string, rule shared.Rule, files []*upload) (msg string, checked bool) {
	rv := ""
	if rule.Value != nil {
		rv = *rule.Value
	}
	switch rule.Kind {
	case shared.RuleAccept:
		for _, u := range files {
			if msg, checked := acceptHolds(rv, u); msg != "" || !checked {
				if msg != "" {
					msg = fmt.Sprintf("%q: %s", field, msg)
				}
				return msg, checked
			}
		}
		return "", strings.TrimSpace(strings.Trim(rv, ", ")) != ""
	case shared.RuleMaxFileSize:
		limit, ok := parseFileSize(rv)
		if !ok {
			return "", false
		}
		for _, u := range files {
			if int64(len(u.content)) > limit {
				return fmt.Sprintf("%q: %q is %d bytes; the page accepts files of at most %s (%d bytes) (max-file-size)", field, u.name, len(u.content), strings.TrimSpace(rv), limit), true
			}
		}
		return "", true
	}
	return "", false
}

// fileDoorReasons refuses files for a door that cannot carry them: only a
// multipart/form-data form post and a page filled in the browser
// (javascript-only) send a file. A urlencoded or GET form would send its
// name alone, as a browser does; a JSON endpoint and a WebMCP tool take no
// file part.
func fileDoorReasons(d door, fields []planned) []Reason {
	var out []Reason
	for _, f := range fields {
		if f.file == nil || slices.ContainsFunc(out, func(r Reason) bool { return r.Field == f.name }) {
			continue
		}
		why := ""
		switch d.transport {
		case shared.TransportFormPost:
			if isMultipart(d.enctype) {
				continue
			}
			enc := d.enctype
			if enc == "" {
				enc = "application/x-www-form-urlencoded"
			}
			why = fmt.Sprintf("a form post of %s, which carries a file's name and not its bytes (only multipart/form-data does)", enc)
		case shared.TransportJavascriptOnly:
			continue
		case shared.TransportFormGet:
			why = "a GET form, which carries a file's name and not its bytes"
		case shared.TransportJSONEndpoint:
			why = "a JSON endpoint, which takes no file part"
		default:
			why = fmt.Sprintf("%s, through which the executor sends no file", d.transport)
		}
		out = append(out, Reason{Code: ReasonInvalidInput, Field: f.name, Rule: "transport",
			Detail: fmt.Sprintf("%q is a file, and the action's door is %s: nothing was sent", f.name, why), Err: ErrInvalidInput})
	}
	return out
}

// isMultipart reports whether enctype is multipart/form-data, read as the
// browser door's bodies are (mime.ParseMediaType: any case, parameters).
func isMultipart(enctype string) bool {
	mt, _, err := mime.ParseMediaType(enctype)
	return err == nil && mt == "multipart/form-data"
}

// multipartBody encodes fields as multipart/form-data, in order, as a
// browser does: each part's Content-Disposition names the field (and a
// file part the file) with quotes, CR and LF percent-encoded — the HTML
// standard's encoding, which every browser writes, where mime/multipart's
// WriteField would backslash-escape a quote — and a file part has its
// file's Content-Type.
func multipartBody(fields []planned) (*bytes.Buffer, string, error) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range fields {
		h := textproto.MIMEHeader{}
		if f.file != nil {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, formDataEscape(f.name), formDataEscape(f.file.name)))
			h.Set("Content-Type", f.file.mediaType)
		} else {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"`, formDataEscape(f.name)))
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		content := []byte(f.value)
		if f.file != nil {
			content = f.file.content
		}
		if _, err := w.Write(content); err != nil {
			return nil, "", err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return &b, mw.FormDataContentType(), nil
}

// formDataEscape escapes a name for a multipart/form-data header as the
// HTML standard says: LF as %0A, CR as %0D, " as %22.
func formDataEscape(s string) string {
	return strings.NewReplacer("\n", "%0A", "\r", "%0D", `"`, "%22").Replace(s)
}
