package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while a command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func copyGraph(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(clinic01)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "graph.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var urlRe = regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]+`)

// printedURL waits for `verify serve` to print its address.
func printedURL(t *testing.T, stdout, stderr *syncBuffer, done <-chan int) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if u := urlRe.FindString(stdout.String()); u != "" {
			return u
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited %d early: %s", code, stderr.String())
		default:
		}
	}
	t.Fatalf("no URL printed: %q", stdout.String())
	return ""
}

func TestVerifyServePrintsAOneTimeURLAndStopsOnCancel(t *testing.T) {
	graph := copyGraph(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"verify", "serve", "--store", filepath.Join(t.TempDir(), "audit.db"), graph}, &stdout, &stderr)
	}()
	u := printedURL(t, &stdout, &stderr, done)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("opening the printed URL: %d", resp.StatusCode)
	}
	resp, err = http.Get(strings.SplitN(u, "?", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("without the cookie: %d, want 403", resp.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d after cancel: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after its context ended")
	}
}

func TestVerifyServeBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[]`), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"graph that does not read", []string{"verify", "serve", "--store", filepath.Join(dir, "a.db"), bad}, exitFail, []string{"bad.json", "type.mismatch"}},
		{"missing graph", []string{"verify", "serve", "--store", filepath.Join(dir, "a.db"), filepath.Join(dir, "none.json")}, exitUsage, []string{"none.json"}},
		{"unreachable store", []string{"verify", "serve", "--store", "postgres://frontlatch@127.0.0.1:1/audit?connect_timeout=2", copyGraph(t)}, exitFail, []string{"audit store", "--store"}},
		{"unknown subcommand", []string{"verify", "frobnicate"}, exitUsage, []string{`unknown subcommand "frobnicate"`, "serve"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), tt.args, &stdout, &stderr); code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr.String())
			}
			for _, s := range tt.says {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr.String())
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "a.db")); err == nil {
				t.Errorf("a store was created for a graph that does not read")
			}
		})
	}
}
