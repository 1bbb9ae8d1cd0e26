package audit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// forbidden matches the SQL that would change or remove a record.
var forbidden = regexp.MustCompile(`(?i)\b(UPDATE|DELETE|TRUNCATE|DROP|REPLACE|UPSERT|ALTER)\b`)

// triggerEvents matches the one place those words may appear in a
// migration: the event list of a trigger that refuses them (migration
// 0002_append_only), which declares and changes nothing.
var triggerEvents = regexp.MustCompile(`(?i)\bCREATE\s+TRIGGER\s+\w+\s+BEFORE\s+(UPDATE|DELETE|TRUNCATE)(\s+OR\s+(UPDATE|DELETE|TRUNCATE))*\s+ON\s+\w+`)

// sqlComments removes -- and /* */ comments from SQL text.
var sqlComments = regexp.MustCompile(`(?s)--[^\n]*|/\*.*?\*/`)

// violations lists the forbidden statements in one file: for Go, every
// string literal (the store's statements are all literals); for SQL, the
// file without its comments.
func violations(name string, src []byte) ([]string, error) {
	var texts []string
	switch filepath.Ext(name) {
	case ".sql":
		sql := sqlComments.ReplaceAllString(string(src), "")
		texts = append(texts, triggerEvents.ReplaceAllString(sql, "CREATE TRIGGER"))
	case ".go":
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					texts = append(texts, s)
				}
			}
			return true
		})
	}
	var out []string
	for _, t := range texts {
		for _, m := range forbidden.FindAllString(t, -1) {
			out = append(out, name+": "+m+" in "+strconv.Quote(firstLine(t)))
		}
	}
	return out, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + "…"
	}
	return s
}

// TestAppendOnlySource reads every non-test .go file and every .sql file of
// the package (migrations included) and fails on any UPDATE, DELETE,
// TRUNCATE, DROP (or REPLACE, UPSERT, ALTER) in a statement: records are
// only ever inserted. The one exception is the event list of the triggers
// in migration 0002 that make the database refuse those statements too
// (see triggerEvents). The test helpers (audittest) drop their throwaway
// databases; they are not the store and are not scanned.
func TestAppendOnlySource(t *testing.T) {
	t.Run("the detector detects", func(t *testing.T) {
		tests := []struct {
			name, src string
			want      int
		}{
			{"x.go", "package x\nconst q = `UPDATE attempts SET x = 1`\n", 1},
			{"x.go", "package x\nvar q = \"delete from refusals\"\n", 1},
			{"x.go", "package x\nvar q = \"INSERT INTO a VALUES (1) ON CONFLICT DO UPDATE SET b = 2\"\n", 1},
			{"x.go", "package x\n// UPDATE in a comment is no statement\nvar q = \"SELECT 1\"\n", 0},
			{"x.go", "package x\nvar q = \"SELECT updated_ns FROM t\"\n", 0},
			{"x.sql", "-- DROP in a comment\nCREATE TABLE t (a INT);\nDROP TABLE t;\n", 1},
			{"x.sql", "/* TRUNCATE */ CREATE TABLE t (a INT);", 0},
			{"x.sql", "CREATE TRIGGER t_no BEFORE UPDATE OR DELETE ON t FOR EACH ROW EXECUTE FUNCTION f();", 0},
			{"x.sql", "CREATE TRIGGER t_no BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no'); END;", 0},
			{"x.sql", "CREATE TRIGGER t_sneaky AFTER INSERT ON t BEGIN DELETE FROM u; END;", 1},
			{"x.sql", "CREATE TRIGGER t_sneaky BEFORE UPDATE ON t BEGIN UPDATE u SET a = 1; END;", 1},
			{"x.go", "package x\nvar q = \"CREATE TRIGGER t BEFORE DELETE ON t\"\n", 1},
		}
		for _, tt := range tests {
			got, err := violations(tt.name, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.want {
				t.Errorf("violations(%q) = %q, want %d", tt.src, got, tt.want)
			}
		}
	})

	scanned := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "testdata" || path == "audittest" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".sql" && (ext != ".go" || strings.HasSuffix(path, "_test.go")) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		scanned++
		bad, err := violations(path, src)
		if err != nil {
			return err
		}
		for _, b := range bad {
			t.Errorf("not append-only: %s", b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 5 {
		t.Errorf("scanned %d files; the walk missed the package", scanned)
	}
}
