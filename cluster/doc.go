// Package cluster solves endgame positions on many processes or machines that share a
// table through Redis: its one job is the distributed search, mainly the exact solve (the
// same workers also run midgame searches, one task each, for an analysis or a book's
// leaves: Controller.Search, AnalyzeDepth, Searcher). It follows Sato, Shindo,
// Noshita and Nakayama, "Some Experiments on the Distributed Shared-Hashing Method for
// Searching Game-Trees in Parallel" (IPSJ Journal, 2001): a Controller splits the game tree
// into tasks, Searchers (Worker) solve them each with its own local table (the endgame
// solver's, shared by the worker's threads), and Table Managers keep a global table that
// every Searcher reads on a local miss and writes back to, for nodes high enough in the tree
// for a round trip to pay. The Table Managers are Redis servers: one (the paper's
// centralised table) or several with the positions sharded among them by hash (its
// distributed table). Redis also carries the tasks and results: a stream with a consumer
// group, so that a task whose worker died (no heartbeat for a visibility timeout) goes to
// another worker, and the solve still ends with the exact score.
//
// The Controller splits by PVSplit (the principal variation is searched first, down a few
// plies, and the siblings of each node on it are then tested with null windows by the
// workers in parallel) or, for comparison, by Tree-Splitting (every move of the root is one
// task with the full window). Its statistics give the paper's overheads: search overhead
// from node counts, communication overhead from the time spent in Redis calls, and
// synchronisation overhead as what remains of the time overhead (docs/distributed.md).
//
// Nothing read from Redis is believed before it is checked: with a cluster key (Key) every
// task, result and table entry carries a MAC (HMAC-SHA256, truncated) and what fails it is
// dropped and counted; with or without one, scores, bounds, moves and empties are range-checked
// against the position, results are bound to their job and task, and tasks to the worker's
// bounds and the controller's engine (BuildID, WeightsID). Without a key only loopback servers
// are accepted (Access). The threat model is in docs/distributed.md.
//
// Redis sits behind two small interfaces with one real implementation each:
// endgame.GlobalTable (RedisTable) and Queue (RedisQueue). The tests start a real
// redis-server on a loopback port and kill it and the workers to test the timeouts,
// retries and re-queueing.
package cluster
