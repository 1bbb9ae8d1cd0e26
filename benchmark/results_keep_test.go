package benchmark

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	prev += `, "scaling": [{"concurrency": 4}]}, "classifier": {"accuracy": 0.9}}`
	if err := os.WriteFile(path, []byte(prev), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Results{}
	if err := WriteResults(path, r); err != nil {
		t.Fatal(err)
	}
	// What the run printed after writing is its own: the kept sections are
	// in the file, not in r (the table showed an earlier run's scaling as
	// this run's).
	if r.Classifier != nil || r.Performance.Scaling != nil || r.Performance.Executor != nil {
		t.Errorf("WriteResults changed the results it was given: classifier %s, scaling %v, executor %s", r.Classifier, r.Performance.Scaling, r.Performance.Executor)
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

// TestWriteResultsRefusesAFileItCannotRead: a results file that exists but
// does not read as results (cut short, not an object, a kept section of the
// wrong shape) is an error and is left as it is — overwriting it would drop
// the sections other commands recorded there. An empty file is a fresh one.
func TestWriteResultsRefusesAFileItCannotRead(t *testing.T) {
	tests := []struct {
		name    string
		prev    string
		wantErr error
	}{
		{"cut short", `{"classifier": {"accuracy": 0.9}, "performance": {"executor": {"comm`, ErrResultsFile},
		{"not an object", `[{"classifier": {"accuracy": 0.9}}]`, ErrResultsFile},
		{"scaling of the wrong shape", `{"classifier": {"accuracy": 0.9}, "performance": {"scaling": {"tabs": 1}}}`, ErrResultsFile},
		{"empty", "  \n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results.json")
			if err := os.WriteFile(path, []byte(tt.prev), 0o644); err != nil {
				t.Fatal(err)
			}
			err := WriteResults(path, &Results{Command: "bench"})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("WriteResults: %v, want %v", err, tt.wantErr)
			}
			data, rerr := os.ReadFile(path)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if tt.wantErr != nil {
				if diff := cmp.Diff(tt.prev, string(data)); diff != "" {
					t.Errorf("the file changed (-want +got):\n%s", diff)
				}
				return
			}
			var got Results
			if err := json.Unmarshal(data, &got); err != nil || got.Command != "bench" {
				t.Errorf("written %q (%v), want the new results", data, err)
			}
		})
	}
}

// TestWriteResultsIsNeverSeenHalfWritten: while the results are rewritten,
// a reader (formeval, a second bench, a person) finds the old file or the
// new one, never an empty or cut-short one.
func TestWriteResultsIsNeverSeenHalfWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	r := &Results{Command: "bench"}
	graph := json.RawMessage(`{"actions": "` + strings.Repeat("x", 256<<10) + `"}`)
	for i := range 8 {
		r.Sites = append(r.Sites, SiteResult{Site: strconv.Itoa(i), Graph: graph})
	}
	if err := WriteResults(path, r); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		defer close(done)
		for range 20 {
			if err := WriteResults(path, r); err != nil {
				done <- err
				return
			}
		}
	}()
	reads, torn := 0, 0
	for running := true; running; {
		select {
		case err, ok := <-done:
			if ok && err != nil {
				t.Fatal(err)
			}
			running = false
		default:
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		reads++
		if !json.Valid(data) {
			torn++
		}
	}
	if torn > 0 {
		t.Errorf("%d of %d reads found the file half written", torn, reads)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want results.json alone (no temporary file left)", len(entries))
	}
}
