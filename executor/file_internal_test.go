package executor

import (
	"strings"
	"testing"
)

// A file name is made safe to send: its last path element, no control or
// formatting characters, no leading dots, bounded, its extension kept.
func TestSafeName(t *testing.T) {
	long := strings.Repeat("é", 150) + ".pdf" // 300 bytes of stem
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "quote.pdf", "quote.pdf"},
		{"a unix path", "/home/ana/../../etc/passwd", "passwd"},
		{"a windows path", `C:\Users\ana\leak photo.JPG`, "leak photo.JPG"},
		{"dot dot", "..", ""},
		{"a hidden file", ".htaccess", "htaccess"},
		{"control characters", "in\x00vo\r\nice\x7f.pdf", "invoice.pdf"},
		{"tab and spaces", " \tmy\tscan .pdf. ", "my scan .pdf"},
		{"right-to-left override", "photo\u202egpj.exe", "photogpj.exe"},
		{"zero-width joiner", "a\u200db.png", "ab.png"},
		{"invalid UTF-8", "bad\xff\xfename.png", "badname.png"},
		{"quotes kept (escaped on the wire)", `my "best".png`, `my "best".png`},
		{"long, cut at a rune, extension kept", long, strings.Repeat("é", 98) + ".pdf"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := safeName(tc.in)
			if got != tc.want {
				t.Errorf("safeName(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if len(got) > maxFileName {
				t.Errorf("%d bytes, more than %d", len(got), maxFileName)
			}
		})
	}
}

func TestParseFileSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"5242880", 5242880, true},
		{"5 MB", 5_000_000, true},
		{"5MB", 5_000_000, true},
		{"1.5 mb", 1_500_000, true},
		{"500 KB", 500_000, true},
		{"10 MiB", 10 << 20, true},
		{"2M", 2 << 20, true},
		{"64k", 64 << 10, true},
		{"1 GB", 1_000_000_000, true},
		{"100 bytes", 100, true},
		{"five megabytes", 0, false},
		{"-1", 0, false},
		{"5 TB", 0, false},
		{"", 0, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := parseFileSize(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("parseFileSize(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestDecodeBase64(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"aGVsbG8=", "hello", true},
		{"aGVsbG8", "hello", true}, // unpadded
		{"aGVs\r\nbG8=", "hello", true},
		{"", "", true},
		{"aGVsbG8*", "", false},
		{"aGVsbG9=", "", false}, // non-zero padding bits: Strict
		{"aGVsbG8-", "", false}, // the URL alphabet
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := decodeBase64(tc.in)
			if (err == nil) != tc.ok || (tc.ok && string(got) != tc.want) {
				t.Errorf("decodeBase64(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
			}
		})
	}
}

// accept holds with HTML's semantics: extensions match the name, types the
// media type, type/* any subtype.
func TestAcceptHolds(t *testing.T) {
	for _, tc := range []struct {
		name, accept, file, mediaType string
		holds                         bool
	}{
		{"extension", ".pdf,.docx", "cv.PDF", "application/pdf", true},
		{"extension not listed", ".pdf,.docx", "cv.odt", "application/vnd.oasis.opendocument.text", false},
		{"wildcard", "image/*", "leak.heic", "image/heic", true},
		{"wildcard, another family", "image/*", "leak.mp4", "video/mp4", false},
		{"exact type", "application/pdf", "scan", "application/pdf", true},
		{"an alias", "image/jpg", "a.jpg", "image/jpeg", true},
		{"a type unknown", "image/*,.pdf", "upload.bin", "application/octet-stream", false},
		{"spaces and case", " IMAGE/* , .Pdf ", "x.pdf", "application/pdf", true},
		{"any type", "*/*", "x.bin", "application/octet-stream", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, checked := acceptHolds(tc.accept, &upload{name: tc.file, mediaType: tc.mediaType})
			if !checked || (msg == "") != tc.holds {
				t.Errorf("acceptHolds(%q, %s %s) = %q, %v; want holds=%v", tc.accept, tc.file, tc.mediaType, msg, checked, tc.holds)
			}
		})
	}
	if _, checked := acceptHolds(" , ", &upload{name: "a.pdf"}); checked {
		t.Error("an empty accept list was checked")
	}
}

// prepareFile names a file and settles its media type from what it was
// given, its name and its bytes, refusing only what contradicts itself.
func TestPrepareFile(t *testing.T) {
	m4a := []byte("\x00\x00\x00\x18ftypM4A \x00\x00\x00\x00mp42isom\x00\x00\x00\x08free")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	if got := sniff(m4a); got != "video/mp4" {
		t.Fatalf("the m4a sniffs as %q; the case below needs video/mp4", got)
	}
	for _, tc := range []struct {
		name           string
		f              File
		wantName, want string // want: the media type, or "refused:RULE"
	}{
		{"an m4a sniffs as video/mp4: audio and video agree", File{Name: "memo.m4a", Content: m4a}, "memo.m4a", "audio/mp4"},
		{"a PNG named .jpg", File{Name: "a.jpg", Content: png}, "", "refused:media-type"},
		{"a PNG said to be a JPEG", File{MediaType: "image/jpeg", Content: png}, "", "refused:media-type"},
		{"a docx is a ZIP: its name says", File{Name: "cv.docx", Content: []byte("PK\x03\x04\x14\x00")}, "cv.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
		{"text with no name", File{Content: []byte("hello")}, "upload.txt", "text/plain"},
		{"bytes of no kind", File{Content: []byte{0, 1, 2, 3}}, "upload.bin", "application/octet-stream"},
		{"a type given for bytes of no kind", File{MediaType: "Image/HEIC", Content: []byte{0, 1, 2}}, "upload.heic", "image/heic"},
		{"a name cleaned to nothing", File{Name: "../..", MediaType: "application/pdf", Content: []byte("%PDF-1.4")}, "upload.pdf", "application/pdf"},
		{"not a media type", File{MediaType: "pdf", Content: nil}, "", "refused:media-type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var refused string
			u, ok := prepareFile("f", tc.f, func(field, rule, format string, args ...any) { refused = "refused:" + rule })
			switch {
			case !ok && refused != tc.want:
				t.Errorf("refused as %q, want %q", refused, tc.want)
			case ok && (u.name != tc.wantName || u.mediaType != tc.want):
				t.Errorf("got %q %q, want %q %q", u.name, u.mediaType, tc.wantName, tc.want)
			}
		})
	}
}

// A multipart body is written as a browser writes it: names and file names
// with quotes, CR and LF percent-encoded, a file part with its type, each
// part's bytes as given.
func TestMultipartBody(t *testing.T) {
	fields := []planned{
		{name: `say "hi"`, value: "hello\r\nworld"},
		{name: "photo", file: &upload{name: `the "worst".png`, mediaType: "image/png", content: []byte("\x89PNG\x00")}},
		{name: "line\nbreak", value: ""},
	}
	b, ct, err := multipartBody(fields)
	if err != nil {
		t.Fatal(err)
	}
	boundary := strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	if boundary == ct || boundary == "" {
		t.Fatalf("content type %q", ct)
	}
	want := "--" + boundary + "\r\n" +
		"Content-Disposition: form-data; name=\"say %22hi%22\"\r\n\r\nhello\r\nworld\r\n" +
		"--" + boundary + "\r\n" +
		"Content-Disposition: form-data; name=\"photo\"; filename=\"the %22worst%22.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00\r\n" +
		"--" + boundary + "\r\n" +
		"Content-Disposition: form-data; name=\"line%0Abreak\"\r\n\r\n\r\n" +
		"--" + boundary + "--\r\n"
	if got := b.String(); got != want {
		t.Errorf("body\n%q\nwant\n%q", got, want)
	}
}
