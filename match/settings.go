package match

import (
	"fmt"
	"time"
)

// Settings are a match as a command line gives it: the players as ParseEngine's specs, or B
// as an external engine (External), where the openings come from (Openings), the games played
// at once, and the clocks. Options makes the match's Options of them.
type Settings struct {
	A, B          string // the players' specs
	External      string // B's command line when B is an external NBoard engine ("": none)
	ExternalDepth int    // the depth sent to it (0: none)

	OpeningFile string // transcripts, one per line ("": none)
	// OpeningEmpties, when above 0, makes OpeningFile a GGF file of games and the openings
	// their moves down to this many empties (GameOpenings).
	OpeningEmpties  int
	N, Skip, Random int    // Openings' counts: at most N (0: all) after the first Skip, and Random more
	Seed            uint64 // of the random openings

	Concurrency int
	// Clock is each side's game clock and Increment its increment; ClockA and ClockB, when
	// not 0, are A's and B's own clocks.
	Clock, Increment, ClockA, ClockB time.Duration
	// FollowB, when above 0, makes A's clock FollowB times B's mean time a game so far
	// (Options.FollowB), A's clock (ClockA or Clock) being the first games' clock.
	FollowB          float64
	HandshakeTimeout time.Duration
}

// Check refuses settings a match cannot be played with: fewer than one game at a time, a
// negative count or time, openings by empties outside 0-59 (0: none), or a handshake timeout
// that is not positive.
func (s Settings) Check() error {
	if s.FollowB < 0 || s.FollowB > 100 {
		return fmt.Errorf("the factor of B's time for A's clock must be within 0-100 (0: A's own clock)")
	}
	if s.FollowB > 0 && s.Clock == 0 && s.ClockA == 0 {
		return fmt.Errorf("a clock that follows B's time needs A's clock for the first game (-a-clock or -clock)")
	}
	if s.Concurrency < 1 || s.N < 0 || s.OpeningEmpties < 0 || s.OpeningEmpties > 59 || s.Skip < 0 || s.Random < 0 || s.Clock < 0 || s.Increment < 0 || s.ClockA < 0 || s.ClockB < 0 || s.HandshakeTimeout <= 0 {
		return fmt.Errorf("concurrency must be at least 1; counts and times non-negative, openings by empties at most 59, the handshake timeout positive")
	}
	return nil
}

// Options checks the settings and makes the match's options: the players, the openings and
// the clocks (Progress and GGF are left to the caller). Its errors are the settings'.
func (s Settings) Options() (Options, error) {
	if err := s.Check(); err != nil {
		return Options{}, err
	}
	opt := Options{Concurrency: s.Concurrency, Clocks: [2]time.Duration{s.Clock, s.Clock}, Increment: s.Increment, FollowB: s.FollowB, HandshakeTimeout: s.HandshakeTimeout}
	var err error
	if opt.A, err = ParseEngine(s.A); err != nil {
		return Options{}, err
	}
	opt.B = External(s.External, s.ExternalDepth)
	if s.External == "" {
		if opt.B, err = ParseEngine(s.B); err != nil {
			return Options{}, err
		}
	}
	switch {
	case s.OpeningEmpties > 0 && s.OpeningFile == "":
		return Options{}, fmt.Errorf("openings by empties need a GGF file of games")
	case s.OpeningEmpties > 0:
		if opt.Openings, err = GameOpenings(s.OpeningFile, s.OpeningEmpties, s.Skip, s.N); err != nil {
			return Options{}, err
		}
		opt.Openings = append(opt.Openings, RandomOpenings(s.Seed, s.Random, 8)...)
	default:
		if opt.Openings, err = Openings(s.OpeningFile, s.Skip, s.N, s.Random, s.Seed); err != nil {
			return Options{}, err
		}
	}
	if s.ClockA > 0 {
		opt.Clocks[0] = s.ClockA
	}
	if s.ClockB > 0 {
		opt.Clocks[1] = s.ClockB
	}
	return opt, nil
}
