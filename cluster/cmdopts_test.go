package cluster

import (
	"strings"
	"testing"

	"github.com/othellogo/othello/endgame"
)

// The worker's and dsolve's checks name what is wrong; the selection takes the first number
// from the file's name.
func TestCommandOptions(t *testing.T) {
	if err := (WorkerRun{Addrs: "127.0.0.1:6379", Threads: 1}).Check(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []WorkerRun{{Addrs: "", Threads: 1}, {Addrs: "127.0.0.1:6379", Threads: 0}, {Addrs: "h:1", Threads: 257}} {
		if r.Check() == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	o := DsolveOptions{AddrList: "a:1,b:2", SplitName: "tree", Only: "41-42"}
	if err := o.Check(); err != nil || len(o.Addrs) != 2 || o.Options.Split.String() != "tree" {
		t.Fatalf("%v, %+v", err, o)
	}
	if err := o.Select("fforum-40-59.obf", make([]endgame.Problem, 20)); err != nil || o.First != 40 || len(o.Selected) != 2 || o.Selected[0] != 1 {
		t.Fatalf("select: %v, first %d, %v", err, o.First, o.Selected)
	}
	if err := (&DsolveOptions{AddrList: "a:1", SplitName: "frob"}).Check(); err == nil || !strings.Contains(err.Error(), "frob") {
		t.Errorf("split frob: %v", err)
	}
	if err := o.ReadBase(); err != nil || o.Base != nil {
		t.Errorf("no base: %v", err)
	}
}
