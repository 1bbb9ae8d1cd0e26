package benchmark

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteResultsKeepsHandRecordedSections: a bench run rewrites
// results.json whole, but keeps the sections other commands measured — the
// classifier (formeval) and the benchmarks of other modules (shared's
// BenchmarkReadAdversarial, the executor's, the fleet's, topology's
// BenchmarkConfine) — when it has none of its own.
func TestWriteResultsKeepsHandRecordedSections(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	sections := []string{"readerAdversarial", "executor", "fleet", "confine"}
	prev := `{"performance": {`
	for i, k := range sections {
		if i > 0 {
			prev += ","
		}
		prev += `"` + k + `": {"command": "go test -bench ` + k + `"}`
	}
	prev += `}, "classifier": {"accuracy": 0.9}}`
	if err := os.WriteFile(path, []byte(prev), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteResults(path, &Results{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Performance map[string]json.RawMessage `json:"performance"`
		Classifier  map[string]float64         `json:"classifier"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range sections {
		var sec map[string]string
		if err := json.Unmarshal(got.Performance[k], &sec); err != nil || sec["command"] != "go test -bench "+k {
			t.Errorf("performance.%s = %s, want the previous section kept", k, got.Performance[k])
		}
	}
	if got.Classifier["accuracy"] != 0.9 {
		t.Errorf("classifier = %v, want the previous section kept", got.Classifier)
	}
}
