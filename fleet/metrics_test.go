package fleet

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A nil *Metrics is no metrics (WorkOptions.Metrics nil): its methods do
// nothing, and its handler answers 404 instead of panicking.
func TestNilMetrics(t *testing.T) {
	var m *Metrics
	m.mapped(3, 0)
	m.page()
	m.failed("other")
	if r := m.Registry(); r != nil {
		t.Errorf("Registry() = %v, want nil", r)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("status %d, want 404", rec.Code)
	}
}
