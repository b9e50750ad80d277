// Package treesim simulates parallel alpha-beta search on artificial game trees, to measure how
// the order in which idle processes pick tasks changes the time to finish a search. It follows
// Ura, Tsuruoka and Chikayama, "Parallel alpha-beta search with estimated distributions of
// search windows" (seed paper 000), section 4.3: trees whose node values are sums of random edge
// values (normal, standard deviation 100) and whose leaves carry the value of a deep subtree;
// a predicted normal distribution of every node's value (the paper's epsilon and sigma^r, from
// its convergence procedure); multiple iterative deepening by pseudo shallow searches; one
// transposition table keyed by the node's path; and a step-synchronous simulation of P
// processes, each of which executes one node task a step.
//
// The orders compared are the paper's: the probability P_n that a node is not pruned, computed
// from predicted normal distributions of its alpha and beta (equations 7-9, by the table of
// section 2.3); the same without distributions (equation 14); depth-first (P_n = 1 first, then
// leftmost); exact histograms without the paper's three approximations; and, as a baseline,
// the Young Brothers Wait Concept. With one process every order is the sequential alpha-beta.
//
// The same simulation runs over Othello search trees (othello.go): real positions, the
// engine's move order, the pattern evaluation at the leaves, and the predicted distributions of
// the engine's Multi-ProbCut fit in place of the artificial trees' epsilon and sigma^r.
package treesim
