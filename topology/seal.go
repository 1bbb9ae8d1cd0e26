package topology

import (
	"context"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// SealTimeout bounds every Seal, whatever its ctx: its calls take
// milliseconds on a live page, and on a page whose script hangs the first
// waits out the bound (such a page runs no pagehide handler either).
const SealTimeout = 2 * time.Second

// Seal makes p unable to send anything more, before it is closed: its
// scripts stop (Emulation.setScriptExecutionDisabled) and every URL is
// blocked at the network layer (Network.setBlockedURLs "*"). A page still
// sends as it closes — a pagehide or unload handler's navigator.sendBeacon
// or fetch with keepalive, which analytics scripts use to send a form —
// and such a request outlives the tab: request interception (the Fetch
// domain) does not hold it. The verifier's sandbox seals its tab so that
// nothing reaches the business; the executor seals its tab after the one
// submission a call makes, so that the site does not receive it twice.
//
// Seal enables the Network domain. It returns within SealTimeout, sooner
// when ctx, or the context set on p (p.Timeout, p.Context), ends first. It
// returns the first error, wrapped; the page is then in an unknown state
// and should be closed all the same.
func Seal(ctx context.Context, p *rod.Page) error {
	ctx, cancel := context.WithTimeout(ctx, SealTimeout)
	defer cancel()
	if pctx := p.GetContext(); pctx != nil {
		defer context.AfterFunc(pctx, cancel)()
	}
	pc := p.Context(ctx)
	for _, step := range []struct {
		what string
		call func(proto.Client) error
	}{
		{"stop its scripts", proto.EmulationSetScriptExecutionDisabled{Value: true}.Call},
		{"enable the network domain", proto.NetworkEnable{}.Call},
		{"block its requests", proto.NetworkSetBlockedURLs{Urls: []string{"*"}}.Call},
	} {
		if err := step.call(pc); err != nil {
			return fmt.Errorf("topology: seal the page: %s: %w", step.what, err)
		}
	}
	return nil
}
