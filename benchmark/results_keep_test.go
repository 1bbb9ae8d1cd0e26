package benchmark

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteResultsKeepsHandRecordedSections: a bench run rewrites
// results.json whole, but keeps the sections other commands measured — the
// classifier (formeval) and the reader's adversarial figures (shared's
// BenchmarkReadAdversarial) — when it has none of its own.
func TestWriteResultsKeepsHandRecordedSections(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	prev := `{"performance": {"readerAdversarial": {"command": "go test -bench X"}}, "classifier": {"accuracy": 0.9}}`
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
		Performance struct {
			ReaderAdversarial map[string]string `json:"readerAdversarial"`
		} `json:"performance"`
		Classifier map[string]float64 `json:"classifier"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Performance.ReaderAdversarial["command"] != "go test -bench X" {
		t.Errorf("readerAdversarial = %v, want the previous section kept", got.Performance.ReaderAdversarial)
	}
	if got.Classifier["accuracy"] != 0.9 {
		t.Errorf("classifier = %v, want the previous section kept", got.Classifier)
	}
}
