package fleet

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"golang.org/x/net/idna"
	"modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// Errors of the package; each is wrapped with what it is about.
var (
	// ErrInvalidURL is matched by *URLError: a line of an input file or an
	// argument that is not an http(s) URL of a site.
	ErrInvalidURL = errors.New("fleet: invalid site URL")
	// ErrUnavailable is matched when the database cannot be reached.
	ErrUnavailable = errors.New("fleet: database unavailable")
	// ErrNoSuchSite is matched when a site has never been mapped.
	ErrNoSuchSite = errors.New("fleet: no such site")
	// ErrDatabaseURL is matched when a database URL is neither a SQLite
	// path nor a PostgreSQL URL (CheckDatabaseURL).
	ErrDatabaseURL = errors.New("fleet: not a fleet database URL")
	// ErrNotDatabase is matched when a SQLite path names a folder, or a
	// file that is not a SQLite database: nothing to wait for or retry,
	// unlike ErrUnavailable.
	ErrNotDatabase = errors.New("fleet: not a database")
	// ErrClosed is returned by Work, and by every method that reads or
	// writes the database, on a Fleet already closed.
	ErrClosed = errors.New("fleet: closed")
	// ErrNoAuditStore is matched when a map of a site whose latest graph
	// holds owner-confirmed actions reaches a worker without an audit store
	// (WorkOptions.Audit): the map is not recorded, for a graph recorded
	// unreconciled would drop every confirmation from the site's latest.
	ErrNoAuditStore = errors.New("fleet: no audit store to reconcile the map with")
)

// CheckDatabaseURL checks what Open is given before anything is opened or
// created: a SQLite file path, "sqlite:PATH", or a postgres:// or
// postgresql:// URL. Anything else that starts with a scheme —
// postgres:/x (one slash), mysql://…, http://… — is refused (matching
// ErrDatabaseURL) rather than taken for a file to create; a file whose name
// really starts so is given as ./NAME.
func CheckDatabaseURL(s string) error {
	scheme, _, ok := strings.Cut(s, ":")
	if !ok || len(scheme) < 2 || !isScheme(scheme) {
		return nil // a path (a one-letter "scheme" is a drive letter)
	}
	switch strings.ToLower(scheme) {
	case "sqlite":
		if scheme == "sqlite" {
			return nil
		}
		return fmt.Errorf("%w: %q: write the scheme sqlite: in lower case (a file of that name is ./%s)", ErrDatabaseURL, s, s)
	case "postgres", "postgresql":
		if strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") {
			return nil
		}
		return fmt.Errorf("%w: %q: a PostgreSQL URL starts postgres:// (a SQLite file of that name is ./%s)", ErrDatabaseURL, s, s)
	}
	return fmt.Errorf("%w: %q: the scheme %s: is not a fleet database; give a SQLite file path (./%s if that is its name) or a postgres:// URL", ErrDatabaseURL, s, scheme, s)
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, +, - or .).
func isScheme(s string) bool {
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// URLError names an input that is not a site URL, and where it came from.
type URLError struct {
	Input  string // the text as given
	Source string // "line 3 of sites.txt", "argument 2"
	Reason string
}

func (e *URLError) Error() string {
	return fmt.Sprintf("fleet: %s: %q is not a site URL: %s", e.Source, e.Input, e.Reason)
}

func (e *URLError) Unwrap() error { return ErrInvalidURL }

// SiteURL checks and canonicalises one site URL: http or https, a host, no
// user info; the fragment is dropped. The canonical form is the job's
// identity, so the same site is not queued twice: the host is lower-cased
// (an internationalised name in its ASCII, punycode form, by IDNA's lookup
// rules) without a trailing dot, and the scheme's default port (443 for
// https, 80 for http) is left out, as a browser writes an origin.
func SiteURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	u, err := url.Parse(s)
	switch {
	case s == "":
		return "", errors.New("empty")
	case err != nil:
		return "", err
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("scheme %q: only http and https sites are mapped", u.Scheme)
	case u.Host == "" || u.Hostname() == "":
		return "", errors.New("no host")
	case u.User != nil:
		return "", errors.New("user info in a site URL is refused")
	}
	host, err := siteHost(u.Hostname())
	if err != nil {
		return "", err
	}
	port := u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 literal
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String(), nil
}

// hostProfile is IDNA's lookup mapping (lower case, NFC, punycode) without
// STD3's ban on underscores, which browsers resolve.
var hostProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.StrictDomainName(false), idna.Transitional(false))

// siteHost canonicalises a URL's host name: an IP address as Go writes it,
// a name lower-cased without its trailing dot (a.example. is a.example),
// a non-ASCII name in punycode.
func siteHost(h string) (string, error) {
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	name := strings.TrimSuffix(h, ".")
	if name == "" || strings.HasSuffix(name, ".") || strings.HasPrefix(name, ".") || strings.Contains(name, "..") {
		return "", fmt.Errorf("host %q has an empty label", h)
	}
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			a, err := hostProfile.ToASCII(name)
			if err != nil {
				return "", fmt.Errorf("host %q is not an internationalised domain name: %w", h, err)
			}
			return a, nil
		}
	}
	return strings.ToLower(name), nil
}

// hostKey is the host of a site URL for the per-host limit: its canonical
// host and port (SiteURL's, so https://a.example:443/ and https://a.example./
// are one host); raw itself when it is not a site URL.
func hostKey(raw string) string {
	if s, err := SiteURL(raw); err == nil {
		raw = s
	}
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}

// DefaultMaxAttempts is Fleet.MaxAttempts unless set.
const DefaultMaxAttempts = 5

//go:embed migrations/*.sql
var migrationFS embed.FS

// Fleet is a queue of sites to map and the store of what mapping them
// found, in one database: River's tables for the queue, fleet_maps for the
// results. Open one per process; it is safe for concurrent use.
type Fleet struct {
	// MaxAttempts is how many times Add's jobs are tried before the site
	// is discarded with its last error (default DefaultMaxAttempts). It is
	// fixed per job when the job is queued.
	MaxAttempts int

	driver string // "sqlite" or "postgres"
	db     *sql.DB
	pool   *pgxpool.Pool // PostgreSQL only
	queue  queue
	url    string

	// closing is done when Close starts: it stops every Work, which
	// Close then waits for (working) before it closes the database.
	closing     context.Context
	closeWork   context.CancelFunc
	mu          sync.Mutex
	closed      bool // under mu
	working     sync.WaitGroup
	closeOnce   sync.Once
	closeResult error
}

// Open opens the fleet database, migrating River's tables and the fleet's
// own: url is a SQLite file path (or "sqlite:PATH") or a postgres:// URL;
// anything else with a scheme is refused (CheckDatabaseURL). A SQLite
// path that names a folder or a file that is not a SQLite database is
// ErrNotDatabase; a database that cannot be reached, ErrUnavailable.
func Open(ctx context.Context, dbURL string) (*Fleet, error) {
	if err := CheckDatabaseURL(dbURL); err != nil {
		return nil, err
	}
	f := &Fleet{url: dbURL, MaxAttempts: DefaultMaxAttempts}
	f.closing, f.closeWork = context.WithCancel(context.Background())
	switch {
	case strings.HasPrefix(dbURL, "postgres://"), strings.HasPrefix(dbURL, "postgresql://"):
		f.driver = "postgres"
		cfg, err := pgxpool.ParseConfig(dbURL)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		cfg.ConnConfig.ConnectTimeout = 5 * time.Second
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err = pool.Ping(pctx)
		cancel()
		if err != nil {
			pool.Close()
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		f.pool = pool
		f.db = stdlib.OpenDBFromPool(pool)
		// Processes opening one new database at once take turns to migrate
		// it: River's migrations and the fleet's are not safe side by side.
		// The lock's connection goes back before any Close, which waits
		// for it.
		unlock, err := migrationLock(ctx, pool)
		if err != nil {
			f.Close()
			return nil, err
		}
		err = migrateRiver(ctx, riverpgxv5.New(pool))
		if err == nil {
			err = f.migrate(ctx)
		}
		unlock()
		if err != nil {
			f.Close()
			return nil, err
		}
		q, err := newRiverQueue(riverpgxv5.New(pool), pgxTx(pool))
		if err != nil {
			f.Close()
			return nil, err
		}
		f.queue = q
	default:
		f.driver = "sqlite"
		path := strings.TrimPrefix(dbURL, "sqlite:")
		if path == "" {
			return nil, fmt.Errorf("%w: no database path", ErrUnavailable)
		}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return nil, fmt.Errorf("%w: %s is a folder, not a database file", ErrNotDatabase, path)
		}
		// One connection: SQLite allows one writer, and River's many
		// internal operations would otherwise meet SQLITE_BUSY.
		db, err := sql.Open("sqlite", sqliteURI(path)+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate")
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		db.SetMaxOpenConns(1)
		if err := pingSQLite(ctx, db); err != nil {
			db.Close()
			var se *sqlite.Error
			if errors.As(err, &se) && se.Code()&0xff == sqliteNotADB {
				return nil, fmt.Errorf("%w: %s is not a SQLite database: %w", ErrNotDatabase, path, err)
			}
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		f.db = db
		drv := riversqlite.New(db)
		err = migrateRiver(ctx, drv)
		if err == nil {
			err = f.migrate(ctx)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		q, err := newRiverQueue(drv, sqlTx(db))
		if err != nil {
			f.Close()
			return nil, err
		}
		f.queue = q
	}
	return f, nil
}

// sqliteURI is the SQLite URI (file:…) of the file at path, whatever its
// name: '?' and '#' would end the URI's path there (fleet#2.db was the
// file fleet, and a?b.db was a without the DSN's pragmas), '%' would
// start an escape (100%41.db was 100A.db), and a path that starts with //
// would name a host.
func sqliteURI(path string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	if strings.HasPrefix(path, "/") {
		return "file://" + esc // an empty authority, then the absolute path
	}
	return "file:" + esc
}

// SQLite's primary result codes that Open tells apart.
const (
	sqliteBusy   = 5  // SQLITE_BUSY
	sqliteNotADB = 26 // SQLITE_NOTADB: the file is not a database
)

// pingSQLite opens the database's first connection, which applies the
// DSN's pragmas. Its journal_mode(WAL) on a new file that another process
// is turning into WAL at that moment fails at once with SQLITE_BUSY (SQLite
// does not wait out its busy timeout there): it is tried again, briefly,
// within ctx.
func pingSQLite(ctx context.Context, db *sql.DB) error {
	delay, deadline := 5*time.Millisecond, time.Now().Add(10*time.Second)
	for {
		err := db.PingContext(ctx)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqliteBusy || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, 200*time.Millisecond)
	}
}

// Driver returns "sqlite" or "postgres".
func (f *Fleet) Driver() string { return f.driver }

// Close stops workers started by Work (if still running), as the end of
// Work's context does — their running jobs get StopGrace to finish and are
// recorded, the others are queued again — and waits for each Work to
// return; then it closes the database. Work, and every method that reads
// or writes the database, on a closed Fleet returns ErrClosed. Close may
// be called more than once.
func (f *Fleet) Close() error {
	f.closeOnce.Do(func() {
		f.mu.Lock()
		f.closed = true
		f.mu.Unlock()
		if f.closeWork != nil {
			f.closeWork()
		}
		f.working.Wait()
		if f.db != nil {
			f.closeResult = f.db.Close()
		}
		if f.pool != nil {
			f.pool.Close()
		}
	})
	return f.closeResult
}

// checkOpen is ErrClosed once Close has started.
func (f *Fleet) checkOpen() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return ErrClosed
	}
	return nil
}

// startWork registers a Work, to be stopped and waited for by Close, and
// returns its context (ctx, ended by Close too) and what unregisters it.
func (f *Fleet) startWork(ctx context.Context) (context.Context, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, nil, ErrClosed
	}
	f.working.Add(1)
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(f.closing, cancel)
	return ctx, func() {
		stop()
		cancel()
		f.working.Done()
	}, nil
}

// migrationLockKey is the PostgreSQL advisory lock Open holds while it
// migrates (any fixed number, the same in every process).
const migrationLockKey = 0x66_6c_65_65_74_6d_69_67 // "fleetmig"

// migrationLock takes PostgreSQL's advisory lock of the fleet's migrations
// on a connection of its own, waiting for another process that holds it
// (within ctx), and returns what releases it.
func migrationLock(ctx context.Context, pool *pgxpool.Pool) (unlock func(), err error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLockKey)); err != nil {
		conn.Release()
		return nil, unavailableIn("waiting for another process's migrations", err)
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := conn.Exec(uctx, `SELECT pg_advisory_unlock($1)`, int64(migrationLockKey)); err != nil {
			// The lock is the session's: a connection that cannot say
			// unlock is closed, which releases it.
			conn.Conn().Close(uctx)
		}
		conn.Release()
	}, nil
}

// migrateRiver applies River's migrations. River reads which are applied
// before it applies each in a transaction of its own, so two processes
// opening one new SQLite file at once race: the one whose migration another
// has just applied fails (the table already exists) and is tried again, and
// then sees it applied. Each retry follows another process's progress, so
// there are at most as many as there are migrations. (PostgreSQL's are
// serialised by migrationLock.)
func migrateRiver[TTx any](ctx context.Context, drv riverdriver.Driver[TTx]) error {
	m, err := rivermigrate.New(drv, nil)
	if err != nil {
		return fmt.Errorf("fleet: river migrations: %w", err)
	}
	for tries := len(m.AllVersions()) + 1; ; tries-- {
		_, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
		if err == nil {
			return nil
		}
		if tries <= 1 || ctx.Err() != nil {
			return unavailableIn("river migrations", err)
		}
	}
}

// migrate applies the fleet's own migrations (migrations/NNNN_name.sql,
// in order, each once, recorded in fleet_migrations). Each is applied in a
// transaction that first reads which are applied: on SQLite the
// transaction is immediate (it holds the write lock from its start), on
// PostgreSQL Open holds migrationLock, so processes opening one new
// database at once apply each migration once.
func (f *Fleet) migrate(ctx context.Context) error {
	if _, err := f.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS fleet_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return unavailable(err)
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for {
		done, err := f.migrateNext(ctx, names)
		if err != nil || done {
			return err
		}
	}
}

// migrateNext applies the first of names not yet applied, in a transaction
// of its own, and reports whether every one already was.
func (f *Fleet) migrateNext(ctx context.Context, names []string) (done bool, err error) {
	tx, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		return false, unavailable(err)
	}
	defer tx.Rollback()
	var have int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM fleet_migrations`).Scan(&have); err != nil {
		return false, unavailable(err)
	}
	if have > len(names) {
		return false, fmt.Errorf("fleet: the database's schema (version %d) is newer than this program's (%d): upgrade frontlatch", have, len(names))
	}
	if have == len(names) {
		return true, nil
	}
	name := names[have]
	body, err := migrationFS.ReadFile(name)
	if err != nil {
		return false, err
	}
	stmt := string(body)
	if f.driver == "postgres" {
		stmt = strings.ReplaceAll(stmt, "INTEGER PRIMARY KEY AUTOINCREMENT", "BIGSERIAL PRIMARY KEY")
	}
	for _, s := range strings.Split(stmt, ";\n") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return false, fmt.Errorf("fleet: migration %s: %w", name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO fleet_migrations (version, applied_at) VALUES ($1, $2)`, have+1, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return false, fmt.Errorf("fleet: migration %s: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("fleet: migration %s: %w", name, err)
	}
	return false, nil
}
