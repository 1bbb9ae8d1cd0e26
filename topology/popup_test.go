package topology

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// TestConfinedPageOpensNoTab: a confined page that defeats the guard's
// target rewriting — its own submit or click listener, run after the
// guard's, sets the target back to _blank; a window.open in a click
// handler from a fresh about:blank iframe, which runs no init script —
// opens no tab of the context (one would have none of the guards, nor the
// tab's interception), and what it sends reaches the site from the tab or
// not at all.
func TestConfinedPageOpensNoTab(t *testing.T) {
	b := browserForTest(t)
	for _, tc := range []struct{ name, doc string }{
		{"form: the page's submit listener resets the target", `<form id="f" action="/sent" target="_blank"><input name="q" value="x"></form><script>const f=document.getElementById("f");f.addEventListener("submit",()=>f.target="_blank");onload=()=>f.requestSubmit()</script>`},
		{"form: a microtask of the page's submit listener resets the target", `<form id="f" action="/sent"><input name="q" value="x"></form><script>const f=document.getElementById("f");f.addEventListener("submit",()=>queueMicrotask(()=>f.setAttribute("target","_blank")));onload=()=>f.requestSubmit()</script>`},
		{"link: the page's click listener resets the target", `<a id="go" href="/next" target="_blank">Next</a><script>const a=document.getElementById("go");a.addEventListener("click",()=>a.target="_blank");onload=()=>a.click()</script>`},
		{"window.open of a fresh iframe in a click handler", `<button id="b">x</button><script>const b=document.getElementById("b");b.addEventListener("click",()=>{const i=document.createElement("iframe");document.body.append(i);i.contentWindow.open("/popup")});onload=()=>b.click()</script>`},
		{"a button's formtarget set by its click listener", `<form id="f" action="/sent"><input name="q" value="x"><button id="s">Go</button></form><script>const s=document.getElementById("s");s.addEventListener("click",()=>s.setAttribute("formtarget","_blank"));onload=()=>s.click()</script>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			var mu sync.Mutex
			var paths []string
			site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				if r.URL.Path == "/favicon.ico" {
					http.NotFound(w, r)
					return
				}
				mu.Lock()
				paths = append(paths, r.URL.RequestURI())
				mu.Unlock()
				if r.URL.Path == "/" {
					fmt.Fprint(w, "<!doctype html><html><body>"+tc.doc+"</body></html>")
				} else {
					fmt.Fprint(w, "<p>landed</p>")
				}
			}))
			defer site.Close()
			c, err := b.Confine(ctx, site.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			page, err := c.OpenPage(ctx, site.URL+"/", PageOptions{})
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Second)
			info, err := page.Context(ctx).Timeout(5 * time.Second).Info()
			if err != nil {
				t.Fatal(err)
			}
			targets, err := proto.TargetGetTargets{}.Call(b.Rod().Timeout(5 * time.Second))
			if err != nil {
				t.Fatal(err)
			}
			for _, ti := range targets.TargetInfos {
				if ti.Type == proto.TargetTargetInfoTypePage && ti.BrowserContextID == c.in.BrowserContextID && ti.TargetID != page.TargetID {
					t.Errorf("the confined context has a tab the page opened (opener %s): %s", ti.OpenerID, ti.URL)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for _, p := range paths {
				if p != "/" && site.URL+p != info.URL {
					t.Errorf("the site got %s, but the tab is at %s: it came from elsewhere (requests %v)", p, info.URL, paths)
				}
			}
			if !slices.Contains(paths, "/") {
				t.Errorf("the page never loaded: %v", paths)
			}
		})
	}
}
