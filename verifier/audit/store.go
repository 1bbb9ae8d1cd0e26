package audit

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgxpool"
	"modernc.org/sqlite" // the "sqlite" database/sql driver, and its error codes
)

// Driver names, as Store.Driver reports them.
const (
	DriverSQLite   = "sqlite"
	DriverPostgres = "postgres"
)

// Bounds on what one record may hold. A request or subject beyond them is
// refused (ErrInvalid: nothing is begun); a completion's response is kept up
// to MaxResponse bytes and the rest dropped, since refusing it would lose the
// completion itself.
const (
	MaxRequest  = 1 << 20
	MaxSubject  = 1 << 20
	MaxResponse = 64 << 10
	MaxText     = 64 << 10 // ids, names, reasons, error texts
)

// sqliteBusyTimeout is how long a SQLite writer waits for another
// connection's or process's write transaction before giving up.
const sqliteBusyTimeout = 15 * time.Second

// pgConnectTimeout bounds one connection attempt to PostgreSQL when the URL
// does not set connect_timeout, so an unreachable server fails Open quickly.
const pgConnectTimeout = 5 * time.Second

// Store is the audit store. It is safe for concurrent use by many
// goroutines, and many processes may open the same database.
type Store struct {
	driver string
	db     backend
	closed atomic.Bool
}

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// DefaultPath is the SQLite file Open uses for an empty url:
// $XDG_DATA_HOME/frontlatch/audit.db, or ~/.local/share/frontlatch/audit.db.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "frontlatch", "audit.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", &StoreError{Op: "open", Kind: ErrInvalid, Detail: "no data directory: set XDG_DATA_HOME or HOME, or give a path", Err: err}
	}
	return filepath.Join(home, ".local", "share", "frontlatch", "audit.db"), nil
}

// Open opens the store, creating and migrating its database. url is
//
//   - "" → SQLite at DefaultPath();
//   - a file path, or "sqlite:PATH" → SQLite (modernc.org/sqlite) at PATH,
//     its directory created when missing, in WAL mode with a busy timeout.
//     Every committed record survives the process being killed, whatever
//     the setting. What survives a power loss (or an OS crash) is chosen by
//     "sqlite:PATH?synchronous=critical|full|normal" (see Durability):
//     critical, the default, fsyncs the commits whose loss would be unsafe
//     — an attempt begun before its network call, a confirmation, a
//     revocation — and not those whose loss degrades to a safe state (a
//     completion: the attempt becomes outcome unknown; a refusal, a
//     notification try, a recovery mark, a heartbeat); full fsyncs every
//     commit; normal none;
//   - "postgres://…" or "postgresql://…" → PostgreSQL through a pgx/v5
//     pool (connect_timeout defaults to 5 s).
//
// Any other scheme is ErrInvalid. A database that cannot be reached is
// ErrUnavailable; a file that is not a SQLite database, or a corrupt one,
// is ErrNotAuditStore; one whose schema is newer than this code is
// ErrSchemaVersion. Open applies the embedded migrations it lacks, in
// order, each in one transaction, recorded in schema_migrations; many
// processes may Open the same database at once. It migrates only an empty
// database or one it migrated before: a database that holds other tables
// and no schema_migrations of the store's (an application's) is
// ErrNotAuditStore, and nothing is added to it.
func Open(ctx context.Context, url string) (*Store, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var s *Store
	var err error
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		s, err = openPostgres(ctx, url)
	case strings.Contains(url, "://"):
		scheme, _, _ := strings.Cut(url, "://")
		return nil, &StoreError{Op: "open", Kind: ErrInvalid, Detail: fmt.Sprintf("unknown store URL scheme %q: give a file path, sqlite:PATH, or postgres://…", scheme)}
	default:
		p, d := url, DurabilityCritical
		if rest, ok := strings.CutPrefix(url, "sqlite:"); ok {
			p = rest
			if path, opts, ok := strings.Cut(rest, "?"); ok {
				p = path
				if d, err = sqliteSync(opts); err != nil {
					return nil, err
				}
			}
		}
		if url == "" {
			if p, err = DefaultPath(); err != nil {
				return nil, err
			}
		}
		s, err = openSQLite(ctx, p, d)
	}
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		_ = s.db.close()
		return nil, err
	}
	return s, nil
}

// Durability is what a committed SQLite record survives beyond a killed
// process (which every setting survives: the WAL is written before a
// commit returns). It is the sqlite: URL's synchronous option.
type Durability string

const (
	// DurabilityCritical (the default): the commits whose loss would be
	// unsafe wait for an fsync of the WAL — BeginAttempt (the record of an
	// attempt, written before its network call, that the cap counts),
	// RecordConfirmation, RecordRevocation and migrations — and survive a
	// power loss. The others — CompleteAttempt, RecordRefusal,
	// RecordNotification, RecoverAbandoned, Heartbeat — do not wait: a
	// power loss may lose the last of them (until the next fsynced commit
	// or checkpoint), and a lost completion leaves its attempt begun and
	// never completed, which RecoverAbandoned marks outcome unknown — the
	// state a killed process leaves, counted by the cap, never re-sent.
	DurabilityCritical Durability = "critical"
	// DurabilityFull: every commit waits for an fsync (SQLite
	// synchronous=FULL) and survives a power loss.
	DurabilityFull Durability = "full"
	// DurabilityNormal: no commit waits for an fsync (SQLite
	// synchronous=NORMAL). A power loss may lose the last records of any
	// kind — attempts that did fire, and revocations, included — though
	// the database stays consistent.
	DurabilityNormal Durability = "normal"
)

// sqliteSync reads the one option a sqlite: URL may carry:
// synchronous=critical (the default), full or normal.
func sqliteSync(opts string) (Durability, error) {
	bad := &StoreError{Op: "open", Driver: DriverSQLite, Kind: ErrInvalid,
		Detail: fmt.Sprintf("sqlite: URL options %q: the one option is synchronous=critical, synchronous=full or synchronous=normal", opts)}
	key, v, ok := strings.Cut(opts, "=")
	if !ok || key != "synchronous" {
		return "", bad
	}
	switch d := Durability(strings.ToLower(v)); d {
	case DurabilityCritical, DurabilityFull, DurabilityNormal:
		return d, nil
	}
	return "", bad
}

func openSQLite(ctx context.Context, p string, d Durability) (*Store, error) {
	s := &Store{driver: DriverSQLite}
	switch {
	case strings.TrimSpace(p) == "":
		return nil, s.invalid("open", "empty SQLite path")
	case p == ":memory:" || strings.HasPrefix(p, "file:"):
		return nil, s.invalid("open", "SQLite path %q: give a file path (an audit store must persist; URIs are not accepted)", p)
	case strings.ContainsAny(p, "?\x00"):
		return nil, s.invalid("open", "SQLite path %q holds '?' or NUL (the driver would read what follows '?' as options)", p)
	}
	if dir := filepath.Dir(p); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, s.fail("open", ErrUnavailable, err, "cannot create the directory of %q", p)
		}
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return nil, s.invalid("open", "SQLite path %q is a directory", p)
	}
	sync := "NORMAL"
	if d == DurabilityFull {
		sync = "FULL"
	}
	dsn := p + "?_busy_timeout=" + strconv.Itoa(int(sqliteBusyTimeout/time.Millisecond)) +
		"&_journal_mode=WAL&_synchronous=" + sync + "&_foreign_keys=1&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, s.unavailable("open", err)
	}
	// Few connections: this process runs one write transaction at a time
	// (sqliteDB.writer); WAL lets the readers run beside it.
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	sdb := &sqliteDB{db: db, stmts: newStmtCache(db), critical: d == DurabilityCritical, writer: make(chan struct{}, 1)}
	s.db = sdb
	if err := pingSQLite(ctx, sdb); err != nil {
		_ = sdb.close()
		if sqliteNotDatabase(err) {
			return nil, s.notAuditStore("open", err, "%q is not a SQLite database, or is corrupt: give the audit store's own file", p)
		}
		return nil, s.unavailable("open", err)
	}
	return s, nil
}

// sqliteNotDatabase reports whether err is SQLite's answer for a file that
// is no database (SQLITE_NOTADB, primary code 26) or a corrupt one
// (SQLITE_CORRUPT, 11): neither goes away by retrying.
func sqliteNotDatabase(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff
	return code == 26 || code == 11
}

// sqliteBusy reports whether err is SQLite's SQLITE_BUSY (primary code 5).
func sqliteBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == 5
}

// pingSQLite opens the first connection, retrying while the file is busy:
// switching a new connection to WAL needs a lock that SQLite's busy
// handler does not wait for, so processes opening one store at once (a
// fleet of executors starting together) would otherwise see SQLITE_BUSY.
func pingSQLite(ctx context.Context, db *sqliteDB) error {
	deadline := time.Now().Add(sqliteBusyTimeout)
	wait := 5 * time.Millisecond
	for {
		err := db.ping(ctx)
		if err == nil || !sqliteBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

func openPostgres(ctx context.Context, url string) (*Store, error) {
	s := &Store{driver: DriverPostgres}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, s.fail("open", ErrInvalid, err, "cannot parse the PostgreSQL URL")
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, s.unavailable("open", err)
	}
	s.db = &pgDB{pool: pool}
	if err := s.db.ping(ctx); err != nil {
		pool.Close()
		return nil, s.fail("open", ErrUnavailable, err, "cannot reach PostgreSQL at %s:%d", cfg.ConnConfig.Host, cfg.ConnConfig.Port)
	}
	return s, nil
}

// Close releases the store. Every later call returns ErrUnavailable.
func (s *Store) Close() error {
	if s == nil || !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	if err := s.db.close(); err != nil {
		return s.unavailable("close", err)
	}
	return nil
}

// Driver is "sqlite" or "postgres".
func (s *Store) Driver() string { return s.driver }

// ready returns an error when the store cannot be used.
func (s *Store) ready(ctx context.Context, op string) error {
	if s == nil || s.db == nil {
		return &StoreError{Op: op, Kind: ErrUnavailable, Detail: "nil store"}
	}
	if s.closed.Load() {
		return s.fail(op, ErrUnavailable, nil, "store is closed")
	}
	if ctx == nil {
		return s.invalid(op, "nil context")
	}
	if err := ctx.Err(); err != nil {
		return s.fail(op, ErrUnavailable, err, "")
	}
	return nil
}

// dbErr wraps a driver error: ErrUnavailable, keeping the context's error
// reachable. A *StoreError passes through.
func (s *Store) dbErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var se *StoreError
	if errors.As(err, &se) {
		return err
	}
	if s.closed.Load() {
		return s.fail(op, ErrUnavailable, err, "store is closed")
	}
	return s.unavailable(op, err)
}

// ---- migrations ----

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations of a driver, in version order.
func migrations(driver string) ([]migration, error) {
	dir := path.Join("migrations", driver)
	entries, err := fs.ReadDir(migrationFS, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 || !strings.HasSuffix(name, ".sql") {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.sql", name)
		}
		b, err := fs.ReadFile(migrationFS, path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: versions must run 1, 2, 3… without gaps", m.name)
		}
	}
	return out, nil
}

// SchemaVersion is the newest schema version this code knows (the same
// on both drivers).
func SchemaVersion() int {
	ms, _ := migrations(DriverSQLite)
	return len(ms)
}

// migrationsTable is created by Open itself, before any migration.
const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	applied_ns BIGINT NOT NULL
)`

func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations(s.driver)
	if err != nil {
		return s.fail("migrate", ErrSchemaVersion, err, "embedded migrations are malformed")
	}
	return s.migrateWith(ctx, ms)
}

// migrateWith applies, of ms (every migration this code knows), those the
// database lacks.
func (s *Store) migrateWith(ctx context.Context, ms []migration) error {
	err := s.db.write(ctx, writeOpts{lock: "frontlatch-audit-schema", durable: true, unprepared: true}, func(q querier) error {
		if err := s.checkOwnDatabase(ctx, q); err != nil {
			return err
		}
		if _, err := q.exec(ctx, migrationsTable); err != nil {
			return err
		}
		var have int64
		if _, err := one(ctx, q, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", nil, &have); err != nil {
			return err
		}
		if int(have) > len(ms) {
			return s.fail("migrate", ErrSchemaVersion, nil,
				"the database is at schema version %d and this code knows versions up to %d: use a newer frontlatch", have, len(ms))
		}
		for _, m := range ms[have:] {
			if _, err := q.exec(ctx, m.sql); err != nil {
				return s.fail("migrate", ErrUnavailable, err, "migration %s failed", m.name)
			}
			if _, err := q.exec(ctx, "INSERT INTO schema_migrations (version, name, applied_ns) VALUES (?, ?, ?)",
				m.version, m.name, time.Now().UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
	return s.dbErr("migrate", err)
}

// catalogQueries are, per driver, the reads checkOwnDatabase makes of the
// schema the store creates its tables in (SQLite's main database,
// PostgreSQL's current_schema()): whether it holds schema_migrations, the
// first tables or views it holds besides, and how many of the columns of
// the store's schema_migrations that table has.
var catalogQueries = map[string]struct{ hasMigrations, others, columns string }{
	DriverSQLite: {
		hasMigrations: `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`,
		others: `SELECT name FROM sqlite_master WHERE type IN ('table', 'view')
			AND name <> 'schema_migrations' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name LIMIT 3`,
		columns: `SELECT COUNT(*) FROM pragma_table_info('schema_migrations') WHERE name IN ('version', 'name', 'applied_ns')`,
	},
	DriverPostgres: {
		hasMigrations: `SELECT COUNT(*) FROM pg_class WHERE relnamespace = current_schema()::regnamespace
			AND relname = 'schema_migrations' AND relkind IN ('r', 'p')`,
		others: `SELECT relname::text FROM pg_class WHERE relnamespace = current_schema()::regnamespace
			AND relkind IN ('r', 'p', 'v', 'm', 'f') AND relname <> 'schema_migrations' ORDER BY relname LIMIT 3`,
		columns: `SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema()
			AND table_name = 'schema_migrations' AND column_name IN ('version', 'name', 'applied_ns')`,
	},
}

// checkOwnDatabase refuses, with ErrNotAuditStore, a database that is
// another program's: one that holds tables or views but no
// schema_migrations, or whose schema_migrations lacks the store's columns
// (another tool's migrations table). Open would otherwise add the store's
// tables to an application's database. An empty database, or one the
// store migrated, passes.
func (s *Store) checkOwnDatabase(ctx context.Context, q querier) error {
	cq := catalogQueries[s.driver]
	var has int64
	if _, err := one(ctx, q, cq.hasMigrations, nil, &has); err != nil {
		return err
	}
	if has > 0 {
		var cols int64
		if _, err := one(ctx, q, cq.columns, nil, &cols); err != nil {
			return err
		}
		if cols != 3 {
			return s.notAuditStore("migrate", nil, "the database's schema_migrations is another program's (it lacks the audit store's columns version, name and applied_ns): give the audit store a database of its own")
		}
		return nil
	}
	r, err := q.query(ctx, cq.others)
	if err != nil {
		return err
	}
	defer r.Close()
	var names []string
	for r.Next() {
		var n string
		if err := r.Scan(&n); err != nil {
			return err
		}
		names = append(names, n)
	}
	if err := r.Err(); err != nil {
		return err
	}
	if len(names) > 0 {
		return s.notAuditStore("migrate", nil, "the database holds tables of another program (%s…) and no schema_migrations: the audit store adds its tables only to an empty database; give it one of its own", strings.Join(names, ", "))
	}
	return nil
}

// ---- helpers shared by the record files ----

// newID returns prefix + 16 random bytes in hex.
func newID(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return prefix + hex.EncodeToString(b[:])
}

// minTime and maxTime bound the times the store keeps: Unix nanoseconds,
// the form both drivers store them in, hold 1677-09-21 to 2262-04-11.
var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// checkTime refuses a time the store cannot keep, which ns would wrap
// around (a lease ending in 2300 stored as ending in 1715). The zero time,
// which the store takes for now, passes.
func (s *Store) checkTime(op, field string, t time.Time) error {
	if !t.IsZero() && (t.Before(minTime) || t.After(maxTime)) {
		return s.invalid(op, "%s %s is outside the times the store keeps (%s to %s)", field,
			t.UTC().Format(time.RFC3339), minTime.UTC().Format(time.RFC3339), maxTime.UTC().Format(time.RFC3339))
	}
	return nil
}

// ns converts a time to the stored Unix nanoseconds (zero stays zero).
func ns(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromNS converts stored Unix nanoseconds back to a UTC time.
func fromNS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.Unix(0, v).UTC()
}

// nowOr returns t in UTC, or now when t is zero.
func nowOr(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now().UTC()
	}
	return t.UTC()
}

// checkText refuses an empty (when required) or oversized string.
func (s *Store) checkText(op, field, v string, required bool) error {
	if required && strings.TrimSpace(v) == "" {
		return s.invalid(op, "%s is empty", field)
	}
	if len(v) > MaxText {
		return s.invalid(op, "%s is %d bytes, more than %d", field, len(v), MaxText)
	}
	if !storable(v) {
		return s.invalid(op, "%s holds a NUL byte or is not UTF-8", field)
	}
	return nil
}

// storable reports whether v is text both drivers store: valid UTF-8
// without NUL (PostgreSQL's text refuses either). checkText refuses to write
// anything else, so a read by a key that is not storable finds nothing, on
// either driver, without asking the database (PostgreSQL would fail the
// query, which is not "store unavailable").
func storable(v string) bool {
	return !strings.ContainsRune(v, 0) && utf8.ValidString(v)
}

// excerpt makes text that came from elsewhere (an error, a site's answer)
// storable on both drivers: valid UTF-8, no NUL, at most MaxText bytes cut
// at a character boundary.
func excerpt(v string) string {
	v = strings.ToValidUTF8(strings.ReplaceAll(v, "\x00", ""), "\uFFFD")
	if len(v) <= MaxText {
		return v
	}
	cut := MaxText
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut]
}
