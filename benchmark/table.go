package benchmark

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// PrintTable writes the per-site table and the overall figures for a person.
func PrintTable(w io.Writer, r *Results) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "site\tactions\tcomplete\tfound/named\textra\tmissing (top)\tblockers\tpages\tmap s\tfloor s\tratio")
	for _, s := range r.Sites {
		if s.Error != "" && s.Graph == nil {
			fmt.Fprintf(tw, "%s\tERROR\t\t\t\t%s\t\t%.2f\t\t\n", s.Site, truncate(s.Error, 60), s.WallSeconds)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d/%d\t%d\t%s\t%s\t%d\t%.2f\t%.2f\t%.1f×\n",
			s.Site, s.Actions, s.Complete, len(s.Found), len(s.Named), len(s.Extra),
			topCodes(s.Missing, 2), topCodes(s.Blockers, 2), s.PagesOpened, s.WallSeconds, s.FloorSeconds, s.MapToFloor)
	}
	tw.Flush()
	for _, s := range r.Sites {
		for _, d := range s.RequiredDiffs {
			fmt.Fprintf(w, "required fields of %s %s\n", s.Site, d)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "site mappability     %.1f%%  (%d of %d sites yield at least one complete action)\n",
		100*r.SiteMappability, r.SitesWithCompleteAction, r.SiteCount)
	fmt.Fprintf(w, "action completeness  %.1f%%  (%d of %d detected actions complete)\n",
		100*r.ActionCompleteness, r.ActionsComplete, r.ActionsDetected)
	fmt.Fprintf(w, "agreement with SITE.md  found %d of %d named (recall %.2f), %d extra (precision %.2f)\n",
		r.Agreement.Found, r.Agreement.Named, r.Agreement.Recall, r.Agreement.Extra, r.Agreement.Precision)
	fmt.Fprintf(w, "required fields         %d of %d named found with their meaning (recall %.2f), %d extra (precision %.2f)\n",
		r.Agreement.RequiredFound, r.Agreement.RequiredNamed, r.Agreement.RequiredRecall, r.Agreement.RequiredExtra, r.Agreement.RequiredPrecision)
	fmt.Fprintf(w, "missing-reason tally %s\n", topCodes(r.MissingTally, 0))
	fmt.Fprintf(w, "blocker tally        %s\n", topCodes(r.BlockerTally, 0))
	p := r.Performance
	fmt.Fprintf(w, "mapping time         %.2fs wall for %d pages, %d sites at a time (%.1f pages/s)\n",
		p.MapSeconds, p.PagesOpened, p.Concurrency, p.PagesPerSecond)
	fmt.Fprintf(w, "per page             %.1f× the physical floor (%.0f ms a page: one reused tab, navigate, load event, one extraction); the run's wall time is %.1f× it\n",
		p.PerPageToFloor, p.Floor.PerPageMs, p.WallPerPageToFloor)
	for _, pt := range p.Scaling {
		fmt.Fprintf(w, "scaling %d tabs       %.1f pages/s (%d pages in %.2fs, %.1f× the %.0f ms floor a page), Chromium peak RSS %.0f MB, process peak RSS %.0f MB\n",
			pt.Tabs, pt.PagesPerSecond, pt.Pages, pt.Seconds, pt.PerPageToFloor, pt.FloorPerPageMs, pt.ChromiumPeakRSSMB, pt.ProcessPeakRSSMB)
	}
	if p.ReaderMBps > 0 {
		fmt.Fprintf(w, "contract reader      %.1f MB/s, %.2f× encoding/json (%.1f MB/s) on the same %d bytes\n", p.ReaderMBps, p.ReaderToJSON, p.JSONDecodeMBps, p.ThroughputBytes)
		fmt.Fprintf(w, "contract writer      %.1f MB/s, %.2f× encoding/json (%.1f MB/s)\n", p.WriterMBps, p.WriterToJSON, p.JSONEncodeMBps)
	}
	fmt.Fprintf(w, "measured on %s, %d CPUs, %s, %s, load average %.2f\n", r.Machine.CPUModel, r.Machine.CPUs, r.Machine.Chromium, r.GeneratedAt, r.Machine.LoadAverage)
	if p.WallSeconds > 0 {
		fmt.Fprintf(w, "total wall time      %.2fs end to end (serving, mapping, floor, scoring, compiling, writing)\n", p.WallSeconds)
		if p.ArtefactSeconds > 0 {
			fmt.Fprintf(w, "without the benchmark's own measurements  %.2fs (serving, mapping, compiling, writing: the floor, the scoring against SITE.md and the throughput runs, %.2fs, left out)\n", p.ProductSeconds, p.ArtefactSeconds)
		}
	}
}

// topCodes renders a tally as "code×n, …", largest first; n=0 means all.
func topCodes(m map[string]int, n int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if n > 0 && len(keys) > n {
		keys = keys[:n]
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
