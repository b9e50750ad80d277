package treesim

// The exact order keeps the distributions of alpha and beta as histograms over the integers,
// without the paper's three approximations (section 4.3): the prediction of every unfinished
// elder brother enters a node's beta, not only the eldest's; the maximum of distributions is
// computed exactly, not replaced by the one with the larger mean; and P_n is summed, not looked
// up. A brother's predicted value is the tree's own distribution (Model.deep), not a normal one.

// hist is a distribution function over the integers and the two infinities, immutable once
// built: F(x) = P(X <= x) is neg below lo, c[x-lo] from lo to lo+len(c)-1, and 1-pos above.
type hist struct {
	lo       int32
	c        []float32
	neg, pos float32 // masses at -inf and +inf
}

// histEps is the probability under which a histogram's tails are cut.
const histEps = 1e-7

func pointHist(v int32) hist {
	switch v {
	case -inf:
		return hist{neg: 1}
	case inf:
		return hist{pos: 1}
	}
	return hist{lo: v, c: []float32{1}}
}

// at is F(x).
func (h *hist) at(x int32) float32 {
	switch {
	case x == inf:
		return 1
	case x < h.lo || x == -inf:
		return h.neg
	case int(x-h.lo) >= len(h.c):
		return 1 - h.pos
	}
	return h.c[x-h.lo]
}

// The operations below that build a new distribution function write it into *buf (a fresh
// slice when buf is nil), which must not hold their input, and leave *buf holding it; an
// operation that returns its input unchanged does not touch *buf.

func into(buf *[]float32) []float32 {
	if buf == nil {
		return nil
	}
	return (*buf)[:0]
}

func keep(buf *[]float32, c []float32) {
	if buf != nil {
		*buf = c[:0]
	}
}

// negate is the distribution of -X: F_{-X}(x) = 1 - F_X(-x-1).
func (h *hist) negate(buf *[]float32) hist {
	r := hist{lo: -(h.lo + int32(len(h.c)) - 1), neg: h.pos, pos: h.neg}
	if len(h.c) > 0 {
		r.c = into(buf)
		for i := len(h.c) - 1; i >= 0; i-- {
			prev := h.neg
			if i > 0 {
				prev = h.c[i-1]
			}
			r.c = append(r.c, 1-prev)
		}
		keep(buf, r.c)
	}
	return r
}

// cutBelow moves the mass below a to a.
func (h hist) cutBelow(a int32, buf *[]float32) hist {
	hi := h.lo + int32(len(h.c)) - 1
	switch {
	case a == -inf, h.neg == 0 && (len(h.c) == 0 || a <= h.lo):
		return h
	case a == inf:
		return pointHist(inf)
	case len(h.c) == 0 || a > hi:
		// every finite value is below a: the mass moves to a point
		c := append(into(buf), 1-h.pos)
		keep(buf, c)
		return hist{lo: a, c: c, pos: h.pos}
	case a >= h.lo:
		// F(a) already counts the mass below a; below a, F is now 0.
		return hist{lo: a, c: h.c[a-h.lo:], pos: h.pos}
	}
	// The mass at -inf moves to a, below the finite range.
	c := into(buf)
	for v := a; v < h.lo; v++ {
		c = append(c, h.neg)
	}
	c = append(c, h.c...)
	keep(buf, c)
	return hist{lo: a, c: c, pos: h.pos}
}

// cutAbove moves the mass above b to b.
func (h hist) cutAbove(b int32, buf *[]float32) hist {
	hi := h.lo + int32(len(h.c)) - 1
	switch {
	case b == inf, h.pos == 0 && (len(h.c) == 0 || b >= hi):
		return h
	case b == -inf:
		return pointHist(-inf)
	}
	c := into(buf)
	lo := h.lo
	switch {
	case len(h.c) == 0 || b < h.lo:
		lo = b
	case b <= hi:
		c = append(c, h.c[:b-h.lo]...)
	default: // the mass at +inf moves to b, above the finite range
		c = append(c, h.c...)
		for v := hi + 1; v < b; v++ {
			c = append(c, 1-h.pos)
		}
	}
	c = append(c, 1)
	keep(buf, c)
	return hist{lo: lo, c: c, neg: h.neg}
}

// fill appends F(v) for v = lo..hi to dst.
func (h *hist) fill(dst []float32, lo, hi int32) []float32 {
	top := h.lo + int32(len(h.c)) - 1
	v := lo
	for ; v <= hi && v < h.lo; v++ {
		dst = append(dst, h.neg)
	}
	if v <= hi && v <= top {
		end := min(hi, top)
		dst = append(dst, h.c[v-h.lo:end-h.lo+1]...)
		v = end + 1
	}
	for ; v <= hi; v++ {
		dst = append(dst, 1-h.pos)
	}
	return dst
}

// maxOf is the distribution of the larger of two independent values: F = F1 F2, with tails
// under histEps cut.
func maxOf(x, y *hist, buf *[]float32) hist {
	neg := x.neg * y.neg
	top := (1 - x.pos) * (1 - y.pos)
	if len(x.c) == 0 && len(y.c) == 0 {
		return hist{neg: neg, pos: 1 - top}
	}
	lo, hi := x.lo, x.lo+int32(len(x.c))-1
	if len(x.c) == 0 {
		lo, hi = y.lo, y.lo+int32(len(y.c))-1
	} else if len(y.c) > 0 {
		lo = min(lo, y.lo)
		hi = max(hi, y.lo+int32(len(y.c))-1)
	}
	c := x.fill(into(buf), lo, hi)
	whole := c
	yl := y.lo
	for i := range c {
		v := lo + int32(i)
		switch {
		case v < yl:
			c[i] *= y.neg
		case int(v-yl) < len(y.c):
			c[i] *= y.c[v-yl]
		default:
			c[i] *= 1 - y.pos
		}
	}
	// Cut the tails: below histEps above neg, within histEps of top.
	i, j := 0, len(c)-1
	for i < j && c[i]-neg < histEps {
		i++
	}
	for j > i && top-c[j-1] < histEps {
		j--
	}
	c = c[i : j+1]
	c[len(c)-1] = top
	keep(buf, whole)
	return hist{lo: lo + int32(i), c: c, neg: neg, pos: 1 - top}
}

// pLess is P(A < B) for independent A and B: the sum over b of P(B = b) F_A(b-1). It uses
// *buf (if not nil) as scratch.
func pLess(a, b *hist, buf *[]float32) float64 {
	// B = -inf gives nothing; B = +inf gives P(A < +inf).
	p := float64(b.pos) * float64(1-a.pos)
	if len(b.c) == 0 {
		return min(p, 1)
	}
	fa := a.fill(into(buf), b.lo-1, b.lo+int32(len(b.c))-2)
	keep(buf, fa)
	prev := float64(b.neg)
	for i, f := range b.c {
		q := float64(f) - prev
		prev = float64(f)
		if q > 0 {
			p += q * float64(fa[i])
		}
	}
	// Rounding in the float32 distribution functions must not lift a node above the ones that
	// are surely searched.
	return min(p, 1)
}

// pChild is P_n of a child from its parent's beta bn and the maximum m of the parent's alpha
// and the predictions of the child's unfinished elder brothers, without building the child's
// histograms: alpha = max(alpha', -bn) and beta = min(beta', -m), so with u = -beta,
//
//	P = sum over alpha' < -u < beta' of P(m = u) P(bn > u)  +  P(m <= -beta') P(bn > -beta').
func pChild(bn, m *hist, alpha, beta int32) float64 {
	if alpha >= beta {
		return 0
	}
	above := func(u int32) float64 { return 1 - float64(bn.at(u)) } // P(bn > u)
	p := float64(m.at(-beta)) * above(-beta)
	lo, hi := m.lo, m.lo+int32(len(m.c))-1 // m's finite values
	if beta != inf {
		lo = max(lo, -beta+1)
	}
	if alpha != -inf {
		hi = min(hi, -alpha-1)
	}
	for u := lo; u <= hi; u++ {
		q := m.c[u-m.lo]
		if u > m.lo {
			q -= m.c[u-m.lo-1]
		} else {
			q -= m.neg
		}
		if q > 0 {
			p += float64(q) * above(u)
		}
	}
	return min(p, 1)
}

// histPair is what a node of the exact order keeps: its alpha and beta.
type histPair struct{ a, b hist }

// exactState is the exact order's part of a simulation: the histograms of the nodes that are
// or will be expanded, the tree's prediction of a child's value, and scratch.
type exactState struct {
	pairs []histPair
	free  []int32
	// deep[r] is the distribution of a child's value seen from its parent minus the child's
	// provisional value seen from the parent, for remaining depths of parity r: Model.deep negated.
	deep [2]hist
	m    *Model
	pBuf [32]float64
	bufP []float32
	bufM [2][]float32
}

func (e *exactState) reset() {
	clear(e.pairs)
	e.pairs = e.pairs[:0]
	e.free = e.free[:0]
}

func (e *exactState) init(m *Model) {
	e.m = m
	for r, d := range m.deep {
		h := hist{lo: int32(d.lo)}
		cum := 0.0
		for _, q := range d.p {
			cum += q
			h.c = append(h.c, float32(cum))
		}
		h.c[len(h.c)-1] = 1
		// Cut the tails where float32 cannot tell F from 0 or 1.
		for len(h.c) > 1 && h.c[0] < histEps {
			h.c = h.c[1:]
			h.lo++
		}
		for len(h.c) > 1 && h.c[len(h.c)-2] > 1-histEps {
			h.c = h.c[:len(h.c)-1]
		}
		e.deep[r] = h.negate(nil)
	}
}

// root gives the root alpha = -inf and beta = +inf for sure.
func (e *exactState) root(s *Sim) {
	if e.m != s.tree.M {
		e.init(s.tree.M)
	}
	s.nodes[0].hist = e.alloc(histPair{pointHist(-inf), pointHist(inf)})
}

func (e *exactState) alloc(p histPair) int32 {
	if n := len(e.free); n > 0 {
		i := e.free[n-1]
		e.free = e.free[:n-1]
		e.pairs[i] = p
		return i
	}
	e.pairs = append(e.pairs, p)
	return int32(len(e.pairs) - 1)
}

func (e *exactState) set(s *Sim, i int32, p histPair) {
	n := &s.nodes[i]
	if n.hist >= 0 {
		e.pairs[n.hist] = p
	} else {
		n.hist = e.alloc(p)
	}
	n.hv++
}

// release frees the histograms of node i, which has finished or died.
func (e *exactState) release(s *Sim, i int32) {
	n := &s.nodes[i]
	if n.hist >= 0 {
		e.pairs[n.hist] = histPair{}
		e.free = append(e.free, n.hist)
		n.hist = -1
	}
}

// expand gives node i, which is being expanded, its histograms if it has none yet.
func (e *exactState) expand(s *Sim, i int32) {
	n := s.nodes[i]
	if n.hist >= 0 {
		return
	}
	p := s.nodes[n.parent]
	par := e.pairs[p.hist]
	if n.idx == 0 {
		e.set(s, i, par)
		s.nodes[i].inPV = p.hv
		return
	}
	d := e.deep[(s.d-int(p.t)-1)&1]
	m := par.a
	var elders uint8
	for k := int32(0); k < int32(n.idx)-1; k++ {
		c := &s.nodes[p.kids+k]
		if c.state == done {
			elders++
			continue
		}
		pred := hist{lo: d.lo - c.h, c: d.c}
		m = maxOf(&m, &pred, nil)
	}
	a := par.b.negate(nil)
	b := m.negate(nil)
	e.set(s, i, histPair{a.cutBelow(n.as, nil), b.cutAbove(n.bs, nil)})
	s.nodes[i].inPV, s.nodes[i].inDone = p.hv, elders
}

// prelude passes node i's histograms to its shallow search c and reports whether they changed.
func (e *exactState) prelude(s *Sim, i, c int32) bool {
	n := &s.nodes[i]
	if s.nodes[c].inPV == n.hv && s.nodes[c].hist >= 0 {
		return false
	}
	e.set(s, c, e.pairs[n.hist])
	s.nodes[c].inPV = n.hv
	return true
}

// kids computes what node i's children need: P_n for the pending ones (in pBuf), histograms
// for the others. changed[k] says whether child k's window changed; it is set when child k's
// P_n or histograms changed.
func (e *exactState) kids(s *Sim, i int32, changed []bool) {
	n := s.nodes[i]
	par := e.pairs[n.hist]
	d := e.deep[(s.d-int(n.t)-1)&1]
	m := par.a // the maximum of n's alpha and the unfinished elder brothers' predicted values
	mb := 0    // the scratch buffer that does not hold m
	var elders uint8
	for k := range changed {
		ci := n.kids + int32(k)
		c := &s.nodes[ci]
		if c.state == done {
			elders++
			continue
		}
		stale := changed[k] || c.inPV != n.hv || c.inDone != elders || c.hist < 0 && c.state != pending
		switch {
		case !stale && c.state == pending && c.heapAt >= 0:
			e.pBuf[k] = c.pri
		case !stale && c.state != pending:
		case c.state == pending:
			e.pBuf[k] = pChild(&par.b, &m, c.as, c.bs)
			changed[k] = e.pBuf[k] != c.pri || c.heapAt < 0
			c.inPV, c.inDone = n.hv, elders
		default:
			a := par.b.negate(nil)
			b := m.negate(nil)
			e.set(s, ci, histPair{a.cutBelow(c.as, nil), b.cutAbove(c.bs, nil)})
			changed[k] = true
			c = &s.nodes[ci]
			c.inPV, c.inDone = n.hv, elders
		}
		pred := hist{lo: d.lo - c.h, c: d.c}
		m = maxOf(&m, &pred, &e.bufM[mb])
		mb ^= 1
	}
}

// p is the P_n of pending task i: from the last kids call for a child, from its histograms for
// a shallow search or the root.
func (e *exactState) p(s *Sim, i int32) float64 {
	n := &s.nodes[i]
	if n.idx == 0 {
		pr := e.pairs[n.hist]
		return pLess(&pr.a, &pr.b, &e.bufP)
	}
	return e.pBuf[n.idx-1]
}
