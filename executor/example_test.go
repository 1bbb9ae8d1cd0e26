package executor_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// Fire electrician01's callback form once the owner has confirmed it:
// open the audit store, make an Executor over it, read the action's raw
// bytes out of the graph and Execute them with the agent's input.
func ExampleExecutor_Execute() {
	ctx := context.Background()
	srv, _ := fixtures.Serve(ctx, "electrician01") // a loopback copy of the site
	defer srv.Close()
	origin, _ := srv.URL("electrician01")

	dir, _ := os.MkdirTemp("", "executor-example")
	defer os.RemoveAll(dir)
	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	// The owner's confirmation, recorded as the verifier's portal does.
	mapped, _ := fixtures.MappedGraph("electrician01", origin)
	graph, err := executortest.ConfirmWith(ctx, store, mapped, "electrician01:callback:callback",
		executortest.Limits(20, shared.PerDay, "owner@example.test"))
	if err != nil {
		fmt.Println(err)
		return
	}

	ex, err := executor.New(executor.Options{Store: store})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ex.Close()
	action, err := executor.ActionBytes(graph, "electrician01:callback:callback")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := ex.Execute(ctx, executor.Call{
		Action:         action,
		Input:          map[string]any{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"},
		IdempotencyKey: "callback-ana-1",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status", res.Status)
	for _, f := range res.Sent {
		fmt.Printf("sent %s=%q\n", f.Name, f.Value)
	}

	// The same key again: the first result, nothing fired.
	again, _ := ex.Execute(ctx, executor.Call{Action: action, Input: map[string]any{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"}, IdempotencyKey: "callback-ana-1"})
	fmt.Println("duplicate", again.Duplicate, "same attempt", again.AttemptID == res.AttemptID)

	// An unknown key is refused, with the reason.
	_, err = ex.Execute(ctx, executor.Call{Action: action, Input: map[string]any{"colour": "blue"}})
	var refused *executor.RefusedError
	if errors.As(err, &refused) {
		fmt.Println("refused:", refused.Reasons[0].Code, refused.Reasons[0].Field)
	}
	subs, _ := srv.Submissions("electrician01")
	fmt.Println("the site received", len(subs))
	// Output:
	// status 200
	// sent full_name="Ana Ruiz"
	// sent phone="+64 9 828 7400"
	// sent call_window="morning"
	// sent suburb=""
	// sent about=""
	// sent website=""
	// duplicate true same attempt true
	// refused: input.unknown colour
	// the site received 1
}

// New needs the audit store; everything else has a default.
func ExampleNew() {
	_, err := executor.New(executor.Options{})
	fmt.Println(err)
	// Output: executor: Options.Store is required (the verifier's audit store)
}

// Attach a file to lawfirm01's enquiry, whose form takes supporting
// documents: an agent gives {"name", "mediaType", "content": base64}; a Go
// caller may give an executor.File with the bytes. The site receives a
// multipart file part; the result (and the audit record) keeps the file's
// name, type, size and SHA-256, not its bytes.
func ExampleFile() {
	ctx := context.Background()
	srv, _ := fixtures.Serve(ctx, "lawfirm01")
	defer srv.Close()
	origin, _ := srv.URL("lawfirm01")
	dir, _ := os.MkdirTemp("", "executor-example")
	defer os.RemoveAll(dir)
	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	const id = "lawfirm01:enquiry:enquiry"
	mapped, _ := fixtures.MappedGraph("lawfirm01", origin)
	graph, err := executortest.ConfirmWith(ctx, store, mapped, id, executortest.Limits(20, shared.PerDay, "owner@example.test"))
	if err != nil {
		fmt.Println(err)
		return
	}
	ex, _ := executor.New(executor.Options{Store: store})
	defer ex.Close()
	action, _ := executor.ActionBytes(graph, id)

	input := map[string]any{"full_name": "Jo Carter", "email": "jo@example.org", "practice_area": "Employment",
		"message": "I would like advice about a contract.", "privacy_consent": true,
		"documents": executor.File{Name: `C:\scans\offer.pdf`, Content: []byte("%PDF-1.4\n%%EOF\n")}}
	res, err := ex.Execute(ctx, executor.Call{Action: action, Input: input})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range res.Files {
		fmt.Println("sent", f.Field, f.Name, f.MediaType, f.Size, "bytes")
	}
	subs, _ := srv.Submissions("lawfirm01")
	fmt.Println("the site received", subs[0].Files[0].Filename, subs[0].Outcome)

	// A type the page's accept list does not name is refused: nothing sent.
	input["documents"] = map[string]any{"name": "notes.txt", "content": "aGVsbG8="}
	_, err = ex.Execute(ctx, executor.Call{Action: action, Input: input})
	var refused *executor.RefusedError
	if errors.As(err, &refused) {
		fmt.Println("refused:", refused.Reasons[0].Field, refused.Reasons[0].Rule)
	}
	// Output:
	// sent documents offer.pdf application/pdf 15 bytes
	// the site received offer.pdf accepted
	// refused: documents accept
}
