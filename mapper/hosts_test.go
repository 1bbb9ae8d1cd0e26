package mapper

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// TestHostSlots: at most per maps of one host hold a slot at once, other
// hosts are not held up, and a host is forgotten once no map of it holds
// or waits for a slot — a worker that maps a million sites does not keep
// an entry for each host it has seen.
func TestHostSlots(t *testing.T) {
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	t.Run("bound", func(t *testing.T) {
		h := NewHostSlots(2)
		r1, err1 := h.Acquire(t.Context(), "a.example")
		r2, err2 := h.Acquire(t.Context(), "a.example")
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if _, err := h.Acquire(cancelled, "a.example"); !errors.Is(err, context.Canceled) {
			t.Errorf("a third map of a.example got a slot (%v), want it to wait until its context ended", err)
		}
		rb, err := h.Acquire(t.Context(), "b.example") // not held up by a.example
		if err != nil {
			t.Fatal(err)
		}
		rb()
		r1()
		r1() // twice is once
		r3, err := h.Acquire(t.Context(), "a.example")
		if err != nil {
			t.Fatalf("after a release: %v", err)
		}
		if _, err := h.Acquire(cancelled, "a.example"); !errors.Is(err, context.Canceled) {
			t.Errorf("a release given back twice freed two slots (%v)", err)
		}
		r2()
		r3()
		if n := len(h.m); n != 0 {
			t.Errorf("%d hosts kept after every slot was given back, want none", n)
		}
	})
	t.Run("waiters", func(t *testing.T) {
		h := NewHostSlots(1)
		r, err := h.Acquire(t.Context(), "a.example")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		got := make(chan func(), 3)
		for range 3 {
			wg.Go(func() {
				rel, err := h.Acquire(t.Context(), "a.example")
				if err != nil {
					t.Error(err)
					return
				}
				got <- rel
			})
		}
		r()
		for range 3 {
			(<-got)() // one at a time: each waits for the one before
		}
		wg.Wait()
		if n := len(h.m); n != 0 {
			t.Errorf("%d hosts kept, want none", n)
		}
	})
	t.Run("memory", func(t *testing.T) {
		var h interface {
			Acquire(context.Context, string) (func(), error)
		} = NewHostSlots(1)
		const hosts = 50_000
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range hosts {
			release, err := h.Acquire(t.Context(), fmt.Sprintf("site%06d.example", i))
			if err != nil {
				t.Fatal(err)
			}
			release()
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(h)
		if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 2<<20 {
			t.Errorf("the heap grew %d KiB after %d hosts were each mapped once, want no entry kept per host", grew>>10, hosts)
		}
	})
}
