package match

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/uct"
)

// player is one side of a match game: this engine with some configuration, or an external
// engine speaking NBoard.
type player interface {
	// move returns the move for b (which has a legal move). history is the game so far from
	// the standard start; clock is the time left (0: no clock).
	move(ctx context.Context, b board.Board, history []board.Square, clock, inc time.Duration) (board.Square, error)
	close() error
}

// Spec describes a player: this engine with a configuration (ParseEngine), or an external
// engine speaking NBoard (External). Each game worker of a match makes its own player from it.
type Spec struct {
	Text     string // as given; names the player in the report and in the GGF records
	external string // NBoard command line, "" for this engine
	depth    int    // depth sent to the external engine with "set depth" (0: none)
	lim      search.Limits
	cfg      search.Config
	book     *book.Book  // nil: no opening book
	uct      *uct.Config // the Monte-Carlo engine instead of the alpha-beta one (ParseEngine "uct,...")
}

// External is an engine run as a subprocess by the shell command line cmdline, spoken to in
// NBoard (version 2); depth, when positive, is sent to it with "set depth".
func External(cmdline string, depth int) Spec {
	return Spec{Text: cmdline, external: cmdline, depth: depth}
}

// EngineOptions are the keys ParseEngine accepts for this engine, in the order its error for an
// unknown key lists them.
var EngineOptions = []string{
	"depth", "time", "end", "sel", "eval", "tt", "solvertt", "book", "threads", "parallel",
	"mpc", "pvs", "prev", "killer", "staticcut", "handover", "leafsolve", "probable", "screen",
	"mpct", "mpctop", "wld", "wldsel", "solvebudget", "wldrefine", "solverhint", "dev",
	"horizon", "endhorizon", "endweight", "endlast", "extend", "settle", "clocksel",
	"endsolves", "endwld", "timeband", "bandtop", "exacttime", "surer", "bandwld", "sortalpha", "resulttime", "salvage",
}

// ParseEngine reads this engine's options, "key=value,...": depth, time (per move), end (exact
// solve from N empties), sel (selectivity level), eval (default, mobility or a weights file),
// tt (MiB), book (default, none or a file), and the measurement switches and settings the
// error for an unknown key lists.
//
// "uct,key=value,..." is the Monte-Carlo tree search engine of package uct instead, with the
// options uct.ParseConfig reads (playouts, time, prune, threads, playout, ...).
func ParseEngine(text string) (Spec, error) {
	if name, rest, _ := strings.Cut(text, ","); strings.TrimSpace(name) == "uct" {
		cfg, err := uct.ParseConfig(rest)
		if err == nil {
			_, err = uct.New(cfg) // the options' own checks
		}
		if err != nil {
			return Spec{}, fmt.Errorf("player %q: %v", text, err)
		}
		return Spec{Text: text, uct: &cfg}, nil
	}
	sp := Spec{Text: text, cfg: search.Config{TTMiB: 16}}
	evalName := "default"
	for _, kv := range strings.Split(text, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return sp, fmt.Errorf("player %q: option %q is not key=value", text, kv)
		}
		var err error
		switch k {
		case "depth":
			sp.lim.Depth, err = intIn(v, 1, 60)
		case "end":
			sp.lim.ExactEmpties, err = intIn(v, 1, 60)
		case "wld":
			// With end=N: prove win/loss/draw from this many empties down to N+1.
			sp.lim.WLDEmpties, err = intIn(v, 1, 60)
		case "wldsel":
			// Measurement: the win/loss/draw band's solver selectivity (0: proofs).
			var l int
			l, err = strconv.Atoi(v)
			if err == nil && (l < 0 || l > search.MaxSelectivity) {
				err = fmt.Errorf("want 0-%d", search.MaxSelectivity)
			}
			sp.cfg.WLDLevel = l
			if l == 0 {
				sp.cfg.WLDLevel = -1
			}
		case "time":
			sp.lim.MoveTime, err = time.ParseDuration(v)
			if err == nil && sp.lim.MoveTime <= 0 {
				err = fmt.Errorf("want a positive duration")
			}
		case "sel":
			sp.lim.Selectivity, err = intIn(v, 0, search.MaxSelectivity)
		case "eval":
			evalName = v
		case "book":
			// Loaded once here: Lookup on a book nobody changes is safe from every game.
			sp.book, err = book.Open(v)
		case "threads":
			// Threads per search; 1 unless given, since a match usually plays several games
			// at once (-concurrency).
			sp.cfg.Threads, err = intIn(v, 1, 256)
		case "parallel":
			// What the threads do with no split point to join: ybwc or speculative.
			sp.cfg.Parallel, err = search.ParseParallel(v)
		case "tt":
			sp.cfg.TTMiB, err = intIn(v, 1, 4096)
		case "solvertt":
			// The in-game solver's table, MiB (16 unless given).
			sp.cfg.SolverMiB, err = intIn(v, 1, 4096)
		case "handover":
			// Measurement: empties at which a search to the end hands over to the solver.
			sp.cfg.EndHandover, err = intIn(v, -1, 30)
		case "leafsolve":
			// Measurement: leaves with at most this many empties are solved, not evaluated.
			sp.cfg.LeafSolve, err = intIn(v, -1, 20)
		case "screen":
			// Measurement: the Multi-ProbCut screen's width (off: no screen).
			if v == "off" {
				sp.cfg.MPCScreen = -1
				break
			}
			sp.cfg.MPCScreen, err = strconv.ParseFloat(v, 64)
			if err == nil && !(sp.cfg.MPCScreen > 0 && sp.cfg.MPCScreen <= 100) {
				err = fmt.Errorf("want a width in (0, 100] or off")
			}
		case "mpct":
			// Measurement: the midgame Multi-ProbCut threshold, in standard deviations, in
			// place of the level's own.
			sp.cfg.MPCT, err = strconv.ParseFloat(v, 64)
			if err == nil && !(sp.cfg.MPCT > 0 && sp.cfg.MPCT <= 5) {
				err = fmt.Errorf("want a threshold in (0, 5]")
			}
		case "mpctop":
			// Measurement: the highest height with Multi-ProbCut tests.
			sp.cfg.MPCTop, err = intIn(v, 1, 30)
		case "horizon":
			// Measurement: the empties down to which a game clock is shared out.
			sp.cfg.ClockHorizon, err = intIn(v, 1, 40)
		case "endhorizon":
			// Measurement: the empties down to which a game clock is shared out near the end
			// (off: the clock horizon throughout).
			if v == "off" {
				sp.cfg.EndHorizon = -1
				break
			}
			sp.cfg.EndHorizon, err = intIn(v, 1, 40)
		case "endweight":
			// Measurement: the weight of the moves at 3-4 empties above the end horizon when
			// the clock is shared out near the end.
			sp.cfg.EndProofWeight, err = intIn(v, 1, 10)
		case "endlast":
			// Measurement: the percentage of the usable clock the last own move before the
			// end horizon may take (off: half).
			if v == "off" {
				sp.cfg.EndLastShare = 0
				break
			}
			sp.cfg.EndLastShare, err = intIn(v, 10, 95)
		case "surer":
			// Measurement: the solver selectivities, dot-separated (4.3.0: 87%, 95%, exact),
			// of the solves after a timed search's first probable solve or its selective
			// search to the end.
			sp.cfg.SurerLevels = nil
			for _, f := range strings.Split(v, ".") {
				var l int
				if l, err = intIn(f, 0, search.MaxSelectivity); err != nil {
					break
				}
				sp.cfg.SurerLevels = append(sp.cfg.SurerLevels, l)
			}
		case "exacttime":
			// Measurement: the budget from which a timed search picks the empties of its
			// exact solve, multiplied by this.
			sp.cfg.ExactTimeScale, err = strconv.ParseFloat(v, 64)
			if err == nil && !(sp.cfg.ExactTimeScale > 0 && sp.cfg.ExactTimeScale <= 100) {
				err = fmt.Errorf("want a factor in (0, 100]")
			}
		case "bandtop":
			// Measurement: under a clock, no band of proofs or probable solves above this
			// many empties (off: the plan's band).
			if v == "off" {
				sp.cfg.TimeBandTop = 0
				break
			}
			sp.cfg.TimeBandTop, err = intIn(v, 1, 60)
		case "probable":
			// Measurement: empties above the exact solve given probable solves (0: none).
			var band int
			band, err = strconv.Atoi(v)
			if err == nil && (band < 0 || band > 20) {
				err = fmt.Errorf("want 0-20")
			}
			sp.cfg.ProbableBand = band
			if band == 0 {
				sp.cfg.ProbableBand = -1
			}
		case "mpc", "pvs", "prev", "killer", "staticcut", "solvebudget", "wldrefine", "solverhint", "dev", "extend", "settle", "clocksel", "endsolves", "endwld", "timeband", "bandwld", "sortalpha", "resulttime", "salvage":
			// Measurement switches. solvebudget=off gives a solving move no more than any
			// other move's share of the clock; wldrefine=off plays the solver's first winning
			// move where a win/loss/draw proof picks the move, not the midgame's best one;
			// solverhint=off keeps the midgame tables' moves out of the solver's ordering.
			var on bool
			switch v {
			case "on":
				on = true
			case "off":
			default:
				err = fmt.Errorf("want on or off")
			}
			switch k {
			case "mpc":
				sp.cfg.NoMPC = !on
			case "pvs":
				sp.cfg.NoPVS = !on
			case "prev":
				sp.cfg.NoPrevOrder = !on
			case "killer":
				sp.cfg.NoKiller = !on
			case "staticcut":
				sp.cfg.NoStaticCut = !on
			case "extend":
				sp.cfg.NoTimeExtension = !on
			case "settle":
				sp.cfg.Settle = on
			case "salvage":
				sp.cfg.NoSalvage = !on
			case "endsolves":
				sp.cfg.NoEndSolves = !on
			case "endwld":
				sp.cfg.EndWLD = on
			case "timeband":
				sp.cfg.NoTimeBand = !on
			case "bandwld":
				sp.cfg.BandWLD = on
			case "sortalpha":
				sp.cfg.ExactOrderKeys = !on
			case "resulttime":
				sp.cfg.NoResultTime = !on
			case "clocksel":
				sp.cfg.ClockSelectivity = on
			case "solvebudget":
				sp.cfg.NoSolveBudget = !on
			case "wldrefine":
				sp.cfg.NoWLDRefine = !on
			case "solverhint":
				sp.cfg.NoSolverHint = !on
			case "dev":
				// Depth by deviation value (docs/deviation.md), off unless dev=on.
				sp.cfg.DepthByDeviation = on
			}
		default:
			err = fmt.Errorf("unknown option (want one of %s)", strings.Join(EngineOptions, ", "))
		}
		if err != nil {
			return sp, fmt.Errorf("player %q: %s=%s: %v", text, k, v, err)
		}
	}
	ev, err := eval.ByName(evalName)
	if err != nil {
		return sp, fmt.Errorf("player %q: %v", text, err)
	}
	sp.cfg.Eval = ev
	return sp, nil
}

// tableBytes is the memory of the tables of the player's engine (none for an external one).
func (sp Spec) tableBytes() uint64 {
	if sp.external != "" || sp.uct != nil {
		return 0
	}
	return search.TableBytes(sp.cfg)
}

// newPlayer starts the player; handshake bounds an external engine's answer to a ping.
func (sp Spec) newPlayer(handshake time.Duration) (player, error) {
	if sp.external != "" {
		p, err := startNBoard(sp.external, sp.depth, handshake)
		if err != nil {
			return nil, err // not a nil *nboardPlayer in a non-nil interface
		}
		return p, nil
	}
	if sp.uct != nil {
		e, err := uct.New(*sp.uct)
		if err != nil {
			return nil, err
		}
		return &enginePlayer{e: e}, nil
	}
	return &enginePlayer{e: search.NewEngine(sp.cfg), lim: sp.lim, book: sp.book}, nil
}

// searcher is what a player of this program needs of its engine: search.Engine or uct.Engine.
type searcher interface {
	Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result
}

type enginePlayer struct {
	e    searcher
	lim  search.Limits
	book *book.Book
}

func (p *enginePlayer) move(ctx context.Context, b board.Board, _ []board.Square, clock, inc time.Duration) (board.Square, error) {
	if sq, _, ok := p.book.Choose(b, 0, nil); ok {
		return sq, nil
	}
	lim := p.lim
	if clock > 0 {
		lim.Remaining, lim.Increment = clock, inc
	}
	r := p.e.Search(ctx, b, lim, nil)
	return r.Move, nil
}

func (p *enginePlayer) close() error { return nil }

// intIn parses an option's integer value and checks it lies in [lo, hi].
func intIn(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err == nil && (n < lo || n > hi) {
		err = fmt.Errorf("want %d to %d", lo, hi)
	}
	return n, err
}
