package main

import (
	"io"

	"github.com/othellogo/othello/internal/progress"
	"github.com/rs/zerolog"
	"github.com/schollz/progressbar/v3"
)

// newBar makes a progress bar on stderr, silent with -q.
func newBar(env *cmdEnv, n int, what string) *progressbar.ProgressBar {
	w := env.stderr
	if env.log.GetLevel() > zerolog.InfoLevel {
		w = io.Discard
	}
	return progress.New(w, n, what)
}
