package topology

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestCloseEndsTheBrowser launches a browser, closes it and checks its
// process is gone (Close waits for a closed browser to exit instead of the
// launcher's fixed one-second sleep before a kill, so it must still end
// the process), that the profile directory is removed and that a second
// Close is harmless.
func TestCloseEndsTheBrowser(t *testing.T) {
	needChromium(t)
	b, err := NewBrowser(context.Background(), BrowserOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	pid, dir := b.PID(), b.dataDir
	if pid == 0 || dir == "" {
		t.Fatalf("pid %d, profile %q: want a launched browser", pid, dir)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	alive := true
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			alive = false
			break
		}
	}
	if alive {
		t.Errorf("the browser process %d is still running after Close", pid)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile directory %s still there after Close (%v)", dir, err)
	}
}
