package cluster

import (
	"strings"
	"testing"

	"github.com/othellogo/othello/endgame"
)

// The worker's and dsolve's checks name what is wrong; the selection takes the first number
// from the file's name.
func TestCommandOptions(t *testing.T) {
	local := Access{Servers: "127.0.0.1:6379"}
	if err := (WorkerRun{Access: local, Threads: 1}).Check(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []WorkerRun{{Threads: 1}, {Access: local, Threads: 0}, {Access: Access{Servers: "localhost:1"}, Threads: 257},
		{Access: local, Threads: 1, HashMiB: 99999999999}, {Access: local, Threads: 1, SearchMiB: -1}} {
		if r.Check() == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	o := DsolveOptions{Access: Access{Servers: "127.0.0.1:1,localhost:2"}, SplitName: "tree", Only: "41-42"}
	if err := o.Check(); err != nil || len(o.Cluster.Servers) != 2 || o.Options.Split.String() != "tree" {
		t.Fatalf("%v, %+v", err, o)
	}
	if err := o.Select("fforum-40-59.obf", make([]endgame.Problem, 20)); err != nil || o.First != 40 || len(o.Selected) != 2 || o.Selected[0] != 1 {
		t.Fatalf("select: %v, first %d, %v", err, o.First, o.Selected)
	}
	if err := (&DsolveOptions{Access: local, SplitName: "frob"}).Check(); err == nil || !strings.Contains(err.Error(), "frob") {
		t.Errorf("split frob: %v", err)
	}
	if err := o.ReadBase(); err != nil || o.Base != nil {
		t.Errorf("no base: %v", err)
	}
}
