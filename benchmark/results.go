package benchmark

import "encoding/json"

// Results is the content of benchmark/results.json. The overall figures sit
// at the top level; Sites has one entry per fixture site.
type Results struct {
	Command     string  `json:"command"`
	GeneratedAt string  `json:"generatedAt"`
	Machine     Machine `json:"machine"`

	// SiteCount is the number of sites mapped.
	SiteCount int `json:"siteCount"`
	// SitesWithCompleteAction counts sites yielding at least one complete action.
	SitesWithCompleteAction int `json:"sitesWithCompleteAction"`
	// SiteMappability is SitesWithCompleteAction / SiteCount: the seed's headline measure.
	SiteMappability float64 `json:"siteMappability"`
	// ActionsDetected and ActionsComplete are summed over every site.
	ActionsDetected int `json:"actionsDetected"`
	ActionsComplete int `json:"actionsComplete"`
	// ActionCompleteness is ActionsComplete / ActionsDetected (0 when none).
	ActionCompleteness float64 `json:"actionCompleteness"`
	// MissingTally counts, per completeness code (without its ":detail"), the
	// actions across sites that miss it (shared.GraphReport.MissingTally summed).
	MissingTally map[string]int `json:"missingTally"`
	// BlockerTally counts barrier blockers across sites.
	BlockerTally map[string]int `json:"blockerTally"`
	// Agreement compares what the mapper found with each site's SITE.md.
	Agreement Agreement `json:"agreement"`
	// Performance holds ratios measured in this run.
	Performance Performance `json:"performance"`

	Sites []SiteResult `json:"sites"`

	// Classifier is the Formasaurus evaluation (benchmark/cmd/formeval), kept
	// as written when the site benchmark rewrites the file.
	Classifier json.RawMessage `json:"classifier,omitempty"`
}

// Machine records where the figures were measured.
type Machine struct {
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	CPUs      int    `json:"cpus"`
	CPUModel  string `json:"cpuModel"`
	GoVersion string `json:"goVersion"`
	Chromium  string `json:"chromium"`
	// LoadAverage is /proc/loadavg's 1-minute figure when the run started:
	// the machine is shared, so absolute times depend on it (ratios less).
	LoadAverage float64 `json:"loadAverage"`
}

// Agreement counts actions against the human judgement in SITE.md.
type Agreement struct {
	// Named is how many actions the SITE.md files name.
	Named int `json:"named"`
	// Found is how many of those the mapper found (same kind, a shared door).
	Found int `json:"found"`
	// Missed is Named - Found.
	Missed int `json:"missed"`
	// Extra is how many mapped actions no SITE.md names.
	Extra int `json:"extra"`
	// Recall is Found / Named; Precision is Found / (Found + Extra).
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	// RequiredNamed counts the fields SITE.md says a person must fill in
	// the found actions; RequiredFound those the mapper marks required with
	// the same meaning; RequiredExtra the required agent-fillable inputs it
	// mapped that no judgement names. RequiredRecall is Found / Named,
	// RequiredPrecision Found / (Found + Extra).
	RequiredNamed     int     `json:"requiredNamed"`
	RequiredFound     int     `json:"requiredFound"`
	RequiredExtra     int     `json:"requiredExtra"`
	RequiredRecall    float64 `json:"requiredRecall"`
	RequiredPrecision float64 `json:"requiredPrecision"`
}

// Performance holds the speed figures, each a ratio measured in the same run
// on the same machine, so that they compare across machines.
type Performance struct {
	// WallSeconds is the whole run end to end: serving, mapping, the floor,
	// scoring, compiling and writing every output (set by Main).
	WallSeconds float64 `json:"wallSeconds"`
	// ArtefactSeconds is the part of WallSeconds the benchmark spends on
	// its own measurements rather than on mapping the sites: the floor, the
	// scoring against each SITE.md, the reader/writer throughput and (when
	// asked) the scaling run. ProductSeconds is WallSeconds without it —
	// serving, mapping, compiling and writing, what mapping the fifteen
	// sites costs a user.
	ArtefactSeconds float64 `json:"artefactSeconds"`
	ProductSeconds  float64 `json:"productSeconds"`
	// Concurrency is how many sites were mapped at once.
	Concurrency int `json:"concurrency"`
	// MapSeconds is the wall time to map every site; SiteSeconds the sum
	// of the sites' own wall times; PagesOpened the pages the mapper opened
	// in the browser; PagesPerSecond = PagesOpened / MapSeconds.
	MapSeconds     float64 `json:"mapSeconds"`
	SiteSeconds    float64 `json:"siteSeconds"`
	PagesOpened    int     `json:"pagesOpened"`
	PagesPerSecond float64 `json:"pagesPerSecond"`
	// Floor is the physical floor per page, measured right after mapping.
	Floor Floor `json:"floor"`
	// PerPageToFloor is SiteSeconds / PagesOpened / Floor.PerPageSeconds:
	// one page's cost to the mapper (with the other sites mapped beside it)
	// against merely looking at it once. WallPerPageToFloor uses MapSeconds.
	PerPageToFloor     float64 `json:"perPageToFloor"`
	WallPerPageToFloor float64 `json:"wallPerPageToFloor"`
	// Scaling: the whole set mapped at several concurrencies in one run
	// (bench --scaling), kept as written by runs without --scaling;
	// ScalingNote says when and how it was measured.
	Scaling     []ScalingPoint `json:"scaling,omitempty"`
	ScalingNote string         `json:"scalingNote,omitempty"`
	// Before holds the figures of the mapper before issue 14, measured with
	// the floor of that time (a new tab per page and a fixed 300 ms settle),
	// kept as written when the benchmark rewrites the file.
	Before json.RawMessage `json:"before,omitempty"`
	// Reader and writer throughput against encoding/json on the same bytes.
	ReaderMBps      float64 `json:"readerMBps"`
	JSONDecodeMBps  float64 `json:"jsonDecodeMBps"`
	ReaderToJSON    float64 `json:"readerToJSON"`
	WriterMBps      float64 `json:"writerMBps"`
	JSONEncodeMBps  float64 `json:"jsonEncodeMBps"`
	WriterToJSON    float64 `json:"writerToJSON"`
	ThroughputBytes int     `json:"throughputBytes"`
	ThroughputNote  string  `json:"throughputNote"`
	// ReaderAdversarial holds the figures of shared's
	// BenchmarkReadAdversarial (hostile documents against a valid one of the
	// same size), recorded with the command that measured them; a bench run
	// keeps what it finds (WriteResults).
	ReaderAdversarial json.RawMessage `json:"readerAdversarial,omitempty"`
	// Executor is the executor's benchmark (executor/bench_test.go), kept
	// as recorded there: this harness does not run it (see
	// docs/executor.md).
	Executor json.RawMessage `json:"executor,omitempty"`
	// Fleet is the fleet's benchmark (fleet/bench_test.go: sites/min
	// through the queue and through a plain pool), kept as recorded there.
	Fleet json.RawMessage `json:"fleet,omitempty"`
	// Confine is topology's BenchmarkConfine (a confined tab against a
	// plain one, what the executor's browser door and the verifier's
	// sandbox pay per call), kept as recorded there.
	Confine json.RawMessage `json:"confine,omitempty"`
}

// Floor is the physical floor: what looking at the pages once costs.
type Floor struct {
	Method         string  `json:"method"`
	Pages          int     `json:"pages"`
	Seconds        float64 `json:"seconds"`
	PerPageSeconds float64 `json:"perPageSeconds"`
	PerPageMs      float64 `json:"perPageMs"`
}

// ScalingPoint is the whole set mapped at one concurrency.
type ScalingPoint struct {
	Tabs           int     `json:"tabs"`
	Seconds        float64 `json:"seconds"`
	Pages          int     `json:"pages"`
	PagesPerSecond float64 `json:"pagesPerSecond"`
	// PerPageToFloor is Seconds / Pages against FloorPerPageMs, the floor
	// measured right before this level: at 1 tab, the mapper's sequential
	// cost of a page.
	FloorPerPageMs float64 `json:"floorPerPageMs"`
	PerPageToFloor float64 `json:"perPageToFloor"`
	// Peak resident memory while mapping at this concurrency: Chromium's
	// (the launched browser's process tree, summed, sampled every 50 ms; 0
	// for a browser connected by URL) and this process's (VmHWM).
	ChromiumPeakRSSMB float64 `json:"chromiumPeakRssMB"`
	ProcessPeakRSSMB  float64 `json:"processPeakRssMB"`
	Errors            int     `json:"errors"`
}

// SiteResult is one site's figures.
type SiteResult struct {
	Site        string         `json:"site"`
	URL         string         `json:"url"`
	Error       string         `json:"error,omitempty"`
	Actions     int            `json:"actions"`
	Complete    int            `json:"complete"`
	Mappability float64        `json:"mappability"`
	Missing     map[string]int `json:"missing"`
	Blockers    map[string]int `json:"blockers"`
	// Pages is the number of distinct pages among the entry page and those
	// the graph's actions live on (the home page counted once);
	// PagesOpened the pages the mapper opened in the browser, and
	// FloorSeconds the physical floor of that many pages.
	Pages        int     `json:"pages"`
	PagesOpened  int     `json:"pagesOpened"`
	WallSeconds  float64 `json:"wallSeconds"`
	FloorSeconds float64 `json:"floorSeconds"`
	MapToFloor   float64 `json:"mapToFloor"`
	// Agreement with this site's SITE.md.
	Named  []string `json:"named"`
	Found  []string `json:"found"`
	Missed []string `json:"missed"`
	Extra  []string `json:"extra"`
	// Required fields of the found actions against SITE.md (see Agreement);
	// RequiredDiffs says, per action, what was missing or extra.
	RequiredNamed int      `json:"requiredNamed"`
	RequiredFound int      `json:"requiredFound"`
	RequiredExtra int      `json:"requiredExtra"`
	RequiredDiffs []string `json:"requiredDiffs"`
	// Graph is the mapped Action Graph, canonical, as written to out/<site>/graph.json.
	Graph json.RawMessage `json:"graph,omitempty"`
}
