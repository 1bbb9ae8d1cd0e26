package topology

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// TestSealIsBoundedOnABusyPage: Seal under a context without a deadline,
// on a page whose script loops forever, returns within SealTimeout (with
// the error of the call that waited it out).
func TestSealIsBoundedOnABusyPage(t *testing.T) {
	b := browserForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := b.OpenPage(ctx, siteURL("/plain.html"), PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = proto.TargetCloseTarget{TargetID: p.TargetID}.Call(b.Rod().Timeout(5 * time.Second)) }()
	_, _ = proto.RuntimeEvaluate{Expression: "setTimeout(()=>{for(;;){}},0)"}.Call(p.Timeout(2 * time.Second))
	time.Sleep(300 * time.Millisecond)
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- Seal(context.Background(), p.Context(context.Background())) }()
	select {
	case err := <-done:
		t.Logf("Seal returned after %v: %v", time.Since(start).Round(time.Millisecond), err)
		if err == nil {
			t.Errorf("Seal of a page that answers nothing reported no error")
		}
	case <-time.After(SealTimeout + 5*time.Second):
		t.Fatalf("Seal(context.Background()) still blocked after %v", SealTimeout+5*time.Second)
	}
}
