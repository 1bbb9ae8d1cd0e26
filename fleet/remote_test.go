package fleet

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// TestRemoteBrowserLost: workers drive a remote Chromium through
// --browser-url http://host:port; when that browser dies mid-run the jobs
// fail for retry, the worker goes on, and once a browser answers on the
// port again every site is mapped.
func TestRemoteBrowserLost(t *testing.T) {
	topologytest.NeedChromium(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	first := topologytest.StartChromium(t, port)

	f := openTemp(t)
	f.MaxAttempts = 20
	urls := serveVariants(t, 8)
	if _, err := f.Add(t.Context(), inputs(urls)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- f.Work(ctx, WorkOptions{Workers: 2, BrowserURL: fmt.Sprintf("http://127.0.0.1:%d", port),
			Map: testMapOptions(), Backoff: func(int) time.Duration { return 300 * time.Millisecond }})
	}()
	for {
		st, err := f.Status(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if st.Done >= 2 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Work returned early: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	first.Kill()
	time.Sleep(time.Second) // jobs meet the dead browser
	topologytest.StartChromium(t, port)
	st := waitDone(t, f, len(urls), 4*time.Minute)
	select {
	case err := <-done:
		t.Fatalf("the worker stopped when its browser was lost: %v", err)
	default:
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Work: %v", err)
	}
	if st.Done != len(urls) {
		t.Errorf("status %+v, want all %d done", st, len(urls))
	}
}
