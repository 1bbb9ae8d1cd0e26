package compiler

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// verifiedIDs lists the actions g says are verified.
func verifiedIDs(g *shared.ActionGraph) []string {
	var ids []string
	for i := range g.Actions {
		if g.Actions[i].Verification.Status() == shared.StatusVerified {
			ids = append(ids, g.Actions[i].ID)
		}
	}
	return ids
}

// An action the audit store does not confirm is compiled as unverified,
// whatever the file says: offered by no executable format, and stated as
// the graph's word that was not confirmed, with the reason.
func TestUnconfirmedIsNotOffered(t *testing.T) {
	const why = "confirmation.revoked: the owner revoked it"
	unconfirmed := map[string]string{}
	for _, id := range verifiedIDs(doorsGraph()) {
		unconfirmed[id] = why
	}
	opts := Options{Unconfirmed: unconfirmed}
	files, err := CompileAll(doorsGraph(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out := byName(files)
	if names := toolNames(compileMCP(t, doorsGraph(), opts)); len(names) != 0 {
		t.Errorf("MCP offers %v, want nothing (no verified action is confirmed)", names)
	}
	for _, name := range []string{FileMCPTools, FileOpenAPI, FileLLMsTxt, FileWebMCPScript, FileWebMCPDeclarativeJ} {
		data := string(out[name])
		if !strings.Contains(data, "does not confirm it") || !strings.Contains(data, "the owner revoked it") {
			t.Errorf("%s does not say the audit record does not confirm the action, and why", name)
		}
	}
	if strings.Contains(string(out[FileLLMsTxt]), "Verification: verified") {
		t.Error("llms.txt still says the business confirmed the action")
	}

	marked := compileMCP(t, doorsGraph(), Options{Unconfirmed: opts.Unconfirmed, IncludeUnverified: true})
	found := false
	for _, tl := range marked.Tools {
		if !strings.HasPrefix(tl.Name, "plumber.quote.job.") { // one of them
			continue
		}
		found = true
		if !strings.HasPrefix(tl.Title, "[UNVERIFIED] ") || !strings.HasPrefix(tl.Description, "Verification: NOT CONFIRMED") {
			t.Errorf("%s offered with --include-unverified as %q / %q, want it marked unverified and the status first", tl.Name, tl.Title, tl.Description[:min(60, len(tl.Description))])
		}
		if st := tl.Meta[metaPrefix+"verification"].(map[string]any)["status"]; st != "unverified" {
			t.Errorf("%s: _meta status %v, want unverified", tl.Name, st)
		}
	}
	if !found {
		t.Error("with IncludeUnverified the unconfirmed action is not offered at all")
	}

	// Unconfirmed names only what the graph says is verified: an entry for
	// another action changes nothing.
	other, err := CompileAll(doorsGraph(), Options{Unconfirmed: map[string]string{"plumber:booking:service": "x", "no:such:action": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := CompileAll(doorsGraph(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range plain {
		if string(plain[i].Data) != string(other[i].Data) {
			t.Errorf("%s changed for an Unconfirmed entry naming an action the graph does not say is verified", plain[i].Name)
		}
	}
}
