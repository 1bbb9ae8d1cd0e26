package mcpserver

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultInterval is how often the server re-checks every action against
// the gate and the graph file for changes, when Options.Interval is zero.
const DefaultInterval = 2 * time.Second

// Options tune a Server. The zero value is usable.
type Options struct {
	// Name and Version identify the server to clients (default "frontlatch"
	// and "0.1.0").
	Name, Version string
	// Interval is how often every action is re-checked against the gate and
	// the graph re-read (default DefaultInterval). A revoked or drifted
	// action leaves the list within about one interval.
	Interval time.Duration
	// CheckTimeout bounds one re-check of every action (default 10s).
	CheckTimeout time.Duration
	// Logger receives what the server does not tell a client: a graph that
	// cannot be read, an action the gate refuses (default: discard).
	Logger *slog.Logger
}

// Server serves one graph's live-executable actions as MCP tools.
type Server struct {
	graph  Graph
	exec   *executor.Executor
	audit  shared.AuditLookup
	opts   Options
	mcp    *mcp.Server
	log    *slog.Logger
	cancel context.CancelFunc
	done   chan struct{}

	refreshMu sync.Mutex // one re-check at a time

	mu     sync.Mutex
	snap   *snapshot
	listed map[string][32]byte // tool name → definition digest, as registered with the SDK
}

// New returns a server for the graph read from g, firing through exec, with
// audit (the verifier's audit store) as the gate's lookup. It reads the
// graph and checks every action once before returning, and keeps
// re-checking every Options.Interval until ctx is done or Close is called.
// A graph that cannot be read or compiled is not an error here: nothing is
// listed until it can be (the reason is logged and returned by Refresh).
func New(ctx context.Context, g Graph, exec *executor.Executor, audit shared.AuditLookup, opts Options) (*Server, error) {
	if g == nil || exec == nil {
		return nil, fmt.Errorf("%w: a graph and an executor are required", ErrOptions)
	}
	if audit == nil {
		return nil, fmt.Errorf("%w: an audit lookup (the verifier's audit store) is required", ErrOptions)
	}
	if opts.Name == "" {
		opts.Name = "frontlatch"
	}
	if opts.Version == "" {
		opts.Version = "0.1.0"
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.CheckTimeout <= 0 {
		opts.CheckTimeout = 10 * time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{graph: g, exec: exec, audit: audit, opts: opts, log: log, listed: map[string][32]byte{}, done: make(chan struct{})}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Title: "Frontlatch", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: "Each tool fires a real action on the business's website (a booking, an enquiry, a callback request) that the business's owner confirmed for agents. " +
			"Call a tool only when the person you act for asked for that action, with their details. The result says exactly what was sent and what the site answered.",
		Logger: log,
		// Advertise tools, with list_changed, even while none passes the gate:
		// a client learns of a tool that becomes live.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	s.mcp.AddReceivingMiddleware(s.middleware)
	_ = s.Refresh(ctx) // logged; nothing is listed until the graph can be read

	wctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	go s.watch(wctx)
	return s, nil
}

// MCP returns the SDK server, to connect to a transport of the caller's
// choosing (as the tests do with in-memory transports).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close stops the re-checks. Connected sessions are the transports' to close.
func (s *Server) Close() error {
	s.cancel()
	<-s.done
	return nil
}

// ServeStdio serves one client over standard input and output until the
// client disconnects or ctx is done.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.mcp.Run(ctx, &mcp.StdioTransport{})
}

// Tools returns the names of the tools listed now, sorted.
func (s *Server) Tools() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.listed))
	for n := range s.listed {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (s *Server) watch(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = s.Refresh(ctx)
		}
	}
}

// Refresh re-reads the graph and re-checks every action against the gate
// now, adding the tools that pass and removing those that do not; connected
// clients are told when the list changes. It returns the graph's error when
// the graph cannot be read or compiled (then nothing is listed).
func (s *Server) Refresh(ctx context.Context) error {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, s.opts.CheckTimeout)
	defer cancel()

	snap, err := s.read(ctx)
	if err != nil && snap == nil {
		// The graph cannot be read: nothing it said before may stay listed.
		s.log.Warn("mcpserver: graph unreadable; no tool is listed", "graph", s.graph.String(), "err", err)
		s.apply(&snapshot{tools: map[string]*toolDef{}, err: err}, nil)
		return err
	}
	if snap.err != nil {
		s.log.Warn("mcpserver: graph does not compile; no tool is listed", "err", snap.err)
		s.apply(snap, nil)
		return snap.err
	}
	live := map[string]bool{}
	granted := map[string]bool{} // per action, checked once per refresh
	for _, name := range snap.names {
		def := snap.tools[name]
		ok, seen := granted[def.actionID]
		if !seen {
			ok = s.gate(ctx, snap, def.actionID) == nil
			granted[def.actionID] = ok
		}
		live[name] = ok
	}
	if ctx.Err() != nil { // a re-check cut short grants nothing new, and revokes nothing on its account either
		return ctx.Err()
	}
	s.apply(snap, live)
	return nil
}

// gate runs the consent gate on one action of snap, logging a refusal.
func (s *Server) gate(ctx context.Context, snap *snapshot, actionID string) error {
	raw, err := snap.action(actionID)
	if err != nil {
		s.log.Warn("mcpserver: action not found in the graph", "action", actionID, "err", err)
		return err
	}
	if err := shared.AssertLiveExecutionAllowedContext(ctx, raw, s.audit); err != nil {
		s.log.Info("mcpserver: action not listed", "action", actionID, "reason", err.Error())
		return err
	}
	return nil
}

// read returns the graph as it is now: the current snapshot when its bytes
// are unchanged, a new one compiled from them otherwise. A nil snapshot
// means the graph could not be read at all.
func (s *Server) read(ctx context.Context) (*snapshot, error) {
	data, err := s.graph.Read(ctx)
	if err != nil {
		return nil, &GraphError{Source: s.graph.String(), Err: err}
	}
	s.mu.Lock()
	cur := s.snap
	s.mu.Unlock()
	if cur != nil && cur.graph != nil && cur.sum == sumOf(data) {
		return cur, cur.err
	}
	snap := compile(s.graph.String(), data)
	return snap, snap.err
}

// apply makes the SDK's tool list the tools of snap marked live, removing
// and adding only what changed, so that clients are notified only then.
func (s *Server) apply(snap *snapshot, live map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snap = snap
	var remove []string
	for name, sum := range s.listed {
		def, ok := snap.tools[name]
		if !ok || !live[name] || def.sum != sum {
			remove = append(remove, name)
		}
	}
	if len(remove) > 0 {
		slices.Sort(remove)
		s.mcp.RemoveTools(remove...)
		for _, n := range remove {
			delete(s.listed, n)
		}
	}
	for _, name := range snap.names {
		if !live[name] {
			continue
		}
		def := snap.tools[name]
		if _, ok := s.listed[name]; ok {
			continue
		}
		s.mcp.AddTool(def.tool, s.handler(name, def.actionID))
		s.listed[name] = def.sum
	}
}

// middleware re-checks before every tools/list, so a list is always the
// gate's answer now, and routes a call to a tool the graph defines but
// does not list through the executor, so its refusal carries the gate's
// reasons; a call to a tool the graph does not define goes on to the SDK,
// which answers that the tool is unknown.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			_ = s.Refresh(ctx)
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				s.mu.Lock()
				_, listed := s.listed[r.Params.Name]
				var def *toolDef
				if s.snap != nil {
					def = s.snap.tools[r.Params.Name]
				}
				s.mu.Unlock()
				if def != nil && !listed {
					return s.handler(r.Params.Name, def.actionID)(ctx, r)
				}
			}
		}
		return next(ctx, method, req)
	}
}

func sumOf(data []byte) [32]byte { return sha256.Sum256(data) }
