package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir is package shared, two levels up.
const sharedDir = "../.."

// generated are the files this generator writes.
var generated = []string{"vocab_gen.go", "consent_gen.go"}

// copyModule copies the shared module without its tests and test data (the
// generator and the build need neither) into a temporary directory.
func copyModule(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(sharedDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(sharedDir, path)
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "schema" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		name := d.Name()
		if strings.HasSuffix(name, "_test.go") || !(strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// goTool returns the go binary of the toolchain in use (go env GOROOT), and
// an environment that builds the copy on its own: no workspace, and module
// requirements resolved from the copied go.mod/go.sum.
func goTool(t *testing.T) (string, []string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	bin := filepath.Join(strings.TrimSpace(string(out)), "bin", "go")
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	return bin, env
}

// TestGeneratedUpToDate regenerates into a copy and fails when that would
// change the committed files.
func TestGeneratedUpToDate(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := copyModule(t)
	if err := run(dir); err != nil {
		t.Fatalf("generator: %v", err)
	}
	for _, f := range generated {
		want, err := os.ReadFile(filepath.Join(sharedDir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Errorf("%s is stale: run `go generate ./...` in shared", f)
		}
	}
}

// TestUnclassifiedSideEffectsField adds a field to SideEffects that is in
// neither consent list and checks that both guards trip: go generate
// refuses with a message naming the field and the fix, and go build fails on
// the struct-conversion guard of the stale consent_gen.go.
func TestUnclassifiedSideEffectsField(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module")
	}
	goBin, env := goTool(t)
	dir := copyModule(t)
	typesPath := filepath.Join(dir, "types.go")
	src, err := os.ReadFile(typesPath)
	if err != nil {
		t.Fatal(err)
	}
	anchor := "type SideEffects struct {\n"
	if !bytes.Contains(src, []byte(anchor)) {
		t.Fatalf("types.go has no %q", anchor)
	}
	src = bytes.Replace(src, []byte(anchor), []byte(anchor+"\tNotifiesCustomerBySms bool `json:\"notifiesCustomerBySms\"`\n"), 1)
	if err := os.WriteFile(typesPath, src, 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("go generate", func(t *testing.T) {
		cmd := exec.Command(goBin, "generate", ".")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("go generate succeeded with an unclassified field:\n%s", out)
		}
		for _, want := range []string{
			"SideEffects.NotifiesCustomerBySms",
			"without deciding whether an owner consents to it",
			`add "notifiesCustomerBySms" to consentBoundSideEffectKeys or consentExcludedSideEffectKeys in consent.go`,
		} {
			if !bytes.Contains(out, []byte(want)) {
				t.Errorf("go generate output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("go build", func(t *testing.T) {
		cmd := exec.Command(goBin, "build", ".")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("go build succeeded with a stale consent_gen.go:\n%s", out)
		}
		if !bytes.Contains(out, []byte("consent_gen.go")) || !bytes.Contains(out, []byte("SideEffects")) {
			t.Errorf("go build failed, but not on the consent guard:\n%s", out)
		}
	})
}
