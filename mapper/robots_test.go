package mapper

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"
)

// robots.txt is obeyed: a page it disallows for our agent (or for every
// agent) is not opened, and the notes say so; Allow beats a shorter
// Disallow; a group for another agent does not apply to us.
func TestRobotsDisallow(t *testing.T) {
	home := page("Acme", `<nav><a href="/contact/">Contact</a> <a href="/book/">Book</a> <a href="/quote/">Get a quote</a> <a href="/private/open/">Opening hours</a></nav><h1>Acme</h1>`)
	form := func(h string) string {
		return page(h, `<h1>`+h+`</h1><form action="/send" method="post"><label>Email <input type="email" name="email" required></label><button>Send</button></form>`)
	}
	robots := "User-agent: *\nDisallow: /book/\nDisallow: /private/\nAllow: /private/open/\n\n" +
		"User-agent: Frontlatch\nDisallow: /book/\nDisallow: /quote/\nDisallow: /private/\nAllow: /private/open/\n\n" +
		"User-agent: OtherBot\nDisallow: /\n"
	var mu sync.Mutex
	opened := map[string]bool{}
	g := mapSite(t, site{pages: map[string]string{
		"/": home, "/robots.txt": robots, "/contact/": form("Contact"), "/book/": form("Book"),
		"/quote/": form("Quote"), "/private/open/": page("Hours", "<h1>Hours</h1>"),
	}}, func(o *Options) {
		o.OnPage = func(u string) { mu.Lock(); opened[pathOf(u)] = true; mu.Unlock() }
	})
	for _, p := range []string{"/", "/contact/", "/private/open/"} {
		if !opened[p] {
			t.Errorf("%s was not opened; opened %v", p, opened)
		}
	}
	notes := ""
	if g.Notes != nil {
		notes = *g.Notes
	}
	for _, p := range []string{"/book/", "/quote/"} {
		if opened[p] {
			t.Errorf("%s was opened although robots.txt disallows it", p)
		}
		if !strings.Contains(notes, p+" was not opened: robots.txt disallows it for Frontlatch") {
			t.Errorf("notes do not name disallowed %s: %q", p, notes)
		}
	}
	t.Run("IgnoreRobots opens them", func(t *testing.T) {
		opened := map[string]bool{}
		mapSite(t, site{pages: map[string]string{"/": home, "/robots.txt": robots, "/book/": form("Book")}}, func(o *Options) {
			o.IgnoreRobots = true
			o.OnPage = func(u string) { opened[pathOf(u)] = true }
		})
		if !opened["/book/"] {
			t.Errorf("/book/ not opened with IgnoreRobots; opened %v", opened)
		}
	})
}

// An entry page robots.txt disallows is a typed error before the page is
// requested at all: no pre-flight, no tab.
func TestRobotsDisallowedEntry(t *testing.T) {
	cases := []struct{ name, entry, robots string }{
		{"the whole site", "/", "User-agent: *\nDisallow: /\n"},
		{"the entry page", "/shop/", "User-agent: *\nDisallow: /shop/\n"},
		{"for our agent only", "/", "User-agent: OtherBot\nDisallow:\n\nUser-agent: Frontlatch\nDisallow: /\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			requests := map[string]int{}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				requests[r.URL.Path]++
				mu.Unlock()
				switch r.URL.Path {
				case "/robots.txt":
					w.Header().Set("Content-Type", "text/plain")
					w.Write([]byte(tc.robots))
				case tc.entry:
					w.Header().Set("Content-Type", "text/html")
					w.Write([]byte(page("Acme", "<h1>Acme</h1>")))
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			o := testOptions()
			pages := 0
			o.OnPage = func(string) { pages++ }
			_, err := Map(context.Background(), srv.URL+tc.entry, o)
			var de *DisallowedError
			if !errors.Is(err, ErrDisallowed) || !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DisallowedError", err)
			}
			mu.Lock()
			defer mu.Unlock()
			type visit struct {
				Agent           string
				Pages, Requests int // pages opened, requests for the entry page
				RobotsFetched   bool
			}
			got := visit{de.Agent, pages, requests[tc.entry], requests["/robots.txt"] > 0}
			want := visit{Agent: "Frontlatch", RobotsFetched: true}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the disallowed entry page (-want +got):\n%s", diff)
			}
		})
	}
}

// A same-site page on another host (a subdomain) answers to that host's
// robots.txt, not the entry host's, and that host's Crawl-delay paces it;
// with IgnoreRobots no other host's robots.txt is read.
func TestRobotsPerHost(t *testing.T) {
	type crawled struct {
		Opened     []string // host and path, sorted
		Notes      string
		RobotsRead map[string]int
		Paces      []rate.Limit // acme.test's, shop.acme.test's
	}
	cases := []struct {
		name   string
		ignore bool
		want   crawled
	}{
		{"each host's own robots.txt", false, crawled{
			Opened:     []string{"acme.test/", "acme.test/contact/", "shop.acme.test/quote/"},
			Notes:      "/book/ was not opened: robots.txt disallows it for Frontlatch. /quote/ was not opened: robots.txt disallows it for Frontlatch.",
			RobotsRead: map[string]int{"acme.test": 1, "shop.acme.test": 1},
			Paces:      []rate.Limit{rate.Inf, rate.Every(200 * time.Millisecond)},
		}},
		{"IgnoreRobots", true, crawled{
			Opened:     []string{"acme.test/", "acme.test/contact/", "acme.test/quote/", "shop.acme.test/book/", "shop.acme.test/quote/"},
			RobotsRead: map[string]int{"acme.test": 1},
			Paces:      []rate.Limit{rate.Inf, rate.Inf},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var port string
			var mu sync.Mutex
			robotsRead := map[string]int{}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				host, _, _ := strings.Cut(r.Host, ":")
				body, ct := "", "text/html"
				switch host + r.URL.Path {
				case "acme.test/robots.txt":
					body, ct = "User-agent: *\nDisallow: /quote/\n", "text/plain"
				case "shop.acme.test/robots.txt":
					body, ct = "User-agent: *\nDisallow: /book/\nCrawl-delay: 0.2\n", "text/plain"
				case "acme.test/":
					shop := "http://shop.acme.test:" + port
					body = page("Acme", `<a href="/contact/">Contact us</a> <a href="`+shop+`/book/">Book online</a> <a href="`+shop+`/quote/">Get a quote</a> <a href="/quote/">Quote</a>`)
				case "acme.test/contact/", "acme.test/quote/", "shop.acme.test/book/", "shop.acme.test/quote/":
					body = page(host+r.URL.Path, contactForm)
				default:
					http.NotFound(w, r)
					return
				}
				if r.URL.Path == "/robots.txt" {
					mu.Lock()
					robotsRead[host]++
					mu.Unlock()
				}
				w.Header().Set("Content-Type", ct)
				fmt.Fprint(w, body)
			}))
			defer srv.Close()
			addr := srv.Listener.Addr().String()
			_, port, _ = net.SplitHostPort(addr)
			dialer := &net.Dialer{}
			client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return dialer.DialContext(ctx, network, addr) // every host is this server
			}}}
			var got crawled
			o := testOptions()
			o.NoExplore, o.IgnoreRobots, o.HTTPClient, o.Limiter = true, tc.ignore, client, NewHostLimiter(0, 1)
			o.OnPage = func(raw string) {
				u, _ := url.Parse(raw)
				got.Opened = append(got.Opened, u.Hostname()+u.Path)
			}
			g, err := Map(context.Background(), "http://acme.test:"+port+"/", o)
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(got.Opened) // the crawl's order is its scores'
			if g.Notes != nil {
				got.Notes = *g.Notes
			}
			mu.Lock()
			got.RobotsRead = robotsRead
			mu.Unlock()
			got.Paces = []rate.Limit{o.Limiter.limiter("acme.test:" + port).Limit(), o.Limiter.limiter("shop.acme.test:" + port).Limit()}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("crawl (-want +got):\n%s", diff)
			}
		})
	}
}

// Every request, plain HTTP and browser, names Frontlatch and a URL; the
// User-Agent is configurable, and its product token picks the robots group.
func TestUserAgent(t *testing.T) {
	tests := []struct{ name, ua, want string }{
		{"default", "", "Frontlatch/" + Version + " (+https://github.com/frontlatch/frontlatch)"},
		{"configured", "AcmeCrawler/2.0 (+https://acme.example/bot)", "AcmeCrawler/2.0 (+https://acme.example/bot)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			seen := map[string]bool{}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen[r.Header.Get("User-Agent")] = true
				mu.Unlock()
				if r.URL.Path != "/" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(page("Acme", "<h1>Acme</h1>")))
			}))
			defer srv.Close()
			mapTest(t, srv.URL+"/", func(o *Options) { o.UserAgent = tc.ua })
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 1 || !seen[tc.want] {
				t.Errorf("user agents seen %v, want only %q", seen, tc.want)
			}
		})
	}
	if got := robotsToken("AcmeCrawler/2.0 (+https://acme.example/bot)"); got != "AcmeCrawler" {
		t.Errorf("robotsToken = %q, want AcmeCrawler", got)
	}
}

// Crawl-delay slows its host, and never speeds up a slower pace.
func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		name  string
		rate  float64
		delay time.Duration
		want  rate.Limit
	}{
		{"delay slows a fast host", 10, 2 * time.Second, rate.Every(2 * time.Second)},
		{"delay slows an unlimited host", 0, time.Second, rate.Every(time.Second)},
		{"a shorter delay keeps the slower pace", 0.25, time.Second, rate.Limit(0.25)},
		{"no delay changes nothing", 10, 0, rate.Limit(10)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewHostLimiter(tc.rate, 5)
			l.slowTo("a.example", tc.delay)
			if got := l.limiter("a.example").Limit(); got != tc.want {
				t.Errorf("limit %v, want %v", got, tc.want)
			}
			if got := l.limiter("b.example").Limit(); tc.rate > 0 && got != rate.Limit(tc.rate) {
				t.Errorf("another host's limit %v, want %v", got, tc.rate)
			}
		})
	}
	g := parseRobots(200, []byte("User-agent: *\nCrawl-delay: 3\n"), DefaultUserAgent)
	if got := g.crawlDelay(); got != 3*time.Second {
		t.Errorf("Crawl-delay read as %v, want 3s", got)
	}
}

// Waiting for a host's turn is the run's time, not a request's: a
// Crawl-delay longer than FetchTimeout slows the crawl and loses no page,
// and a turn that would come after the run's end stops the crawl at once
// with the run's own note, not a page that "does not answer".
func TestCrawlDelayIsTheRunsTime(t *testing.T) {
	tests := []struct {
		name       string
		delay      string // robots.txt Crawl-delay
		runTimeout time.Duration
		want       []string // notes, sorted, the port replaced by PORT
		wantPages  int
	}{
		{"delay longer than a request's timeout", "0.3", 0, nil, 4},
		{"next turn after the run's end", "30", time.Second, []string{
			"The run ran out of time before /book/ was mapped.",
			"The run ran out of time before /contact/ was mapped.",
			"The run ran out of time before /quote/ was mapped: 127.0.0.1:PORT is paced to one request every 30s, and its next turn comes after the run ends.",
		}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveSite(t, site{pages: map[string]string{
				"/robots.txt": "User-agent: *\nCrawl-delay: " + tc.delay + "\n",
				"/":           page("Acme", `<a href="/contact/">Contact us</a> <a href="/quote/">Get a quote</a> <a href="/book/">Book online</a>`),
				"/contact/":   page("Contact", contactForm),
				"/quote/":     page("Quote", contactForm),
				"/book/":      page("Book", contactForm),
			}})
			o := testOptions()
			o.NoExplore, o.Limiter, o.FetchTimeout, o.RunTimeout = true, NewHostLimiter(0, 1), 100*time.Millisecond, tc.runTimeout
			pages := 0
			o.OnPage = func(string) { pages++ }
			g, err := Map(context.Background(), srv.URL+"/", o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if g.Notes != nil {
				_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
				got = strings.SplitAfter(strings.ReplaceAll(*g.Notes, ":"+port, ":PORT"), ". ")
				for i := range got {
					got[i] = strings.TrimSpace(got[i])
				}
				sort.Strings(got)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if pages != tc.wantPages {
				t.Errorf("%d pages opened, want %d", pages, tc.wantPages)
			}
		})
	}
}

// A HostLimiter forgets the hosts at its own pace whose bursts have
// refilled, and keeps the ones in use and the ones a Crawl-delay slowed: a
// process mapping a fleet holds no limiter per host it ever met.
func TestHostLimiterForgetsIdleHosts(t *testing.T) {
	t.Run("unlimited hosts never pile up", func(t *testing.T) {
		l := NewHostLimiter(0, 1)
		for i := range 5 * minSweep {
			if err := l.Wait(context.Background(), fmt.Sprintf("h%d.example", i)); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(l.hosts); n > minSweep {
			t.Errorf("%d hosts held after %d were met, want at most %d", n, 5*minSweep, minSweep)
		}
	})
	t.Run("busy and slowed hosts are kept", func(t *testing.T) {
		l := NewHostLimiter(1, 1)
		for i := range 10 {
			if err := l.Wait(context.Background(), fmt.Sprintf("h%d.example", i)); err != nil {
				t.Fatal(err)
			}
		}
		l.slowTo("slow.example", time.Hour)
		l.mu.Lock()
		defer l.mu.Unlock()
		now := time.Now()
		l.forgetIdle(now)
		if n := len(l.hosts); n != 11 {
			t.Errorf("%d hosts held just after each was sent a request, want 11", n)
		}
		l.forgetIdle(now.Add(2 * time.Second)) // every burst has refilled
		var kept []string
		for h := range l.hosts {
			kept = append(kept, h)
		}
		if diff := cmp.Diff([]string{"slow.example"}, kept); diff != "" {
			t.Errorf("hosts held once idle (-want +got):\n%s", diff)
		}
	})
}
