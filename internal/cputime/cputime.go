// Package cputime reads the CPU time the process has used, for the benchmarks and problem
// runs that report it beside the wall clock: on a shared, loaded machine it measures a
// single-threaded search better than the wall clock does.
package cputime
