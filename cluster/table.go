package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// RedisTable is the global table (endgame.GlobalTable) kept by one Redis server or sharded
// over several by the position's hash: the paper's Table Managers, centralised or
// distributed. A position is one Redis key, its 16 bytes of bitboards behind a prefix; the
// value is 4 bytes, lower+64, upper+64, move, empties. Entries are bounds on exact scores,
// true forever, so they outlive the solve that wrote them and the worker that wrote them
// (each has a TTL, tableTTL, so that a server's volatile-* eviction policy takes them and
// never the task queue).
//
// With a cluster key each bound is signed on its own, over the position and its bytes: the
// value is the lower bound, the move and the empties with their MAC (19 bytes), then the
// upper bound, no move and the empties with theirs (19 bytes), so that the server can still
// merge two entries (the tighter of each half) without the key. Whatever a probe reads is
// checked before use: a half whose MAC fails, a bound outside -64..64, empties that are not
// the position's, a move that is not legal in it, or crossed bounds are rejected and
// counted (TableStats.Rejected), never believed.
//
// Probe waits for its answer (one round trip, bounded by ProbeTimeout); Store never waits:
// entries go to a per-server queue that a background goroutine writes in batches, one Lua
// script call per batch that merges each entry with what the server holds (the tighter
// bounds, the move if the new entry has none). Consistency is loose, as in the paper: a
// probe may miss an entry still in a queue; nothing ever makes a bound false. A server that
// fails is left alone for a while (every probe a miss, stores dropped), so that a dead
// Table Manager slows a solve down by one timeout, not one per node.
type RedisTable struct {
	opt    TableOptions
	shards []*tableShard
	wg     sync.WaitGroup
	closed atomic.Bool
	done   chan struct{}

	probes, hits, probeNanos, probeErrs atomic.Uint64
	rejected                            atomic.Uint64
	prefetched                          atomic.Uint64

	// Entries of the children of probed positions, fetched in the probe's round trip and
	// taken (once) by the children's probes: the prefetch.
	preMu                                sync.Mutex
	pre                                  map[[16]byte]prefetchEntry
	stores, dropped, batches, flushNanos atomic.Uint64
	flushErrs                            atomic.Uint64
}

// TableOptions configure a RedisTable.
type TableOptions struct {
	Servers []Endpoint // positions are sharded over them by hash
	// Key signs the entries written and authenticates those read (nil: none).
	Key *Key
	// Delay is added to every round trip (simulated network latency).
	Delay time.Duration
	// ProbeTimeout bounds a probe's round trip (0: 250 ms; the delay is added).
	ProbeTimeout time.Duration
	// Batch is the most entries written in one round trip (0: 512).
	Batch int
	// Queue is the number of entries waiting to be written per server beyond which new ones
	// are dropped (0: 1<<16).
	Queue int
	// Backoff is how long a failed server is left alone (0: 1 s).
	Backoff time.Duration
	// PrefetchEmpties, when positive, makes a probe also fetch, in the same round trip, the
	// entries of the position's children that have at least this many empties and live on
	// the same server (the solver's GlobalEmpties: the children it will probe on a local
	// miss); their probes are then answered without a round trip, if within PrefetchAge
	// (0: 500 ms) of the fetch.
	PrefetchEmpties int
	PrefetchAge     time.Duration
}

type prefetchEntry struct {
	at  int64 // unix nanoseconds
	val [signedEntryLen]byte
	n   int // bytes of val (0: not found)
}

// The values' lengths without and with a key.
const (
	entryLen       = 4
	halfLen        = 3 + macLen
	signedEntryLen = 2 * halfLen
)

// tableTTL is the life of a global table entry on the server: long, since entries stay
// true; the TTL is there for the eviction policy.
const tableTTL = 30 * 24 * time.Hour

// maxPrefetched bounds the prefetched entries kept; beyond it they are dropped at once.
const maxPrefetched = 1 << 14

type tableShard struct {
	c         *redis.Client
	in        chan tableWrite
	downUntil atomic.Int64 // unix nanoseconds
}

type tableWrite struct {
	key [18]byte
	val [4]byte
}

// TableStats counts a RedisTable's traffic since it was made.
type TableStats struct {
	Probes, Hits uint64        // probes (round trips or prefetched) and hits
	Prefetched   uint64        // probes answered by an earlier probe's prefetch, no round trip
	ProbeTime    time.Duration // spent waiting for probes, all threads together
	ProbeErrors  uint64
	Rejected     uint64 // entries (or signed halves) read and rejected: bad MAC, out of range
	Stores       uint64 // entries offered
	Dropped      uint64 // entries not written (queue full, server down)
	Batches      uint64
	FlushTime    time.Duration // spent writing batches (in the background)
	FlushErrors  uint64
}

// Sub returns the counts of s since an earlier snapshot t.
func (s TableStats) Sub(t TableStats) TableStats {
	return TableStats{
		Probes: s.Probes - t.Probes, Hits: s.Hits - t.Hits, Prefetched: s.Prefetched - t.Prefetched, ProbeTime: s.ProbeTime - t.ProbeTime,
		ProbeErrors: s.ProbeErrors - t.ProbeErrors, Rejected: s.Rejected - t.Rejected, Stores: s.Stores - t.Stores, Dropped: s.Dropped - t.Dropped,
		Batches: s.Batches - t.Batches, FlushTime: s.FlushTime - t.FlushTime, FlushErrors: s.FlushErrors - t.FlushErrors,
	}
}

const tableKeyPrefix = "t:"

// mergeScript writes a batch of entries, each merged with the one the server holds: of
// each bound the tighter (unsigned entries of 4 bytes; signed ones of two halves, whose
// first bytes are the bounds), the move of the one that has one. ARGV[1] is the TTL in
// seconds.
var mergeScript = redis.NewScript(`
local half = 19
for i = 1, #KEYS do
  local v = ARGV[i + 1]
  local old = redis.call('GET', KEYS[i])
  if old and string.len(old) == string.len(v) then
    if string.len(v) == 4 then
      local l, u, m, e = string.byte(v, 1, 4)
      local ol, ou, om = string.byte(old, 1, 3)
      if ol > l then l = ol end
      if ou < u then u = ou end
      if m == 64 then m = om end
      if l <= u then v = string.char(l, u, m, e) end
    elseif string.len(v) == 2 * half then
      local lo, hi = string.sub(v, 1, half), string.sub(v, half + 1)
      local l, m = string.byte(v, 1, 2)
      local ol, om = string.byte(old, 1, 2)
      if ol > l or (ol == l and m == 64 and om ~= 64) then lo = string.sub(old, 1, half); l = ol end
      local u, ou = string.byte(v, half + 1), string.byte(old, half + 1)
      if ou < u then hi = string.sub(old, half + 1); u = ou end
      if l <= u then v = lo .. hi end
    end
  end
  redis.call('SET', KEYS[i], v, 'EX', ARGV[1])
end
return #KEYS
`)

// NewRedisTable connects to the servers. It does not wait for them: a server that is down
// reads as an empty table until it answers.
func NewRedisTable(opt TableOptions) (*RedisTable, error) {
	if len(opt.Servers) == 0 {
		return nil, errors.New("global table: no redis address")
	}
	if opt.ProbeTimeout <= 0 {
		opt.ProbeTimeout = 250 * time.Millisecond
	}
	if opt.Batch <= 0 {
		opt.Batch = 512
	}
	if opt.Queue <= 0 {
		opt.Queue = 1 << 16
	}
	if opt.Backoff <= 0 {
		opt.Backoff = time.Second
	}
	if opt.PrefetchAge <= 0 {
		opt.PrefetchAge = 500 * time.Millisecond
	}
	t := &RedisTable{opt: opt, done: make(chan struct{}), pre: map[[16]byte]prefetchEntry{}}
	for _, a := range opt.Servers {
		sh := &tableShard{c: newClient(a, tableDB, opt.ProbeTimeout+opt.Delay, -1, opt.Delay), in: make(chan tableWrite, opt.Queue)}
		t.shards = append(t.shards, sh)
		t.wg.Add(1)
		go t.writer(sh)
	}
	return t, nil
}

// shard picks the server of a position: a hash unlike the local table's, so that one
// server's positions spread over the whole local table.
func (t *RedisTable) shard(p, o uint64) *tableShard {
	if len(t.shards) == 1 {
		return t.shards[0]
	}
	h := (p ^ o*0xD6E8FEB86659FD93) * 0x9E3779B97F4A7C15
	return t.shards[(h>>32)%uint64(len(t.shards))]
}

func tableKey(p, o uint64) [18]byte {
	var k [18]byte
	copy(k[:], tableKeyPrefix)
	binary.BigEndian.PutUint64(k[2:], p)
	binary.BigEndian.PutUint64(k[10:], o)
	return k
}

func (sh *tableShard) down(now time.Time) bool { return now.UnixNano() < sh.downUntil.Load() }

// Probe returns the global table's bounds for (p, o); any failure is a miss.
func (t *RedisTable) Probe(p, o uint64) (endgame.GlobalEntry, bool) {
	start := time.Now()
	if t.opt.PrefetchEmpties > 0 {
		if v, n, ok := t.takePrefetched(p, o, start); ok {
			t.probes.Add(1)
			t.prefetched.Add(1)
			return t.entry(p, o, v[:n], n > 0)
		}
	}
	sh := t.shard(p, o)
	if sh.down(start) {
		return endgame.GlobalEntry{}, false
	}
	k := tableKey(p, o)
	keys := []string{string(k[:])}
	var kids [][16]byte
	if t.opt.PrefetchEmpties > 0 && board.Count(^(p|o))-1 >= t.opt.PrefetchEmpties {
		for m := board.LegalMoves(p, o); m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			f := board.Flips(p, o, sq)
			cp, co := o^f, p|f|sq.Bit()
			if t.shard(cp, co) != sh {
				continue
			}
			ck := tableKey(cp, co)
			keys = append(keys, string(ck[:]))
			kids = append(kids, [16]byte(ck[2:]))
		}
	}
	var v []byte
	var err error
	if len(kids) == 0 {
		v, err = sh.c.Get(context.Background(), keys[0]).Bytes()
	} else {
		var vals []any
		if vals, err = sh.c.MGet(context.Background(), keys...).Result(); err == nil {
			t.keepPrefetched(kids, vals[1:], time.Now())
			if s, ok := vals[0].(string); ok {
				v = []byte(s)
			} else {
				err = redis.Nil
			}
		}
	}
	t.probes.Add(1)
	t.probeNanos.Add(uint64(time.Since(start)))
	if err != nil {
		if err != redis.Nil {
			t.probeErrs.Add(1)
			sh.downUntil.Store(time.Now().Add(t.opt.Backoff).UnixNano())
		}
		return endgame.GlobalEntry{}, false
	}
	return t.entry(p, o, v, true)
}

// entry checks the value read for (p, o) and returns its bounds: a signed half that fails
// is no bound, an entry that fails is a miss.
func (t *RedisTable) entry(p, o uint64, v []byte, found bool) (endgame.GlobalEntry, bool) {
	if !found {
		return endgame.GlobalEntry{}, false
	}
	e, ok := t.decode(p, o, v)
	if !ok {
		t.rejected.Add(1)
		return endgame.GlobalEntry{}, false
	}
	t.hits.Add(1)
	return e, true
}

func (t *RedisTable) decode(p, o uint64, v []byte) (endgame.GlobalEntry, bool) {
	empties := uint8(board.Count(^(p | o)))
	legal := board.LegalMoves(p, o)
	moveOK := func(m uint8) bool { return m == endgame.NoMove || m < 64 && legal&(1<<m) != 0 }
	if t.opt.Key == nil {
		if len(v) != entryLen || v[0] > 128 || v[1] > 128 || v[0] > v[1] || v[3] != empties || !moveOK(v[2]) {
			return endgame.GlobalEntry{}, false
		}
		return endgame.GlobalEntry{Lower: int8(int(v[0]) - 64), Upper: int8(int(v[1]) - 64), Move: v[2], Empties: v[3]}, true
	}
	if len(v) != signedEntryLen {
		return endgame.GlobalEntry{}, false
	}
	k := tableKey(p, o)
	e := endgame.GlobalEntry{Lower: -64, Upper: 64, Move: endgame.NoMove, Empties: empties}
	lo, hi := v[:halfLen], v[halfLen:]
	good := 0
	if lo[0] <= 128 && lo[2] == empties && moveOK(lo[1]) && t.opt.Key.verify(lo[3:], macLower, k[2:], lo[:3]) {
		e.Lower, e.Move = int8(int(lo[0])-64), lo[1]
		good++
	} else {
		t.rejected.Add(1)
	}
	if hi[0] <= 128 && hi[1] == endgame.NoMove && hi[2] == empties && t.opt.Key.verify(hi[3:], macUpper, k[2:], hi[:3]) {
		e.Upper = int8(int(hi[0]) - 64)
		good++
	} else {
		t.rejected.Add(1)
	}
	if good == 0 || e.Lower > e.Upper {
		return endgame.GlobalEntry{}, false
	}
	return e, true
}

// encode is the value written for an entry of the position k (signed with a key).
func (t *RedisTable) encode(dst []byte, k [18]byte, raw [4]byte) []byte {
	if t.opt.Key == nil {
		return append(dst, raw[:]...)
	}
	lo := [3]byte{raw[0], raw[2], raw[3]}
	hi := [3]byte{raw[1], endgame.NoMove, raw[3]}
	dst = t.opt.Key.mac(append(dst, lo[:]...), macLower, k[2:], lo[:])
	return t.opt.Key.mac(append(dst, hi[:]...), macUpper, k[2:], hi[:])
}

// takePrefetched returns (and forgets) the prefetched entry of (p, o), ok when there is one
// younger than PrefetchAge; found tells whether the server had the position then.
func (t *RedisTable) takePrefetched(p, o uint64, now time.Time) (v [signedEntryLen]byte, n int, ok bool) {
	k := tableKey(p, o)
	t.preMu.Lock()
	defer t.preMu.Unlock()
	e, ok := t.pre[[16]byte(k[2:])]
	if !ok {
		return v, 0, false
	}
	delete(t.pre, [16]byte(k[2:]))
	if now.UnixNano()-e.at > int64(t.opt.PrefetchAge) {
		return v, 0, false
	}
	return e.val, e.n, true
}

func (t *RedisTable) keepPrefetched(kids [][16]byte, vals []any, now time.Time) {
	t.preMu.Lock()
	defer t.preMu.Unlock()
	if len(t.pre)+len(kids) > maxPrefetched {
		clear(t.pre)
	}
	for i, k := range kids {
		e := prefetchEntry{at: now.UnixNano()}
		if s, ok := vals[i].(string); ok && len(s) <= signedEntryLen {
			e.n = copy(e.val[:], s)
		}
		t.pre[k] = e
	}
}

// Store queues the entry for writing; it never blocks.
func (t *RedisTable) Store(p, o uint64, e endgame.GlobalEntry) {
	t.stores.Add(1)
	sh := t.shard(p, o)
	if t.closed.Load() || sh.down(time.Now()) {
		t.dropped.Add(1)
		return
	}
	w := tableWrite{key: tableKey(p, o), val: [4]byte{byte(int(e.Lower) + 64), byte(int(e.Upper) + 64), e.Move, e.Empties}}
	select {
	case sh.in <- w:
	default:
		t.dropped.Add(1)
	}
}

// writer writes a shard's queued entries in batches until the table is closed: it takes
// whatever has queued up while the previous batch was on its way, so that batches grow with
// the latency and the load.
func (t *RedisTable) writer(sh *tableShard) {
	defer t.wg.Done()
	keys := make([]string, 0, t.opt.Batch)
	vals := make([]any, 0, t.opt.Batch+1)
	ttl := int64(tableTTL / time.Second)
	var buf []byte
	value := func(w tableWrite) string {
		buf = t.encode(buf[:0], w.key, w.val)
		return string(buf)
	}
	for {
		var w tableWrite
		select {
		case w = <-sh.in:
		case <-t.done:
			select {
			case w = <-sh.in:
			default:
				return
			}
		}
		keys, vals = append(keys[:0], string(w.key[:])), append(vals[:0], ttl, value(w))
	more:
		for len(keys) < t.opt.Batch {
			select {
			case w = <-sh.in:
				keys, vals = append(keys, string(w.key[:])), append(vals, value(w))
			default:
				break more
			}
		}
		start := time.Now()
		if sh.down(start) {
			t.dropped.Add(uint64(len(keys)))
			continue
		}
		err := mergeScript.Run(context.Background(), sh.c, keys, vals...).Err()
		t.batches.Add(1)
		t.flushNanos.Add(uint64(time.Since(start)))
		if err != nil {
			t.flushErrs.Add(1)
			t.dropped.Add(uint64(len(keys)))
			sh.downUntil.Store(time.Now().Add(t.opt.Backoff).UnixNano())
		}
	}
}

// Stats returns the counts so far.
func (t *RedisTable) Stats() TableStats {
	return TableStats{
		Probes: t.probes.Load(), Hits: t.hits.Load(), Prefetched: t.prefetched.Load(), ProbeTime: time.Duration(t.probeNanos.Load()),
		ProbeErrors: t.probeErrs.Load(), Rejected: t.rejected.Load(), Stores: t.stores.Load(), Dropped: t.dropped.Load(),
		Batches: t.batches.Load(), FlushTime: time.Duration(t.flushNanos.Load()), FlushErrors: t.flushErrs.Load(),
	}
}

// Close writes what is queued (each server's last batch bounded by its timeout) and closes
// the connections. Stores after Close are dropped.
func (t *RedisTable) Close() error {
	if t.closed.Swap(true) {
		return nil
	}
	close(t.done)
	t.wg.Wait()
	var first error
	for _, sh := range t.shards {
		if err := sh.c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
