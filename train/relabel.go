package train

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"sync"
	"sync/atomic"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// MaxExactDepth bounds the relabelling depth.
const MaxExactDepth = 20

// Relabel solves exactly, with the endgame solver, every position with at most depth empties
// (and a move to play) of every game, and records the scores in the games (ExactDepth,
// Exact): the classic correction of the last moves of game records, whose endgames humans
// and weak programs often misplay. A game that never reaches depth empties with a move to
// play (it ended before) keeps its labels. Each of workers goroutines owns a solver with a
// ttMiB MiB table. done, when not nil, is called after each game (from any goroutine).
func Relabel(games []Game, depth, workers, ttMiB int, done func()) error {
	if depth < 1 || depth > MaxExactDepth {
		return fmt.Errorf("train: relabelling depth %d, want 1..%d", depth, MaxExactDepth)
	}
	if workers < 1 {
		workers = 1
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := endgame.NewSolver(ttMiB)
			var path [MaxExactDepth + 1]board.Board
			var have [MaxExactDepth + 1]bool
			for {
				i := int(next.Add(1)) - 1
				if i >= len(games) {
					return
				}
				g := &games[i]
				clear(have[:])
				Replay(g.Moves, func(b *board.Board) {
					if e := b.NumEmpties(); e <= depth {
						path[e], have[e] = *b, true
					}
				})
				if !have[depth] {
					if done != nil {
						done()
					}
					continue
				}
				// Deepest first: the shallower positions find its work in the table.
				for e := depth; e >= 0; e-- {
					if !have[e] {
						continue
					}
					b := &path[e]
					v := s.Solve(b.P, b.O, -64, 64).Score
					if !b.BlackToMove {
						v = -v
					}
					g.Exact[e] = int8(v)
				}
				g.ExactDepth = depth
				if done != nil {
					done()
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

// The relabelling cache: the exact scores of a Relabel run, so that several trainings on the
// same games pay for the solves once. Layout (little-endian): magic "GTX1", uint32 depth,
// uint32 number of games, uint64 FNV-1a hash of the games' moves (each game's squares, then
// 0xFF), then per game one byte ExactDepth and depth+1 bytes Exact[0..depth].
const cacheMagic = "GTX1"

func gamesHash(games []Game) uint64 {
	h := fnv.New64a()
	var buf []byte
	for i := range games {
		buf = buf[:0]
		for _, m := range games[i].Moves {
			buf = append(buf, byte(m))
		}
		buf = append(buf, 0xFF)
		h.Write(buf)
	}
	return h.Sum64()
}

// WriteRelabelCache writes the exact labels of games (relabelled to depth) to w.
func WriteRelabelCache(w io.Writer, games []Game, depth int) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(cacheMagic)
	var hdr [16]byte
	binary.LittleEndian.PutUint32(hdr[0:], uint32(depth))
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(games)))
	binary.LittleEndian.PutUint64(hdr[8:], gamesHash(games))
	bw.Write(hdr[:])
	for i := range games {
		bw.WriteByte(byte(games[i].ExactDepth))
		for e := 0; e <= depth; e++ {
			bw.WriteByte(byte(games[i].Exact[e]))
		}
	}
	return bw.Flush()
}

// cacheHeader reads the header of a relabelling cache: its depth, number of games and hash of
// the games; ok is false when data does not start as a cache does.
func cacheHeader(data []byte) (depth, games int, hash uint64, ok bool) {
	if len(data) < 20 || string(data[:4]) != cacheMagic {
		return 0, 0, 0, false
	}
	le := binary.LittleEndian
	return int(le.Uint32(data[4:])), int(le.Uint32(data[8:])), le.Uint64(data[12:]), true
}

// ReadRelabelCache sets the exact labels of games from a cache written by WriteRelabelCache
// for the same games and depth; anything else (other games, another depth, a short or
// corrupt file) is an error and leaves games unchanged.
func ReadRelabelCache(r io.Reader, games []Game, depth int) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	d, n, h, ok := cacheHeader(data)
	if !ok {
		return fmt.Errorf("train: not a relabelling cache")
	}
	switch {
	case d != depth:
		return fmt.Errorf("train: relabelling cache is for %d empties, want %d", d, depth)
	case n != len(games) || h != gamesHash(games):
		return fmt.Errorf("train: relabelling cache is for other games (%d games)", n)
	case len(data) != 20+n*(depth+2):
		return fmt.Errorf("train: relabelling cache of %d bytes, want %d", len(data), 20+n*(depth+2))
	}
	p := data[20:]
	for i := range games {
		ed := int(int8(p[0]))
		if ed != 0 && ed != depth {
			return fmt.Errorf("train: relabelling cache: game %d has depth %d", i, ed)
		}
		p = p[1:]
		for e := 0; e <= depth; e++ {
			if v := int8(p[e]); v < -64 || v > 64 {
				return fmt.Errorf("train: relabelling cache: game %d: score %d", i, v)
			}
		}
		p = p[depth+1:]
	}
	p = data[20:]
	for i := range games {
		games[i].ExactDepth = int(p[0])
		for e := 0; e <= depth; e++ {
			games[i].Exact[e] = int8(p[1+e])
		}
		p = p[depth+2:]
	}
	return nil
}
