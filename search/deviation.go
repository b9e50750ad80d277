package search

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/othellogo/othello/eval"
)

// Depth by deviation value (Hondoh and Kotani, "A Method of Tree-Search Extension Using
// Deviation Values", IPSJ SIG Notes 2000). At a node far enough from the leaves the children's
// provisional values (the ordering keys: the previous iteration's table value or a shallow
// search of the child, orderKey) give each child its deviation value among its siblings,
// d = 50 + 10*z with z the child's standard score (population deviation); the child's subtree
// is searched to the node's height minus f(d) plies, where f, the cost, is a table of 7 points
// at d = 35, 40, ..., 65, linear between them and constant outside. f = 1 everywhere is the
// plain search; f < 1 extends a child, f > 1 reduces it. The table is learned offline by a
// genetic algorithm (FitDevCost, `othello devfit`) for the best move choice under a node
// budget, and stored with the weights (DevSection). docs/deviation.md has the measurements.
//
// Heights stay integers in the rest of the search: a deviation node works in 1/devUnit plies
// and hands the fraction of the child's height down to the child (Engine.devRem, read and
// cleared by every alphaBeta on entry), so that the fractions of a path add up; a child below
// the deviation nodes (height under devMinHeight, or the solver's fastest-first band) gets
// its height rounded to the nearest ply instead, and the fraction ends there.

const (
	// DevPoints is the number of points of the cost table, at deviation values devFirst,
	// devFirst+devStep, ...
	DevPoints = 7
	devFirst  = 35
	devStep   = 5
	// The cost of a child is kept within these plies: at least devMinCost, so that the
	// fractional height falls at every deviation node and the search ends; at most devMaxCost,
	// less than devMinHeight, so that a child's height stays positive.
	devMinCost = 0.25
	devMaxCost = 4.0
	// devMinHeight is the lowest height of a deviation node (never below the height from
	// which moves are ordered by shallow searches, whose values the deviations need).
	devMinHeight = 5
	devShift     = 6
	devUnit      = 1 << devShift // fractional heights in 1/64 ply
	devMask      = devUnit - 1
	// devTableKey: orderKey's keys of children found in the previous table are 1<<24 minus
	// the child's value; others are the parent's value itself.
	devTableKey = 1 << 23
)

// DevSection is the tag of the weight-file section that holds the deviation cost table
// fitted for those weights (the text WriteDevCost writes).
const DevSection = "DEV1"

// DevCost is the cost table of depth by deviation value: Cost[i] plies for a child of
// deviation value 35+5i among its siblings.
type DevCost struct {
	Eval string // evaluation it was fitted with ("" for the built-in default)
	Cost [DevPoints]float64
}

// defaultDevCost is the table fitted by `othello devfit fit` for the default weights
// (docs/deviation.md: 200 WTHOR positions, budgets of 10k, 20k and 40k nodes at level 5),
// used when the weights carry no DEV1 section. On held-out positions it chooses no better
// than the plain search, which is why the option is off by default.
var defaultDevCost = [DevPoints]float64{0.6081, 1.8061, 2.4800, 2.2084, 2.3212, 1.1074, 1.8682}

// DefaultDevCost returns the committed fitted table.
func DefaultDevCost() *DevCost { return &DevCost{Eval: "default", Cost: defaultDevCost} }

// FlatDevCost is the table that costs every child c plies (1: the plain search's heights).
func FlatDevCost(c float64) *DevCost {
	d := &DevCost{Eval: "flat"}
	for i := range d.Cost {
		d.Cost[i] = c
	}
	return d
}

// At is the cost in plies of a child of deviation value d: linear between the table's points,
// the end points' values outside them.
func (c *DevCost) At(d float64) float64 {
	x := (d - devFirst) / devStep
	switch {
	case !(x > 0): // NaN as well
		return c.Cost[0]
	case x >= DevPoints-1:
		return c.Cost[DevPoints-1]
	}
	i := int(x)
	f := x - float64(i)
	return c.Cost[i] + f*(c.Cost[i+1]-c.Cost[i])
}

// valid reports whether every cost is within [devMinCost, devMaxCost].
func (c *DevCost) valid() error {
	for i, v := range c.Cost {
		if !(v >= devMinCost && v <= devMaxCost) {
			return fmt.Errorf("deviation cost at %d is %v: want %v to %v plies", devFirst+devStep*i, v, devMinCost, devMaxCost)
		}
	}
	return nil
}

// minCost is the table's smallest cost.
func (c *DevCost) minCost() float64 {
	m := c.Cost[0]
	for _, v := range c.Cost[1:] {
		m = math.Min(m, v)
	}
	return m
}

// DeviationValues writes into d the deviation value of each of values among them: 50 + 10
// times the standard score, with the population standard deviation; all 50 when the values
// are all equal. len(d) must be at least len(values).
func DeviationValues(values []float64, d []float64) {
	n := float64(len(values))
	if n == 0 {
		return
	}
	var mean float64
	for _, v := range values {
		mean += v
	}
	mean /= n
	var ss float64
	for _, v := range values {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / n)
	for i, v := range values {
		d[i] = 50
		if sd > 0 {
			d[i] = 50 + 10*(v-mean)/sd
		}
	}
}

// devReach bounds the plies a search of height can go down at most: its deviation nodes cost
// at least the table's smallest cost a ply (the root and the nodes near the leaves one).
func (e *Engine) devReach(height int) int {
	if e.dev == nil {
		return height
	}
	m := e.dev.minCost()
	if m >= 1 {
		return height
	}
	return int(math.Ceil(float64(height)/m)) + 1
}

// devHeights sets the child heights (orderedMove.dh, in 1/devUnit plies) of list[searched:]
// by each move's deviation value among all of list: the first searched moves (the table's
// move, searched at the full height before the others were ordered) count with their
// searched value, the others with their provisional value, the ordering key (orderKey). rem
// is the node's own fraction of a ply.
func (e *Engine) devHeights(list []orderedMove, searched, searchedValue, height, rem int) {
	n := len(list)
	var vals, dv [maxMoves]float64
	for i := 0; i < n; i++ {
		k := int(list[i].key)
		switch {
		case i < searched:
			k = searchedValue
		case k > devTableKey:
			k -= 1 << 24
		}
		vals[i] = float64(k)
	}
	DeviationValues(vals[:n], dv[:n])
	base := height<<devShift + rem
	childDev := e.b.NumEmpties()-1 > fastestFirstAt
	for i := searched; i < n; i++ {
		h := base - int(math.Round(e.dev.At(dv[i])*devUnit))
		if !childDev || h>>devShift < e.devHeight {
			// The child is no deviation node: the fraction ends here, rounded.
			h = (h + devUnit/2) &^ devMask
		}
		list[i].dh = int16(h)
	}
}

// DevCostFor returns the deviation cost table for an evaluation: the one stored in its weight
// file, or else the embedded default weights', or else the committed default table.
func DevCostFor(ev *eval.Evaluator) *DevCost {
	if ev != nil {
		if data, ok := ev.Section(DevSection); ok {
			if c, err := ParseDevCost(bytes.NewReader(data)); err == nil {
				return c
			}
		}
		if def, err := eval.Default(); err == nil && def != ev {
			if data, ok := def.Section(DevSection); ok {
				if c, err := ParseDevCost(bytes.NewReader(data)); err == nil {
					return c
				}
			}
		}
	}
	return DefaultDevCost()
}

// ParseDevCost reads a table written by WriteDevCost.
func ParseDevCost(r io.Reader) (*DevCost, error) {
	c := &DevCost{}
	sc := bufio.NewScanner(r)
	line, seen := 0, false
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "eval":
			if len(f) != 2 {
				return nil, fmt.Errorf("dev line %d: want \"eval NAME\"", line)
			}
			c.Eval = f[1]
		case "cost":
			if len(f) != 1+DevPoints {
				return nil, fmt.Errorf("dev line %d: want \"cost\" and %d plies", line, DevPoints)
			}
			for i := range c.Cost {
				v, err := strconv.ParseFloat(f[1+i], 64)
				if err != nil {
					return nil, fmt.Errorf("dev line %d: bad number %q", line, f[1+i])
				}
				c.Cost[i] = v
			}
			seen = true
		default:
			return nil, fmt.Errorf("dev line %d: unknown key %q (want eval or cost)", line, f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !seen {
		return nil, fmt.Errorf("dev: no \"cost\" line")
	}
	if err := c.valid(); err != nil {
		return nil, fmt.Errorf("dev: %v", err)
	}
	return c, nil
}

// WriteDevCost writes the table as text.
func WriteDevCost(w io.Writer, c *DevCost) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Depth by deviation value (othello devfit): plies a child's subtree costs by its deviation\n")
	fmt.Fprintf(bw, "# value among its siblings at d = 35 40 45 50 55 60 65, linear between, constant outside.\n")
	if c.Eval != "" {
		fmt.Fprintf(bw, "eval %s\n", c.Eval)
	}
	fmt.Fprintf(bw, "cost")
	for _, v := range c.Cost {
		fmt.Fprintf(bw, " %.4f", v)
	}
	fmt.Fprintf(bw, "\n")
	return bw.Flush()
}

// String is the table on one line, the costs at d = 35..65.
func (c *DevCost) String() string {
	var sb strings.Builder
	for i, v := range c.Cost {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%.2f", v)
	}
	return sb.String()
}
