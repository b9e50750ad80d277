package search

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The files and lists of the devfit command, read here so that the command only wires flags.

// ReadDevRefsFile reads the references of path (ReadDevRefs), positions A..B-1 when span is
// "A:B" (empty: all). Its errors name the file or the span.
func ReadDevRefsFile(path, span string) ([]DevRef, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	refs, err := ReadDevRefs(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if span != "" {
		a, b, ok := strings.Cut(span, ":")
		i, err1 := strconv.Atoi(a)
		j, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || i < 0 || j <= i || j > len(refs) {
			return nil, fmt.Errorf("-range %q: want A:B with 0 <= A < B <= %d", span, len(refs))
		}
		refs = refs[i:j]
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%s: no references", path)
	}
	return refs, nil
}

// ReadDevCostFile reads a cost table file as devfit fit writes it.
func ReadDevCostFile(path string) (*DevCost, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := ParseDevCost(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}

// ParseSpan reads "LO-HI" with LO <= HI.
func ParseSpan(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || lo > hi {
		return 0, 0, fmt.Errorf("want LO-HI")
	}
	return lo, hi, nil
}

// ParseInts reads a comma-separated list of integers within [lo, hi] ("" is none).
func ParseInts(s string, lo, hi int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < lo || v > hi {
			return nil, fmt.Errorf("%q: want integers %d-%d", f, lo, hi)
		}
		out = append(out, v)
	}
	return out, nil
}

// DevMeasure writes, for each limit (named by names), the accuracy of the plain search and of
// dev's (depth by deviation value) on refs, and the paired difference of their losses.
func DevMeasure(w io.Writer, plain, dev Config, refs []DevRef, lims []Limits, names []string, workers int) {
	fmt.Fprintf(w, "%-14s %-38s %-38s %s\n", "limit", "plain: loss+-SE worse nodes depth", "deviation: loss+-SE worse nodes depth", "paired loss diff+-SE, nodes ratio")
	col := func(r DevEval) string {
		return fmt.Sprintf("%.3f+-%.3f %3d %9.0f %5.2f", r.Loss, r.LossSE, r.Worse, r.Nodes, r.Depth)
	}
	for k, lim := range lims {
		a := DevAccuracy(plain, refs, lim, workers)
		b := DevAccuracy(dev, refs, lim, workers)
		diff := make([]float64, len(refs))
		for i := range diff {
			diff[i] = b.Losses[i] - a.Losses[i]
		}
		dm, dse := MeanSE(diff)
		fmt.Fprintf(w, "%-14s %-38s %-38s %+.3f+-%.3f  x%.2f\n", names[k], col(a), col(b), dm, dse, b.Nodes/a.Nodes)
	}
}
