package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// versions.yaml names the release of every module of the workspace and the
// contract version; the code has one release number (shared.ModuleVersion,
// which the CLI prints and the mapper signs its graphs with) and one
// contract version (shared.SchemaVersion). They must agree.
func TestVersionsYAML(t *testing.T) {
	root := fixturestest.MustRepoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "versions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Contract string            `yaml:"contract"`
		Modules  map[string]string `yaml:"modules"`
	}
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("versions.yaml: %v", err)
	}
	if v.Contract != shared.SchemaVersion {
		t.Errorf("versions.yaml contract %q, shared.SchemaVersion %q", v.Contract, shared.SchemaVersion)
	}
	want := map[string]string{}
	for _, m := range workspaceModules(t, root) {
		want[m] = "v" + shared.ModuleVersion
	}
	if diff := cmp.Diff(want, v.Modules); diff != "" {
		t.Errorf("versions.yaml modules (-want: every go.work module at v%s +got):\n%s", shared.ModuleVersion, diff)
	}
	for name, got := range map[string]string{"frontlatch version": version, "mapper.Version": mapper.Version} {
		if got != shared.ModuleVersion {
			t.Errorf("%s = %q, want shared.ModuleVersion %q", name, got, shared.ModuleVersion)
		}
	}
}

// workspaceModules lists the module folders go.work uses, as
// `go work edit -json` reads them.
func workspaceModules(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "work", "edit", "-json", filepath.Join(root, "go.work"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go work edit -json: %v", err)
	}
	var wf struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(out, &wf); err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, u := range wf.Use {
		mods = append(mods, filepath.ToSlash(filepath.Clean(u.DiskPath)))
	}
	return mods
}
