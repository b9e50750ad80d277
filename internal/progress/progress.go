// Package progress draws the progress bars of the long commands (training, labelling,
// matches) on a terminal, and on a log file or a pipe one line at a time, seldom, so that a
// long run does not fill the log with redraws.
package progress

import (
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

// New makes a progress bar of n steps described by what, on w. When w is not a terminal (a
// log file, a pipe) it is redrawn every 30 s instead of every 0.5 s, one line each time.
func New(w io.Writer, n int, what string) *progressbar.ProgressBar {
	throttle := 500 * time.Millisecond
	opts := []progressbar.Option{
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
	}
	if IsTerminal(w) {
		opts = append(opts, progressbar.OptionClearOnFinish())
	} else {
		throttle = 30 * time.Second
		w = newlineWriter{w}
	}
	opts = append(opts, progressbar.OptionSetWriter(w), progressbar.OptionThrottle(throttle))
	return progressbar.NewOptions(n, opts...)
}

// IsTerminal reports whether x (a reader or a writer) is an interactive terminal (not a pipe
// or a file).
func IsTerminal(x any) bool {
	f, ok := x.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newlineWriter ends each redraw of a progress bar with a newline instead of rewriting the
// line with carriage returns, for logs.
type newlineWriter struct{ w io.Writer }

func (n newlineWriter) Write(p []byte) (int, error) {
	s := strings.TrimSpace(strings.ReplaceAll(string(p), "\r", ""))
	if s == "" {
		return len(p), nil
	}
	if _, err := io.WriteString(n.w, s+"\n"); err != nil {
		return 0, err
	}
	return len(p), nil
}
