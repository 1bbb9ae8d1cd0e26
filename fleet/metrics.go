package fleet

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are a worker's Prometheus metrics: jobs, pages opened, actions found,
// failures by reason, and the queue's depth by state. A nil *Metrics
// records nothing.
type Metrics struct {
	reg      *prometheus.Registry
	jobs     *prometheus.CounterVec
	actions  prometheus.Counter
	pages    prometheus.Counter
	failures *prometheus.CounterVec
	duration prometheus.Histogram
	depth    *prometheus.GaugeVec
}

// NewMetrics registers the fleet's metrics (and the Go and process
// collectors) in a registry of its own.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg:      prometheus.NewRegistry(),
		jobs:     prometheus.NewCounterVec(prometheus.CounterOpts{Name: "frontlatch_fleet_jobs_total", Help: "Map attempts finished by this worker, by outcome (a job retried counts once per failed attempt)."}, []string{"outcome"}),
		actions:  prometheus.NewCounter(prometheus.CounterOpts{Name: "frontlatch_fleet_actions_found_total", Help: "Actions found by the maps of this worker."}),
		pages:    prometheus.NewCounter(prometheus.CounterOpts{Name: "frontlatch_fleet_pages_total", Help: "Pages opened in the browser by the maps of this worker (pages/s is its rate)."}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "frontlatch_fleet_failures_total", Help: "Failed map attempts by reason."}, []string{"reason"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "frontlatch_fleet_map_seconds", Help: "Time to map one site, of the maps that succeeded.", Buckets: prometheus.ExponentialBuckets(0.25, 2, 10)}),
		depth:    prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "frontlatch_fleet_queue_jobs", Help: "Map jobs in the queue, by state."}, []string{"state"}),
	}
	m.reg.MustRegister(m.jobs, m.actions, m.pages, m.failures, m.duration, m.depth,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in Prometheus's text format (for /metrics).
// A nil *Metrics — no metrics, as WorkOptions.Metrics allows — answers
// 404.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "no metrics: this worker records none", http.StatusNotFound)
		})
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Registry is the registry the metrics are in (nil for a nil *Metrics).
func (m *Metrics) Registry() *prometheus.Registry {
	if m == nil {
		return nil
	}
	return m.reg
}

func (m *Metrics) mapped(actions int, took time.Duration) {
	if m == nil {
		return
	}
	m.jobs.WithLabelValues("mapped").Inc()
	m.actions.Add(float64(actions))
	m.duration.Observe(took.Seconds())
}

func (m *Metrics) page() {
	if m != nil {
		m.pages.Inc()
	}
}

func (m *Metrics) failed(reason string) {
	if m == nil {
		return
	}
	m.jobs.WithLabelValues("failed").Inc()
	m.failures.WithLabelValues(reason).Inc()
}

// watchQueue refreshes the queue-depth gauge every few seconds until the
// returned stop is called; stop returns when it no longer reads the
// database.
func (m *Metrics) watchQueue(ctx context.Context, f *Fleet) (stop func()) {
	if m == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			if st, err := f.Status(ctx); err == nil {
				m.depth.WithLabelValues("queued").Set(float64(st.Queued))
				m.depth.WithLabelValues("running").Set(float64(st.Running))
				m.depth.WithLabelValues("done").Set(float64(st.Done))
				m.depth.WithLabelValues("failed").Set(float64(st.Failed))
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
