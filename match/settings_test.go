package match

import (
	"strings"
	"testing"
	"time"
)

// Settings.Options checks the counts and times, makes the players (this engine's spec, or B
// external), the openings and the clocks, and passes on the players' and openings' errors.
func TestSettingsOptions(t *testing.T) {
	good := Settings{A: "depth=2", B: "depth=1,eval=mobility", OpeningFile: "testdata/xot-sample.txt", N: 3, Random: 1, Seed: 1,
		Concurrency: 2, Clock: time.Minute, Increment: time.Second, HandshakeTimeout: DefaultHandshakeTimeout}
	opt, err := good.Options()
	if err != nil || opt.A.Text != "depth=2" || opt.B.Text != "depth=1,eval=mobility" || opt.B.external != "" || len(opt.Openings) != 4 ||
		opt.Concurrency != 2 || opt.Clocks != [2]time.Duration{time.Minute, time.Minute} || opt.Increment != time.Second || opt.HandshakeTimeout != DefaultHandshakeTimeout {
		t.Fatalf("%+v, %v", opt, err)
	}
	s := good
	s.External, s.ExternalDepth, s.B, s.ClockA, s.ClockB = "some-engine --nboard", 8, "colour=blue", 3*time.Second, 2*time.Second
	if opt, err := s.Options(); err != nil || opt.B.external != "some-engine --nboard" || opt.B.depth != 8 || opt.Clocks != [2]time.Duration{3 * time.Second, 2 * time.Second} {
		t.Errorf("external B with clocks of their own: %+v, %v", opt, err)
	}
	for _, c := range []struct {
		change func(*Settings)
		want   string
	}{
		{func(s *Settings) { s.Concurrency = 0 }, "concurrency must be at least 1"},
		{func(s *Settings) { s.N = -1 }, "counts and times non-negative"},
		{func(s *Settings) { s.Skip = -1 }, "counts and times non-negative"},
		{func(s *Settings) { s.Random = -1 }, "counts and times non-negative"},
		{func(s *Settings) { s.Clock = -time.Second }, "counts and times non-negative"},
		{func(s *Settings) { s.Increment = -time.Second }, "counts and times non-negative"},
		{func(s *Settings) { s.ClockA = -time.Second }, "counts and times non-negative"},
		{func(s *Settings) { s.ClockB = -time.Second }, "counts and times non-negative"},
		{func(s *Settings) { s.HandshakeTimeout = 0 }, "the handshake timeout positive"},
		{func(s *Settings) { s.A = "depth=0" }, `player "depth=0"`},
		{func(s *Settings) { s.B = "colour=blue" }, `player "colour=blue"`},
		{func(s *Settings) { s.OpeningFile = "testdata/does-not-exist.txt" }, "does-not-exist.txt"},
	} {
		s := good
		c.change(&s)
		if _, err := s.Options(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", s, err, c.want)
		}
	}
}
