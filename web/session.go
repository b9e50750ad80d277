package web

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/protocol"
)

// session is one page's game, its running search and its event streams.
type session struct {
	id string

	mu      sync.Mutex
	g       *game
	version uint64 // counts changes to the game; a search's result is applied only if none came
	rng     *rand.Rand
	used    time.Time

	searchSeq uint64
	cancel    context.CancelFunc // of the running search, nil when none
	done      chan struct{}      // closed when the running search has ended

	subs      map[chan event]struct{}
	closed    chan struct{}
	closeOnce sync.Once
}

// event is one server-sent event: its name and its JSON data.
type event struct {
	name string
	data any
}

func (ss *session) touch() {
	ss.mu.Lock()
	ss.used = time.Now()
	ss.mu.Unlock()
}

// expired reports whether the session has had no request for ttl, with no page listening
// and no search running.
func (ss *session) expired(ttl time.Duration) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return len(ss.subs) == 0 && ss.cancel == nil && time.Since(ss.used) > ttl
}

func (ss *session) close() { ss.closeOnce.Do(func() { close(ss.closed) }) }

// change applies f to the game, stopping the running search, whose result no longer applies.
func (ss *session) change(f func()) {
	ss.changeErr(func() error { f(); return nil })
}

// changeErr is change for an f that may refuse (and then changes nothing).
func (ss *session) changeErr(f func() error) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := f(); err != nil {
		return err
	}
	if ss.cancel != nil {
		ss.cancel()
	}
	ss.version++
	return nil
}

// stopSearch cancels the running search, if any.
func (ss *session) stopSearch() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.cancel != nil {
		ss.cancel()
	}
}

// searchFunc runs one search on eng in the position b (position number ply of the game) and
// returns what to do to the game with its result, which search calls only if the game did
// not change meanwhile.
type searchFunc func(ctx context.Context, eng protocol.Engine, id uint64, b board.Board, ply int) (apply func(), err error)

// search runs f as the session's only search: a search already running is stopped first,
// and f waits for a free engine of the pool. It ends with errCancelled when the page went,
// another search started or the game changed.
func (ss *session) search(parent context.Context, pool chan protocol.Engine, f searchFunc) error {
	ss.mu.Lock()
	for ss.done != nil {
		cancel, done := ss.cancel, ss.done
		ss.mu.Unlock()
		cancel()
		<-done
		ss.mu.Lock()
	}
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	ss.searchSeq++
	id := ss.searchSeq
	ss.cancel, ss.done = cancel, done
	version := ss.version
	b, ply := ss.g.current(), ss.g.ply
	ss.mu.Unlock()
	defer func() {
		cancel()
		ss.mu.Lock()
		ss.cancel, ss.done = nil, nil
		ss.used = time.Now()
		ss.mu.Unlock()
		close(done)
	}()
	var eng protocol.Engine
	select {
	case eng = <-pool:
	case <-ctx.Done():
		return errCancelled
	}
	apply, err := f(ctx, eng, id, b, ply)
	pool <- eng
	if err != nil {
		return err
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.version != version || ctx.Err() != nil {
		return errCancelled
	}
	apply()
	ss.version++
	return nil
}

func (ss *session) subscribe() chan event {
	ch := make(chan event, 256)
	ss.mu.Lock()
	ss.subs[ch] = struct{}{}
	ss.used = time.Now()
	ss.mu.Unlock()
	return ch
}

// unsubscribe ends a page's stream; when it was the last one the page is gone (closed, or
// navigated away), and so is the reason for its search, which is stopped.
func (ss *session) unsubscribe(ch chan event) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.subs, ch)
	ss.used = time.Now()
	if len(ss.subs) == 0 && ss.cancel != nil {
		ss.cancel()
	}
}

// publish sends ev to the session's pages; a page too slow to take it misses it (the
// search's final answer comes with its request anyway).
func (ss *session) publish(ev event) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for ch := range ss.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}
