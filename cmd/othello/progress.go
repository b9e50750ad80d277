package main

import (
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/schollz/progressbar/v3"
)

// newBar makes a progress bar on stderr (silent with -q). When stderr is not a terminal (a
// log file, a pipe) it is redrawn every 30 s instead of every 0.5 s, one line each time, so a
// long run does not fill the log with redraws.
func newBar(env *cmdEnv, n int, what string) *progressbar.ProgressBar {
	w := env.stderr
	if env.log.GetLevel() > zerolog.InfoLevel {
		w = io.Discard
	}
	throttle := 500 * time.Millisecond
	opts := []progressbar.Option{
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
	}
	if isTerminal(w) {
		opts = append(opts, progressbar.OptionClearOnFinish())
	} else {
		throttle = 30 * time.Second
		w = newlineWriter{w}
	}
	opts = append(opts, progressbar.OptionSetWriter(w), progressbar.OptionThrottle(throttle))
	return progressbar.NewOptions(n, opts...)
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
