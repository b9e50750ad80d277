package treesim

import (
	"fmt"
	"math"
)

// inf stands for an infinite window bound. Values in the trees stay within a few thousand.
const inf int32 = 1 << 30

// ConvergeDepth is the depth k of the paper's procedure whose distribution f^(k) gives the
// prediction (epsilon, sigma^r) and the leaves' deep values.
const ConvergeDepth = 50

// EdgeSigma is the standard deviation of the edge values (the paper's f_S, mean 0).
const EdgeSigma = 100

// dist is a distribution over the integers lo, lo+1, ...: p[i] is P(X = lo+i).
type dist struct {
	lo int
	p  []float64
}

func (d dist) mean() float64 {
	m := 0.0
	for i, q := range d.p {
		m += q * float64(d.lo+i)
	}
	return m
}

func (d dist) sd() float64 {
	m := d.mean()
	v := 0.0
	for i, q := range d.p {
		x := float64(d.lo+i) - m
		v += q * x * x
	}
	return math.Sqrt(v)
}

// trim drops leading and trailing probabilities below eps.
func (d dist) trim(eps float64) dist {
	i, j := 0, len(d.p)
	for i < j && d.p[i] < eps {
		i++
	}
	for j > i && d.p[j-1] < eps {
		j--
	}
	return dist{d.lo + i, d.p[i:j]}
}

// edgeDist is the normal N(0, sigma) rounded to the integers, cut at 8 sigma.
func edgeDist(sigma float64) dist {
	n := int(8 * sigma)
	d := dist{-n, make([]float64, 2*n+1)}
	sum := 0.0
	for i := range d.p {
		s := float64(i - n)
		d.p[i] = normCDF((s+0.5)/sigma) - normCDF((s-0.5)/sigma)
		sum += d.p[i]
	}
	for i := range d.p {
		d.p[i] /= sum
	}
	return d
}

// maxStep is one step of the paper's procedure (equations 18, 19): given X, the value of a node
// of depth k relative to its own provisional value and from its own side, the value of a node of
// depth k+1, whose b children each add an edge value S to the parent's provisional value, is
// the maximum of b independent copies of S - X.
func maxStep(s, x dist, b int) dist {
	// w = s - x, the child's value seen from the parent, relative to the parent.
	lo := s.lo - (x.lo + len(x.p) - 1)
	w := make([]float64, len(s.p)+len(x.p)-1)
	for i, ps := range s.p {
		if ps == 0 {
			continue
		}
		for k, px := range x.p {
			// s.lo+i - (x.lo+k) = lo + i + (len(x.p)-1-k)
			w[i+len(x.p)-1-k] += ps * px
		}
	}
	total := 0.0
	for _, q := range w {
		total += q
	}
	// Renormalise: the trimmed tails would otherwise leak mass, and the maximum raises the
	// loss to the power b every step.
	out := make([]float64, len(w))
	cum, prev := 0.0, 0.0
	for i, q := range w {
		cum += q / total
		c := math.Pow(math.Min(cum, 1), float64(b))
		out[i] = c - prev
		prev = c
	}
	return dist{lo, out}.trim(1e-17)
}

// Moment is the mean and standard deviation of one distribution of the convergence procedure.
type Moment struct{ Mean, SD float64 }

// Model is what the artificial trees of one branching factor share: the distributions of edge
// values and of the leaves' deep values, and the predicted distribution of a node's value.
type Model struct {
	B int
	// Eps[r] is the predicted mean of a node's value minus its provisional value, seen from the
	// side to move at the node, for remaining depths of parity r (0 even, 1 odd): the paper's
	// epsilon_n. SigmaR is the predicted standard deviation, the paper's sigma^r_n.
	Eps    [2]float64
	SigmaR float64
	// Steps are the mean and deviation of the procedure's f^(k), k = 0..ConvergeDepth, seen from
	// the node's own side.
	Steps []Moment

	edge       sampler
	leaf       sampler
	deep       [2]dist // the value minus the provisional value at depths ConvergeDepth and ConvergeDepth-1
	edgeValues dist
}

// NewModel runs the paper's convergence procedure for branching factor b and edge values of
// standard deviation EdgeSigma.
func NewModel(b int) (*Model, error) {
	if b < 2 || b > 30 {
		return nil, fmt.Errorf("branching factor %d: want 2 to 30", b)
	}
	m := &Model{B: b}
	s := edgeDist(EdgeSigma)
	x := dist{0, []float64{1}}
	m.Steps = append(m.Steps, Moment{0, 0})
	var prev dist
	for k := 1; k <= ConvergeDepth; k++ {
		prev = x
		x = maxStep(s, x, b)
		m.Steps = append(m.Steps, Moment{x.mean(), x.sd()})
	}
	m.deep[ConvergeDepth%2] = x
	m.deep[(ConvergeDepth-1)%2] = prev
	m.Eps[ConvergeDepth%2] = x.mean()
	m.Eps[(ConvergeDepth-1)%2] = prev.mean()
	m.SigmaR = x.sd()
	m.edge = newSampler(s)
	m.leaf = newSampler(x)
	m.edgeValues = s
	return m, nil
}

// sampler draws from a dist with one 64-bit uniform number by inverse transform; a guide
// table on the top bits of the number makes a draw a short scan.
type sampler struct {
	lo    int32
	cut   []uint64 // cut[i]: the draws u with u/2 < cut[i] give lo+i or less; the last is above all
	guide []int32  // guide[u>>guideShift]: the first i that u can give
}

const guideShift = 63 - 14

func newSampler(d dist) sampler {
	s := sampler{lo: int32(d.lo), cut: make([]uint64, len(d.p))}
	total := 0.0
	for _, q := range d.p {
		total += q
	}
	cum := 0.0
	for i, q := range d.p {
		cum += q / total
		f := math.Ldexp(cum, 63)
		if f >= math.Ldexp(1, 63) || i == len(d.p)-1 {
			s.cut[i] = math.MaxUint64
		} else {
			s.cut[i] = uint64(f)
		}
	}
	s.guide = make([]int32, 1<<(63-guideShift))
	i := 0
	for g := range s.guide {
		u := uint64(g) << guideShift
		for s.cut[i] <= u {
			i++
		}
		s.guide[g] = int32(i)
	}
	return s
}

func (s *sampler) draw(u uint64) int32 {
	u >>= 1
	i := s.guide[u>>guideShift]
	for s.cut[i] <= u {
		i++
	}
	return s.lo + i
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func normPDF(x float64) float64 { return math.Exp(-0.5*x*x) / math.Sqrt(2*math.Pi) }
