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

	"github.com/frontlatch/frontlatch/topology"
)

// measureScaling maps the whole set once at each concurrency, in the same
// browser one after the other, and records pages/s with the peak resident
// memory of Chromium (its process tree, sampled every 50 ms) and of this
// process (VmHWM, reset before each level where the kernel allows). The
// floor is measured again right before each level, so each per-page ratio
// divides by a floor taken under the same machine load.
func measureScaling(ctx context.Context, b *topology.Browser, browserPID int, jobs []siteJob, levels []int, perHost int, progress io.Writer) ([]ScalingPoint, error) {
	var out []ScalingPoint
	sample := make([]string, len(jobs))
	for i, j := range jobs {
		sample[i] = j.url
	}
	for _, n := range levels {
		if n <= 0 {
			continue
		}
		floor, err := measureFloor(ctx, b, sample)
		if err != nil {
			return out, fmt.Errorf("benchmark: floor: %w", err)
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
				peak = max(peak, treeRSSMB(browserPID))
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
		pt := ScalingPoint{Tabs: n, Seconds: seconds(took), FloorPerPageMs: floor.PerPageMs, ChromiumPeakRSSMB: round(peak), ProcessPeakRSSMB: round(processPeakRSSMB())}
		for _, m := range mapped {
			pt.Pages += len(m.pages)
			if m.err != nil {
				pt.Errors++
			}
		}
		pt.PagesPerSecond = round(float64(pt.Pages) / took.Seconds())
		if pt.Pages > 0 && floor.PerPageSeconds > 0 {
			pt.PerPageToFloor = round(took.Seconds() / float64(pt.Pages) / floor.PerPageSeconds)
		}
		fmt.Fprintf(progress, "scaling: %d tabs: %d pages in %.2fs, %.1f pages/s (%.1f× the %.0f ms floor a page), Chromium peak %.0f MB, process peak %.0f MB\n",
			n, pt.Pages, pt.Seconds, pt.PagesPerSecond, pt.PerPageToFloor, pt.FloorPerPageMs, pt.ChromiumPeakRSSMB, pt.ProcessPeakRSSMB)
		out = append(out, pt)
	}
	return out, nil
}

// treeRSSMB sums the resident memory of process root and all its
// descendants (Chromium's browser, renderer, GPU and utility processes);
// 0 when root is unknown (a browser connected by URL).
func treeRSSMB(root int) float64 {
	if root <= 0 {
		return 0
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	parent := map[int]int{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so cut at the last ')'.
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
	}
	var kb float64
	for pid := range parent {
		for p, hops := pid, 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == root {
				kb += statusKB(filepath.Join("/proc", strconv.Itoa(pid), "status"), "VmRSS:")
				break
			}
		}
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
