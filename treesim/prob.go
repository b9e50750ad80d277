package treesim

import "math"

// Window is what the paper keeps at a node to estimate whether it will be searched: the
// sequential window (alpha', beta'), bounds already established by the nodes that a sequential
// search would have finished before this one, and predicted normal distributions of the final
// alpha and beta (means and deviations). MuA is -Inf when alpha is known to stay at Alpha, MuB
// +Inf when beta is known to stay at Beta; Alpha and Beta are -inf and inf when unbounded.
type Window struct {
	Alpha, Beta int32
	MuA, MuB    float64
	SdA, SdB    float64
}

// NoDist is equation 14: the node counts as searched when the window of the predicted values,
// cut by the sequential window, is not empty.
func (w Window) NoDist() bool {
	lo := math.Max(w.MuA, bound(w.Alpha))
	hi := math.Min(w.MuB, bound(w.Beta))
	return lo < hi
}

func bound(v int32) float64 {
	switch v {
	case -inf:
		return math.Inf(-1)
	case inf:
		return math.Inf(1)
	}
	return float64(v)
}

// Sums of a normal density over the integers up to x are taken as the normal distribution
// function at x+1/2; at the deviations of these trees (50 and more) the two agree to about 1e-6.

// cdfBelow is P(N(mu, sd) <= x) over the integers.
func cdfBelow(x int32, mu, sd float64) float64 {
	if x == inf {
		return 1
	}
	if x == -inf {
		return 0
	}
	return normCDF((float64(x) + 0.5 - mu) / sd)
}

// PDirect is P_n by equations 7-9 without the table: the probability that the node's final
// alpha is below its final beta, alpha distributed as N(MuA, SdA) with the mass below Alpha
// moved to Alpha, beta as N(MuB, SdB) with the mass above Beta moved to Beta, both on the
// integers and independent. Its cost is linear in the deviation of beta.
func PDirect(w Window) float64 {
	if w.Alpha >= w.Beta {
		return 0
	}
	if p, ok := pointCases(w); ok {
		return p
	}
	lo := w.MuB - 12*w.SdB
	if w.Alpha != -inf {
		lo = math.Max(lo, float64(w.Alpha)+1)
	}
	hi := w.MuB + 12*w.SdB
	if w.Beta != inf {
		hi = math.Min(hi, float64(w.Beta)-1)
	}
	p := 0.0
	for b := math.Ceil(lo); b <= hi; b++ {
		p += normPDF((b-w.MuB)/w.SdB) / w.SdB * cdfBelow(int32(b)-1, w.MuA, w.SdA)
	}
	if w.Beta != inf {
		p += (1 - cdfBelow(w.Beta-1, w.MuB, w.SdB)) * cdfBelow(w.Beta-1, w.MuA, w.SdA)
	}
	// The density summed over the integers exceeds 1 by up to 1e-7; a node must not rank
	// above those that are searched for sure.
	return min(p, 1)
}

// pointCases answers when alpha or beta is certain (MuA = -Inf or MuB = +Inf); the caller has
// checked Alpha < Beta.
func pointCases(w Window) (float64, bool) {
	ptA, ptB := math.IsInf(w.MuA, -1), math.IsInf(w.MuB, 1)
	switch {
	case ptA && ptB:
		return 1, true
	case ptA: // alpha = Alpha: P(B > Alpha), B's mass above Beta lies at Beta > Alpha
		return 1 - cdfBelow(w.Alpha, w.MuB, w.SdB), true
	case ptB: // beta = Beta: P(A < Beta) = P(A <= Beta-1), A's mass below Alpha lies at Alpha < Beta
		return cdfBelow(w.Beta-1, w.MuA, w.SdA), true
	}
	return 0, false
}

// The table of section 2.3. Normalising alpha's distribution to mean 0 and deviation 100 leaves
// four parameters, each rounded to a multiple of 5 and clamped as in the paper:
//
//	eta    = (100/SdA)(MuB - MuA)     in [-250, 250]
//	rho    = (100/SdA) SdB            in [50, 200]
//	dAlpha = (100/SdA)(Alpha - MuB)   in [-250, 250], or -inf
//	dBeta  = (100/SdA)(Beta - MuA)    in [-250, 250], or +inf
//
// A cell's value is equation 7 in the normalised units. For each (eta, rho) the sums
// S(y) = sum over b <= y of f_B(b) F_A(b-1) are built once, on first use; a cell is then
// S(Beta-1) - S(Alpha) plus the mass of beta at Beta, so the four-parameter table is exact at its
// cells without being stored.
const (
	tabStep    = 5
	tabEtaMax  = 250
	tabRhoMin  = 50
	tabRhoMax  = 200
	tabDMax    = 250
	tabSpan    = 3500 // normalised b from -tabSpan to tabSpan: eta + 12 rho, and Alpha = eta + dAlpha
	tabSigmaA  = 100.0
	tabEtaN    = 2*tabEtaMax/tabStep + 1
	tabRhoN    = (tabRhoMax-tabRhoMin)/tabStep + 1
	tabPrefixN = 2*tabSpan + 2
)

// Table is the look-up of section 2.3. It fills itself on use and is not safe for concurrent
// use; one per simulation goroutine.
type Table struct {
	prefix [tabEtaN * tabRhoN][]float64
}

func quantise(x float64, lo, hi int) int {
	q := int(math.Round(x/tabStep)) * tabStep
	return min(max(q, lo), hi)
}

// P is P_n by the table.
func (t *Table) P(w Window) float64 {
	if w.Alpha >= w.Beta {
		return 0
	}
	if p, ok := pointCases(w); ok {
		return p
	}
	k := tabSigmaA / w.SdA
	eta := quantise(k*(w.MuB-w.MuA), -tabEtaMax, tabEtaMax)
	rho := quantise(k*w.SdB, tabRhoMin, tabRhoMax)
	alpha, beta := -inf, inf
	if w.Alpha != -inf {
		alpha = int32(eta + quantise(k*(float64(w.Alpha)-w.MuB), -tabDMax, tabDMax))
	}
	if w.Beta != inf {
		beta = int32(quantise(k*(float64(w.Beta)-w.MuA), -tabDMax, tabDMax))
	}
	return t.cell(eta, rho, alpha, beta)
}

// cell is equation 7 with alpha ~ N(0, 100) cut at alpha, beta ~ N(eta, rho) cut at beta.
func (t *Table) cell(eta, rho int, alpha, beta int32) float64 {
	if alpha >= beta {
		return 0
	}
	s := t.sums(eta, rho)
	at := func(y int32) float64 { // S(y)
		switch {
		case y < -tabSpan:
			return 0
		case y > tabSpan:
			return s[len(s)-1]
		}
		return s[int(y)+tabSpan]
	}
	var p float64
	if beta == inf {
		p = s[len(s)-1]
	} else {
		p = at(beta-1) + (1-cdfBelow(beta-1, float64(eta), float64(rho)))*cdfBelow(beta-1, 0, tabSigmaA)
	}
	if alpha != -inf {
		p -= at(alpha)
	}
	return min(max(p, 0), 1)
}

func (t *Table) sums(eta, rho int) []float64 {
	i := (eta+tabEtaMax)/tabStep*tabRhoN + (rho-tabRhoMin)/tabStep
	if s := t.prefix[i]; s != nil {
		return s
	}
	s := make([]float64, tabPrefixN)
	sum := 0.0
	for y := -tabSpan; y <= tabSpan+1; y++ {
		b := float64(y)
		if y <= tabSpan {
			sum += normPDF((b-float64(eta))/float64(rho)) / float64(rho) * cdfBelow(int32(y)-1, 0, tabSigmaA)
		}
		s[y+tabSpan] = sum
	}
	t.prefix[i] = s
	return s
}
