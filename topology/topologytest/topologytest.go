// Package topologytest holds test helpers for code, in any module, that
// drives Chromium through topology — as net/http/httptest does for net/http.
// The library packages never import testing; this package does.
package topologytest

import (
	"os"
	"testing"

	"github.com/frontlatch/frontlatch/topology"
)

// NeedChromium is for tests that drive a browser: where Chromium is not
// installed the test is skipped, naming what is missing — except under
// CI=true, where make test installs Chromium first, so its absence is a
// broken set-up and the test fails.
func NeedChromium(tb testing.TB) {
	tb.Helper()
	if _, err := topology.ResolveChromium(""); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%v (CI=true: make test installs Chromium, so this is a failure)", err)
		} else {
			tb.Skipf("skipping the browser test: %v", err)
		}
	}
}
