package executor

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// fileInputTimeout bounds each browser call that sets a file on an input.
const fileInputTimeout = 10 * time.Second

// pageFile is a file set on a page's file input: the field, the checked
// upload, and where it was staged on disk for Chromium to read.
type pageFile struct {
	field  string
	upload *upload
	path   string
}

// stageFile writes the i-th file of a call into its own folder of dir
// (private: 0700 folders, a 0600 file) under its safe name, which is the
// name Chromium sends.
func stageFile(dir string, i int, u *upload) (string, error) {
	sub := filepath.Join(dir, strconv.Itoa(i))
	if err := os.Mkdir(sub, 0o700); err != nil {
		return "", err
	}
	p := filepath.Join(sub, u.name)
	if filepath.Dir(p) != sub { // safeName keeps no folder part; be sure
		return "", fmt.Errorf("the file name %q is not a plain name", u.name)
	}
	if err := os.WriteFile(p, u.content, 0o600); err != nil {
		return "", err
	}
	return p, nil
}

// partFileName reads a part's Content-Disposition: the filename parameter
// and whether there is one (a file part).
func partFileName(h textproto.MIMEHeader) (string, bool) {
	_, params, err := mime.ParseMediaType(h.Get("Content-Disposition"))
	if err != nil {
		return "", false
	}
	name, ok := params["filename"]
	return name, ok
}

// fillFileParts puts the files' bytes into the file parts of a multipart
// body a page made: Chromium hands an intercepted request's file parts over
// empty. The k-th file part of a field gets the k-th file given for it; a
// part that already has bytes (a file the page's script made itself) keeps
// them. ok is false when the body is not multipart or does not parse: it is
// then sent as the page made it.
func fillFileParts(ctype, body string, files map[string][]*upload) (filled string, warnings []string, ok bool) {
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return "", nil, false
	}
	r := multipart.NewReader(strings.NewReader(body), params["boundary"])
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if err := mw.SetBoundary(params["boundary"]); err != nil {
		return "", nil, false
	}
	used := map[string]int{}
	for {
		p, err := r.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, false
		}
		content, err := io.ReadAll(p)
		if err != nil {
			return "", nil, false
		}
		if name, isFile := partFileName(p.Header); isFile && len(content) == 0 && name != "" {
			field := p.FormName()
			if k := used[field]; k < len(files[field]) {
				content = files[field][k].content
				used[field] = k + 1
			} else {
				warnings = append(warnings, fmt.Sprintf("the page sent a file part %q for %q whose bytes the executor does not have: it was sent as the page made it, empty", name, field))
			}
		}
		w, err := mw.CreatePart(p.Header)
		if err != nil {
			return "", nil, false
		}
		if _, err := w.Write(content); err != nil {
			return "", nil, false
		}
	}
	if err := mw.Close(); err != nil {
		return "", nil, false
	}
	return b.String(), warnings, true
}
