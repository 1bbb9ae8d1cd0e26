package benchmark

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
)

// measureScaling maps the whole set once at each concurrency, in the same
// browser one after the other, and records pages/s with the peak resident
// memory of Chromium (all its processes, sampled every 50 ms) and of this
// process (VmHWM, reset before each level where the kernel allows).
func measureScaling(ctx context.Context, b *rod.Browser, jobs []siteJob, levels []int, perHost int, progress io.Writer) ([]ScalingPoint, error) {
	var out []ScalingPoint
	for _, n := range levels {
		if n <= 0 {
			continue
		}
		resetPeakRSS()
		stop := make(chan struct{})
		var peak float64
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(50 * time.Millisecond)
			defer t.Stop()
			for {
				peak = max(peak, chromiumRSSMB())
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		}()
		start := time.Now()
		mapped, err := mapAll(ctx, b, jobs, n, perHost, io.Discard)
		took := time.Since(start)
		close(stop)
		wg.Wait()
		if err != nil {
			return out, err
		}
		pt := ScalingPoint{Tabs: n, Seconds: seconds(took), ChromiumPeakRSSMB: round(peak), ProcessPeakRSSMB: round(processPeakRSSMB())}
		for _, m := range mapped {
			pt.Pages += len(m.pages)
			if m.err != nil {
				pt.Errors++
			}
		}
		pt.PagesPerSecond = round(float64(pt.Pages) / took.Seconds())
		fmt.Fprintf(progress, "scaling: %d tabs: %d pages in %.2fs, %.1f pages/s, Chromium peak %.0f MB, process peak %.0f MB\n",
			n, pt.Pages, pt.Seconds, pt.PagesPerSecond, pt.ChromiumPeakRSSMB, pt.ProcessPeakRSSMB)
		out = append(out, pt)
	}
	return out, nil
}

// chromiumRSSMB sums the resident memory of every process whose command
// is Chromium's (the browser, its renderers, GPU and utility processes).
func chromiumRSSMB() float64 {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var kb float64
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || !strings.HasPrefix(strings.TrimSpace(string(comm)), "chrom") {
			continue
		}
		kb += statusKB(filepath.Join(d, "status"), "VmRSS:")
	}
	return kb / 1024
}

// processPeakRSSMB is this process's peak resident memory (VmHWM).
func processPeakRSSMB() float64 { return statusKB("/proc/self/status", "VmHWM:") / 1024 }

// resetPeakRSS resets VmHWM (Linux: "5" > /proc/self/clear_refs).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func statusKB(path, key string) float64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			n, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return n
		}
	}
	return 0
}
