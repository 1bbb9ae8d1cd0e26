package topology

import (
	"os"
	"testing"
)

// NeedChromium is for tests, in any module, that drive a browser: where
// Chromium is not installed the test is skipped, naming what is missing —
// except under CI=true, where make test installs Chromium first, so its
// absence is a broken set-up and the test fails.
func NeedChromium(tb testing.TB) {
	tb.Helper()
	if _, err := ResolveChromium(""); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%v (CI=true: make test installs Chromium, so this is a failure)", err)
		} else {
			tb.Skipf("skipping the browser test: %v", err)
		}
	}
}
