package book

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// A Job is a long piece of work on a book file that can be interrupted and run again:
// building the book from games, learning games, extending or deviating its lines. Its steps
// change the book's positions or game counts (adding the games, one game, one round of
// lines), and each is followed by searches of the moves leaving the book. The searches need
// no record: an interrupted Evaluate leaves the book consistent and the next one finds the
// moves still to search. A step applied twice, though, counts its games twice or does a
// second round, so a Job keeps, in a small file beside the book (path + ".progress", written
// atomically under the book's lock just before the book), how many of its steps the book file
// holds; the same work started again skips them, and the resumed run ends with the book the
// uninterrupted run would have written. The progress file is removed when the work is done.
type Job struct {
	Book  *Book
	path  string
	work  Work
	done  int // steps applied to Book
	saved int // steps the book file holds
	// Resumed is how many steps the book file already held when the job started (0: a fresh
	// start). Replaced, when not "", describes another unfinished job the progress file
	// recorded; this job does not resume it and forgets it.
	Resumed  int
	Replaced string
}

// Work is what a Job does: BuildWork, LearnWork, ExtendWork or DeviateWork.
type Work struct {
	kind     string
	games    []Game
	maxPly   int
	minGames int
	rounds   int
	limit    int
	margin   float64
}

// BuildWork adds the games' positions up to maxPly moves that occur in at least minGames of
// them (AddGames), in one step, and searches the moves leaving the book.
func BuildWork(games []Game, maxPly, minGames int) Work {
	return Work{kind: "build", games: games, maxPly: maxPly, minGames: minGames}
}

// LearnWork learns the games one after the other (Learn), one step per game.
func LearnWork(games []Game, maxPly int) Work {
	return Work{kind: "learn", games: games, maxPly: maxPly}
}

// ExtendWork extends the book's lines (Extend) up to rounds times, one step per round,
// stopping early when a round adds nothing. The rounds are not part of what identifies the
// work: run again with more rounds, an interrupted extension goes on to the new number.
func ExtendWork(maxPly, rounds int) Work {
	return Work{kind: "extend", maxPly: maxPly, rounds: rounds}
}

// DeviateWork adds the best unexplored moves (Deviate) in one step.
func DeviateWork(margin float64, maxPly, limit int) Work {
	return Work{kind: "deviate", margin: margin, maxPly: maxPly, limit: limit}
}

// String describes the work in words, for messages and the progress file.
func (w Work) String() string {
	switch w.kind {
	case "build":
		return fmt.Sprintf("book build of %d games (--moves %d --min-games %d)", len(w.games), w.maxPly, w.minGames)
	case "learn":
		return fmt.Sprintf("book learn of %d games (--moves %d)", len(w.games), w.maxPly)
	case "extend":
		return fmt.Sprintf("book extend (--moves %d)", w.maxPly)
	}
	return fmt.Sprintf("book deviate (--margin %g --moves %d --limit %d)", w.margin, w.maxPly, w.limit)
}

// id is a digest of everything that decides the work's steps: its kind, parameters and games.
func (w Work) id() string {
	h := sha256.New()
	put := func(v uint64) { binary.Write(h, binary.LittleEndian, v) }
	h.Write([]byte(w.kind))
	put(uint64(w.maxPly))
	put(uint64(w.minGames))
	put(uint64(w.limit))
	put(math.Float64bits(w.margin))
	put(uint64(len(w.games)))
	for _, g := range w.games {
		put(g.Start.P)
		put(g.Start.O)
		flags := uint64(0)
		if g.Start.BlackToMove {
			flags |= 1
		}
		if g.HasResult {
			flags |= 2
		}
		put(flags)
		put(uint64(int64(g.Result)))
		put(uint64(len(g.Moves)))
		for _, m := range g.Moves {
			put(uint64(int64(m)))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// steps is the number of steps of the work.
func (w Work) steps() int {
	switch w.kind {
	case "learn":
		return len(w.games)
	case "extend":
		return w.rounds
	}
	return 1
}

// apply applies step i of the work to bk and returns the number of positions added.
func (w Work) apply(bk *Book, i int) (int, error) {
	switch w.kind {
	case "build":
		return bk.AddGames(w.games, w.maxPly, w.minGames)
	case "learn":
		n, err := bk.AddGame(w.games[i], w.maxPly)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", gameName(w.games[i], i), err)
		}
		return n, nil
	case "extend":
		return bk.addBestChildren(w.maxPly), nil
	}
	return bk.addDeviations(w.margin, w.maxPly, w.limit), nil
}

// StartJob reads the book at path for the work (for a build or a learn, an empty book when
// there is no file yet), and from the progress file beside it how many of the work's steps
// the book file already holds.
func StartJob(path string, w Work) (*Job, error) {
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("book: locking %s: %w", path, err)
	}
	defer unlock()
	j := &Job{path: path, work: w}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist) && (w.kind == "build" || w.kind == "learn"):
		j.Book = New()
	case err != nil:
		return nil, fmt.Errorf("book: %w", err)
	default:
		if j.Book, err = Decode(data); err != nil {
			return nil, fmt.Errorf("book %s: %w", path, err)
		}
		j.Book.setOrigin(path, data)
	}
	p, err := readProgress(progressPath(path))
	if err != nil {
		return nil, err
	}
	switch {
	case p == nil:
	case p.job == w.id():
		j.done = p.steps
		if p.unless == fileHash(data) {
			j.done = p.unlessSteps // the save that was to bring the file to p.steps did not happen
		}
	default:
		j.Replaced = p.work
	}
	j.saved, j.Resumed = j.done, j.done
	return j, nil
}

// Run does the steps the book does not hold yet, each followed by the searches of the moves
// leaving the book, after finishing the searches an interruption cut short. It returns the
// positions added and the leaves searched. When ctx ends it stops between searches and
// returns ctx's error; Save then keeps what was done for a later run.
func (j *Job) Run(ctx context.Context, s Searcher, opt Options) (added, searched int, err error) {
	if j.done > 0 {
		if searched, err = j.Book.Evaluate(ctx, s, opt); err != nil {
			return 0, searched, err
		}
	}
	for j.done < j.work.steps() {
		a, err := j.work.apply(j.Book, j.done)
		if err != nil {
			return added, searched, err
		}
		j.done++
		added += a
		n, err := j.Book.Evaluate(ctx, s, opt)
		searched += n
		if err != nil {
			return added, searched, err
		}
		if j.work.kind == "extend" && a == 0 {
			break // a round that adds nothing: so would the next
		}
	}
	return added, searched, nil
}

// Path is the book file.
func (j *Job) Path() string { return j.path }

// Save writes the book and records, beside it, how many of the work's steps it holds, so
// that the same work started again goes on from there.
func (j *Job) Save() error {
	return j.save(nil)
}

// Finish writes the book of a job whose work is done and removes its progress file.
func (j *Job) Finish() error {
	return j.save(func() error {
		if err := os.Remove(progressPath(j.path)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("book: the book is saved, but %w", err)
		}
		return nil
	})
}

func (j *Job) save(after func() error) error {
	if j.path == "" {
		return errors.New("book: a job without a book file cannot be saved")
	}
	err := j.Book.save(j.path, func(cur []byte) error {
		p := progress{job: j.work.id(), work: j.work.String(), steps: j.done, unless: fileHash(cur), unlessSteps: j.saved}
		return writeAtomic(progressPath(j.path), p.encode(), nil)
	}, after)
	if err == nil {
		j.saved = j.done
	}
	return err
}

func progressPath(bookPath string) string { return bookPath + ".progress" }

// fileHash identifies a book file's bytes (nil: no file).
func fileHash(data []byte) string {
	if data == nil {
		return "none"
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// progress is the record of a job: the book file holds steps of the work job, unless the
// file's hash is unless, in which case it holds unlessSteps (it is written just before the
// book, under the lock; a crash in between leaves the file as it was, with that hash).
type progress struct {
	job, work   string
	steps       int
	unless      string
	unlessSteps int
}

const progressHeader = "GoThello book progress 1"

func (p progress) encode() []byte {
	return fmt.Appendf(nil, "%s\njob %s\nwork %s\nsteps %d\nunless %s %d\n", progressHeader, p.job, p.work, p.steps, p.unless, p.unlessSteps)
}

// readProgress reads a progress file: nil when there is none.
func readProgress(path string) (*progress, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	bad := func() (*progress, error) {
		return nil, fmt.Errorf("book: %s is not a progress record; remove it to start afresh (steps of an interrupted run would then be done twice)", path)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	if !sc.Scan() || sc.Text() != progressHeader {
		return bad()
	}
	p := &progress{}
	seen := 0
	for sc.Scan() {
		key, val, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "job":
			p.job = val
		case "work":
			p.work = val
		case "steps":
			if p.steps, err = strconv.Atoi(val); err != nil || p.steps < 0 {
				return bad()
			}
		case "unless":
			h, n, _ := strings.Cut(val, " ")
			if p.unlessSteps, err = strconv.Atoi(n); err != nil || p.unlessSteps < 0 || h == "" {
				return bad()
			}
			p.unless = h
		default:
			return bad()
		}
		seen++
	}
	if seen != 4 || p.job == "" {
		return bad()
	}
	return p, nil
}
