package topology

import (
	"context"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ClickAt clicks the left mouse button at a point of p's viewport, as a
// person does — move, press, release, each a protocol call bounded by step
// — so that the page receives trusted events (event.isTrusted), which a
// script's el.click() does not make. The point is usually pagejs's
// pressPoint of the element to press. The verifier's sandbox and the
// executor's browser door press a form's submit control by it.
//
// (rod's Mouse is bound to the page it was made for, so a timeout set on a
// clone of the page does not reach it; ClickAt sends the events itself.)
func ClickAt(ctx context.Context, p *rod.Page, x, y float64, step time.Duration) error {
	one := 1
	for _, ev := range []proto.InputDispatchMouseEvent{
		{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: x, Y: y},
		{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x, Y: y, Button: proto.InputMouseButtonLeft, Buttons: &one, ClickCount: 1},
		{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x, Y: y, Button: proto.InputMouseButtonLeft, ClickCount: 1},
	} {
		if err := ev.Call(p.Context(ctx).Timeout(step)); err != nil {
			return fmt.Errorf("topology: click at (%.0f, %.0f): %w", x, y, err)
		}
	}
	return nil
}
