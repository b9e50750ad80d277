package uct

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/eval"
)

// Playout is how a simulation below the tree is played.
type Playout int

const (
	// PlayoutRandom plays uniformly random legal moves to the end of the game; the reward is
	// 1 for a win, 1/2 for a draw, 0 for a loss.
	PlayoutRandom Playout = iota
	// PlayoutGreedy plays, with probability 1-Epsilon, the move whose position the evaluation
	// likes best, otherwise a random one, to the end of the game.
	PlayoutGreedy
	// PlayoutSoftmax plays each move with probability proportional to exp(value/Temperature),
	// value being the evaluation of the position after it in discs, to the end of the game.
	PlayoutSoftmax
	// PlayoutCutoff plays CutoffPlies random moves and then takes the evaluation's win
	// probability (WinProbability) as the reward; a game that ends earlier is scored exactly.
	PlayoutCutoff
)

var playoutNames = [...]string{"random", "greedy", "softmax", "cutoff"}

func (p Playout) String() string {
	if p < 0 || int(p) >= len(playoutNames) {
		return fmt.Sprintf("Playout(%d)", int(p))
	}
	return playoutNames[p]
}

// usesEval reports whether the playout reads the evaluation.
func (p Playout) usesEval() bool { return p != PlayoutRandom }

// Prune is the rule that stops simulating root moves (see the package comment).
type Prune int

const (
	// PruneOff simulates every move as UCB1 chooses.
	PruneOff Prune = iota
	// PruneVisits drops a move when its visits plus the remaining simulations are fewer than
	// the most visited move's visits: it can no longer become the move played.
	PruneVisits
	// PrunePaper is the paper's rule (its section 3, equations 7-9): from half the budget on,
	// move i with win rate x_i over s_i visits and win sum X_i expects e_i = x_i/sum(x) * n of
	// the n remaining simulations, and is dropped while (X_i + e_i*u_i)/(s_i + e_i) is below
	// the best win rate of the root moves, u_i being 1 (equation 8) or, with PruneR > 0,
	// min(1, x_i + PruneR*sigma_i/sqrt(s_i)) (equations 10-11). The rule is evaluated again
	// before every simulation, so a move may come back. The most visited move is never
	// dropped (the paper's rule does not need that guard with its final choice by win rate).
	PrunePaper
	// PruneHalving is sequential halving at the root (Karnin, Koren and Somekh 2013; at the
	// root of UCT as in Pepels et al.'s H-MCTS, 2014): the budget is cut into ceil(log2 k)
	// rounds for k root moves; the simulations go to the least visited surviving move, and at
	// the start of each round the worse half of the survivors by win rate is dropped for good.
	// The move played is the surviving one with the best win rate. Not from the paper: a
	// schedule that spends the whole budget knowing that it ends, for comparison.
	PruneHalving
)

var pruneNames = [...]string{"off", "visits", "paper", "halving"}

func (p Prune) String() string {
	if p < 0 || int(p) >= len(pruneNames) {
		return fmt.Sprintf("Prune(%d)", int(p))
	}
	return pruneNames[p]
}

// Defaults of the zero Config's fields.
const (
	DefaultPlayouts    = 20000
	DefaultC           = 0.4 // exploration constant of UCB1, rewards in [0, 1] (docs/uct.md)
	DefaultEpsilon     = 0.2
	DefaultTemperature = 2.0 // discs
	DefaultCutoffPlies = 0
	// DefaultWinScale is the scale, in discs, of the logistic that turns an evaluation into a
	// win probability. The shipped weights' error against game results is about 9 discs in
	// the midgame (docs/evaluation.md); a normal error of 9 discs is close to a logistic of
	// scale 9*sqrt(3)/pi, about 5.
	DefaultWinScale = 5.0
	DefaultMaxNodes = 4 << 20
)

// Config sets up an Engine. The zero Config is plain UCB1 with random playouts, one thread,
// no pruning, tree reuse on.
type Config struct {
	// Playouts and MoveTime are the budget of a search whose Limits give none (no Nodes, no
	// MoveTime, no clock); with both zero, DefaultPlayouts.
	Playouts int
	MoveTime time.Duration
	// Threads is the number of goroutines that search the one tree (0: one).
	Threads int
	// Playout is how simulations are played below the tree.
	Playout Playout
	// C is the exploration constant of UCB1: mean + C*sqrt(ln n / s) (0: DefaultC). Tuned
	// replaces the term by UCB1-Tuned's sqrt(ln n / s * min(1/4, V)), V the reward variance
	// plus sqrt(2 ln n / s) (Auer et al. 2002; the paper's players), and ignores C.
	C     float64
	Tuned bool
	// Prune is the rule that stops simulating root moves; PruneInner applies the PruneVisits
	// rule at every inner node too (towards its most visited child), which the paper does not.
	Prune      Prune
	PruneInner bool
	// PruneR is r of the paper's equation 10 (0: equation 8, all remaining simulations won).
	PruneR float64
	// StopEarly ends a search as soon as no root move can overtake the most visited one with
	// the simulations left (the PruneVisits test applied to all moves at once): the move
	// played is then the one the full budget would choose, in less time.
	StopEarly bool
	// Eval is the evaluation of the guided and cut-off playouts (nil: eval.Default()).
	Eval *eval.Evaluator
	// Epsilon is the random-move probability of PlayoutGreedy (0: DefaultEpsilon; negative:
	// never random).
	Epsilon float64
	// Temperature of PlayoutSoftmax in discs (0: DefaultTemperature).
	Temperature float64
	// CutoffPlies is the number of random plies of PlayoutCutoff before the evaluation
	// (0: DefaultCutoffPlies; negative: none).
	CutoffPlies int
	// WinScale is the logistic scale in discs of WinProbability and of Info.Score
	// (0: DefaultWinScale).
	WinScale float64
	// Seed seeds the playouts' random numbers; thread i uses its own stream of the seed.
	Seed uint64
	// NoReuse starts every search from a new tree.
	NoReuse bool
	// MaxNodes bounds the tree: past it, leaves are played out but no longer expanded
	// (0: DefaultMaxNodes; a node is about 40 bytes).
	MaxNodes int
}

// withDefaults fills in the zero fields.
func (c Config) withDefaults() Config {
	if c.Threads <= 0 {
		c.Threads = 1
	}
	if c.C == 0 {
		c.C = DefaultC
	}
	if c.Epsilon == 0 {
		c.Epsilon = DefaultEpsilon
	}
	if c.Epsilon < 0 {
		c.Epsilon = 0
	}
	if c.Temperature == 0 {
		c.Temperature = DefaultTemperature
	}
	if c.CutoffPlies == 0 {
		c.CutoffPlies = DefaultCutoffPlies
	}
	if c.CutoffPlies < 0 {
		c.CutoffPlies = 0
	}
	if c.WinScale == 0 {
		c.WinScale = DefaultWinScale
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = DefaultMaxNodes
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.Playout < PlayoutRandom || c.Playout > PlayoutCutoff:
		return fmt.Errorf("uct: unknown playout kind %d", int(c.Playout))
	case c.Prune < PruneOff || c.Prune > PruneHalving:
		return fmt.Errorf("uct: unknown pruning rule %d", int(c.Prune))
	case c.Playouts < 0 || c.MoveTime < 0:
		return fmt.Errorf("uct: negative budget")
	case c.C < 0 || c.Temperature < 0 || c.WinScale < 0 || c.PruneR < 0:
		return fmt.Errorf("uct: negative C, temperature, win scale or r")
	case c.Epsilon > 1:
		return fmt.Errorf("uct: epsilon %g above 1", c.Epsilon)
	case c.Threads > 256:
		return fmt.Errorf("uct: %d threads, at most 256", c.Threads)
	}
	return nil
}

// ParseConfig reads a Config from "key=value,..." text, the form a match or a command line
// gives: playouts, time (a duration), threads, playout (random, greedy, softmax, cutoff), c,
// tuned (on/off), prune (off, visits, paper, halving; on is paper), inner (on/off), r, early (on/off), eps, temp,
// cutoff (plies), winscale, seed, reuse (on/off), maxnodes, eval (default or a weights file).
func ParseConfig(text string) (Config, error) {
	var c Config
	for _, kv := range strings.Split(text, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return c, fmt.Errorf("uct %q: option %q is not key=value", text, kv)
		}
		var err error
		switch k {
		case "playouts":
			c.Playouts, err = strconv.Atoi(v)
		case "time":
			c.MoveTime, err = time.ParseDuration(v)
		case "threads":
			c.Threads, err = strconv.Atoi(v)
		case "playout":
			c.Playout, err = parseName(v, playoutNames[:], func(i int) Playout { return Playout(i) })
		case "c":
			c.C, err = strconv.ParseFloat(v, 64)
		case "tuned":
			c.Tuned, err = parseOnOff(v)
		case "prune":
			if v == "on" { // on/off: the paper's rule or none
				c.Prune = PrunePaper
				break
			}
			c.Prune, err = parseName(v, pruneNames[:], func(i int) Prune { return Prune(i) })
		case "inner":
			c.PruneInner, err = parseOnOff(v)
		case "r":
			c.PruneR, err = strconv.ParseFloat(v, 64)
		case "early":
			c.StopEarly, err = parseOnOff(v)
		case "eps":
			c.Epsilon, err = strconv.ParseFloat(v, 64)
		case "temp":
			c.Temperature, err = strconv.ParseFloat(v, 64)
		case "cutoff":
			c.CutoffPlies, err = strconv.Atoi(v)
		case "winscale":
			c.WinScale, err = strconv.ParseFloat(v, 64)
		case "seed":
			c.Seed, err = strconv.ParseUint(v, 10, 64)
		case "reuse":
			var on bool
			on, err = parseOnOff(v)
			c.NoReuse = !on
		case "maxnodes":
			c.MaxNodes, err = strconv.Atoi(v)
		case "eval":
			c.Eval, err = eval.ByName(v)
			if err == nil && c.Eval == nil {
				err = fmt.Errorf("want default or a weights file")
			}
		default:
			err = fmt.Errorf("unknown option (want playouts, time, threads, playout, c, tuned, prune, inner, r, early, eps, temp, cutoff, winscale, seed, reuse, maxnodes, eval)")
		}
		if err != nil {
			return c, fmt.Errorf("uct %q: %s=%s: %v", text, k, v, err)
		}
	}
	return c, c.validate()
}

func parseOnOff(v string) (bool, error) {
	switch v {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, fmt.Errorf("want on or off")
}

func parseName[T any](v string, names []string, of func(int) T) (T, error) {
	for i, n := range names {
		if v == n {
			return of(i), nil
		}
	}
	var zero T
	return zero, fmt.Errorf("want one of %s", strings.Join(names, ", "))
}
