// Package uct is a Monte-Carlo tree search engine for Othello: UCT (UCB1 applied to trees,
// Kocsis and Szepesvári, "Bandit based Monte-Carlo planning", 2006) with pruning by the
// finiteness of the remaining simulation budget, after Kitagawa, Kurita and Chikayama,
// "Pruning in UCT search based on limitedness of computational resource" (Blokus Duo): a root
// move is no longer simulated once the simulations left in the budget could not make it the
// move that will be chosen.
//
// An Engine has the methods of search.Engine that the front ends and the match runner call
// (Search and Analyze over search.Limits, search.Info and search.MoveScore), so it plugs in
// wherever a search.Engine does; the budget is Limits.Nodes (playouts), Limits.MoveTime or a
// game clock, else the Config's. Playouts are uniformly random, guided by the pattern
// evaluation of package eval (epsilon-greedy or softmax over the evaluated children), or cut
// off after a few random plies where the evaluation's win probability is the reward. The tree
// is kept between searches and re-rooted at the position of the next one. Searches run on
// the threads of the parallel search's worker pool (internal/ybwc) over one tree (tree
// parallelism) with a virtual loss: node statistics are atomic counters, and a small lock per
// node only guards its one-time expansion.
//
// The move played is the most visited root move. Pruning (Config.Prune) has two rules from
// the paper's idea: the safe one (PruneVisits) drops a move whose visits plus all the
// remaining simulations cannot reach the most visited move's, which cannot change the move
// chosen at the end of this budget; the paper's (PrunePaper, its equations 7-9, optionally
// 10-11) expects each move to get a share of the remaining simulations proportional to its win
// rate, and drops it when winning all of them would still leave its win rate below the best
// one's. A third rule, sequential halving of the root moves over the budget (PruneHalving), is
// there for comparison. PlayMatch plays two move choosers against each other for
// measurements; docs/uct.md records them.
package uct
