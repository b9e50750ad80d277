package uct

import (
	"math"
	"math/bits"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// rng is SplitMix64 (Steele, Lea and Flood, 2014): one add and three multiply-xorshifts per
// number, no interface call, and a stream that a seed fixes, so a one-thread search is
// reproducible.
type rng struct{ s uint64 }

func newRNG(seed, stream uint64) rng {
	r := rng{s: seed ^ (stream+1)*0xD1B54A32D192ED03}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// intn returns a number in [0, n) (Lemire's multiply-shift; the bias is below 2^-32 for the
// small n of a move list).
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// float returns a number in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// randomMove picks one of the squares of moves (non-empty) uniformly.
func (r *rng) randomMove(moves uint64) board.Square {
	for k := r.intn(bits.OnesCount64(moves)); k > 0; k-- {
		moves &= moves - 1
	}
	return board.FirstSquare(moves)
}

// blackReward turns a finished game's disc difference for black into black's reward.
func blackReward(blackDiff int) uint64 {
	switch {
	case blackDiff > 0:
		return rewardOne
	case blackDiff < 0:
		return 0
	}
	return rewardOne / 2
}

// WinProbability is the logistic win probability of a side whose evaluation is discs, at the
// given scale in discs (see Config.WinScale).
func WinProbability(discs, scale float64) float64 { return 1 / (1 + math.Exp(-discs/scale)) }

// randomPlayout plays random moves from (p, o) (black to move when black) to the end and
// returns black's reward.
func randomPlayout(p, o uint64, black bool, r *rng) uint64 {
	for {
		moves := board.LegalMoves(p, o)
		if moves == 0 {
			if board.LegalMoves(o, p) == 0 {
				break
			}
			p, o, black = o, p, !black
			continue
		}
		sq := r.randomMove(moves)
		f := board.Flips(p, o, sq)
		p, o, black = o^f, p|f|sq.Bit(), !black
	}
	d := board.DiscDiff(p, o)
	if !black {
		d = -d
	}
	return blackReward(d)
}

// maxMoves bounds the number of legal moves of an Othello position (33 is the known maximum).
const maxMoves = 48

// guidedPlayout plays to the end with moves chosen from the evaluation of the positions they
// lead to: epsilon-greedy, or softmax at temperature (in discs) when softmax. b is changed.
func guidedPlayout(b *board.Board, ev *eval.Evaluator, softmax bool, epsilon, temperature float64, r *rng) uint64 {
	var sqs [maxMoves]board.Square
	var vals [maxMoves]float64
	for {
		moves := b.LegalMoves()
		if moves == 0 {
			if board.LegalMoves(b.O, b.P) == 0 {
				break
			}
			b.Pass()
			continue
		}
		if bits.OnesCount64(moves) == 1 || (!softmax && r.float() < epsilon) {
			b.Make(r.randomMove(moves))
			continue
		}
		n, best := 0, 0
		for m := moves; m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			u := b.Make(sq)
			vals[n] = -float64(ev.Eval(b)) / eval.Scale
			b.Unmake(u)
			sqs[n] = sq
			if vals[n] > vals[best] {
				best = n
			}
			n++
		}
		if softmax {
			top := vals[best]
			sum := 0.0
			for i := 0; i < n; i++ {
				vals[i] = math.Exp((vals[i] - top) / temperature)
				sum += vals[i]
			}
			x := r.float() * sum
			best = n - 1
			for i := 0; i < n; i++ {
				x -= vals[i]
				if x < 0 {
					best = i
					break
				}
			}
		}
		b.Make(sqs[best])
	}
	return blackReward(b.BlackScore())
}

// cutoffPlayout plays plies random moves (a pass counts as one), then returns black's win
// probability by the evaluation at the logistic scale winScale; a game that ends before is
// scored exactly. b is changed.
func cutoffPlayout(b *board.Board, ev *eval.Evaluator, plies int, winScale float64, r *rng) uint64 {
	for range plies {
		moves := b.LegalMoves()
		if moves == 0 {
			if board.LegalMoves(b.O, b.P) == 0 {
				return blackReward(b.BlackScore())
			}
			b.Pass()
			continue
		}
		b.Make(r.randomMove(moves))
	}
	if b.GameOver() {
		return blackReward(b.BlackScore())
	}
	p := WinProbability(float64(ev.Eval(b))/eval.Scale, winScale)
	if !b.BlackToMove {
		p = 1 - p
	}
	return uint64(math.Round(p * rewardOne))
}
