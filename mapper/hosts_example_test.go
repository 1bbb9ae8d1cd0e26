package mapper_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/frontlatch/frontlatch/mapper"
)

// A crawler's own workers share one HostSlots so that no business is mapped
// twice at once, whatever the number of workers (MapAll and the fleet use
// the same).
func ExampleNewHostSlots() {
	slots := mapper.NewHostSlots(1)
	ctx := context.Background()

	release, _ := slots.Acquire(ctx, "plumber.example")
	// Another worker wanting the same host waits; another host does not.
	busy, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, err := slots.Acquire(busy, "plumber.example")
	fmt.Println(errors.Is(err, context.DeadlineExceeded))
	other, err := slots.Acquire(ctx, "clinic.example")
	fmt.Println(err)
	other()

	release()
	again, err := slots.Acquire(ctx, "plumber.example")
	fmt.Println(err)
	again()
	// Output:
	// true
	// <nil>
	// <nil>
}

// A HostLimiter paces requests per host; Options.Limiter hands one to the
// mapper so that several maps of one host share its rate.
func ExampleNewHostLimiter() {
	lim := mapper.NewHostLimiter(2, 1) // two requests a second per host
	ctx := context.Background()
	fmt.Println(lim.Wait(ctx, "plumber.example")) // the burst: at once

	// The next one is half a second away; a context that ends first is
	// told so at once rather than after waiting.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	fmt.Println(lim.Wait(short, "plumber.example") != nil)
	fmt.Println(lim.Wait(ctx, "clinic.example")) // another host has its own rate
	// Output:
	// <nil>
	// true
	// <nil>
}
