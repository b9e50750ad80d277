package cluster

import (
	"runtime/debug"

	"github.com/othellogo/othello/eval"
)

// protocolVersion numbers the form of the tasks, results and table entries; it is part of
// BuildID.
const protocolVersion = 2

// BuildID names the engine build for the cluster's jobs: the protocol's version and the
// main module's version control revision (with "+dirty" for uncommitted changes), or its
// version when the build has no revision. A worker refuses the tasks of a controller whose
// build differs: another build may search otherwise or read the tasks otherwise.
func BuildID() string {
	id := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		id = bi.Main.Version
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			id = rev + dirty
		}
	}
	return "p" + string(rune('0'+protocolVersion)) + " " + id
}

// WeightsID names an evaluation's weights (eval.Evaluator.Checksum; "mobility" for the
// mobility fallback, nil).
func WeightsID(ev *eval.Evaluator) string {
	if ev == nil {
		return "mobility"
	}
	return ev.Checksum()
}
