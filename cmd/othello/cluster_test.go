package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/othellogo/othello/cluster"
	"github.com/othellogo/othello/internal/redistest"
)

// startWorkers runs n workers in this process on the Redis server at addr until the test
// ends, with the evaluation the commands load by default (the workers' midgame searches
// must be those of a local engine).
func startWorkers(t *testing.T, addr string, n int) {
	t.Helper()
	startWorkersOn(t, cluster.Access{Servers: addr}, n)
}

// startWorkersOn runs n workers in this process on the cluster a until the test ends.
func startWorkersOn(t *testing.T, a cluster.Access, n int) {
	t.Helper()
	ev, err := loadEvaluator("default")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		r := cluster.WorkerRun{Access: a, Threads: 1, HashMiB: 16, GlobalEmpties: 12, SearchMiB: 4, Eval: ev.ev, Visibility: 10 * time.Second,
			Infof: func(string, ...any) {}}
		r.Name = "w" + string(rune('a'+i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Run(ctx); err != nil {
				t.Errorf("worker: %v", err)
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// analysisLines are the move lines of analyze's output (rank, move, value, kind), without
// the principal variations, which may differ between moves of equal value.
func analysisLines(t *testing.T, out string) []string {
	t.Helper()
	var lines []string
	for _, m := range regexp.MustCompile(`(?m)^\s*\d+\s+([a-h][1-8]|pa)\s+(\S+)\s+(exact|value|bound)`).FindAllStringSubmatch(out, -1) {
		lines = append(lines, m[1]+" "+m[2]+" "+m[3])
	}
	if len(lines) == 0 {
		t.Fatalf("no move lines in\n%s", out)
	}
	sort.Strings(lines)
	return lines
}

// solve, analyze and book extend with --redis give the local results: the file's scores,
// the same exact move values, the same book.
func TestRedisCommands(t *testing.T) {
	obf, err := filepath.Abs(filepath.Join("..", "..", "endgame", "testdata", "fforum-1-19.obf"))
	if err != nil {
		t.Fatal(err)
	}
	_, txt, _, _ := testFiles(t) // changes the working directory
	rs := redistest.Start(t)
	startWorkers(t, rs.Addr, 2)

	for _, cmd := range [][]string{{"solve", "--redis", rs.Addr}, {"dsolve", "--redis", rs.Addr}} {
		code, out, errOut := runCmd(t, "", append(cmd, "-only", "1-3", "-task-empties", "10", "-progress", "0", obf)...)
		if code != 0 || !strings.Contains(out, "total: 3 positions") || strings.Contains(out, "WRONG") {
			t.Fatalf("%v: exit %d\n%s\n%s", cmd, code, out, errOut)
		}
	}

	pos := strings.Fields(ffo1)[0] + " X"
	_, local, _ := runCmd(t, "", "analyze", "--position", pos, "--threads", "1", "--tt", "4")
	code, dist, errOut := runCmd(t, "", "analyze", "--position", pos, "--redis", rs.Addr)
	if code != 0 {
		t.Fatalf("analyze --redis: exit %d\n%s\n%s", code, dist, errOut)
	}
	if a, b := analysisLines(t, local), analysisLines(t, dist); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("analyze --redis:\n%s\nlocally:\n%s", strings.Join(b, "\n"), strings.Join(a, "\n"))
	}
	// The file's values: G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24.
	if !regexp.MustCompile(`g8\s+\+18\.00\s+exact`).MatchString(dist) || !regexp.MustCompile(`g2\s+-24\.00\s+exact`).MatchString(dist) {
		t.Fatalf("analyze --redis:\n%s", dist)
	}

	// Books: built locally at a small depth, then extended locally and on the workers.
	if code, out, errOut := runCmd(t, "", "book", "build", "--book", "base.book", "--depth", "2", "--moves", "6", "--tt", "1", txt); code != 0 {
		t.Fatalf("book build: exit %d\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile("base.book")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"local.book", "dist.book"} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := runCmd(t, "", "book", "extend", "--book", "local.book", "--depth", "2", "--moves", "8", "--tt", "1"); code != 0 {
		t.Fatalf("book extend: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := runCmd(t, "", "book", "extend", "--book", "dist.book", "--depth", "2", "--moves", "8", "--threads", "3", "--redis", rs.Addr); code != 0 {
		t.Fatalf("book extend --redis: exit %d\n%s\n%s", code, out, errOut)
	}
	_, a, _ := runCmd(t, "", "book", "export", "--book", "local.book")
	_, b, _ := runCmd(t, "", "book", "export", "--book", "dist.book")
	if a != b || len(a) < 100 {
		t.Fatalf("book extend --redis gives another book:\n%s\nlocally:\n%s", b, a)
	}
}

// With no Redis server, the commands that take --redis say so and stop at once.
func TestRedisUnreachable(t *testing.T) {
	testFiles(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	os.WriteFile("x.book", nil, 0o644)
	for _, args := range [][]string{
		{"solve", "--redis", addr, "p.obf"},
		{"analyze", "--redis", addr, "--position", strings.Fields(ffo1)[0] + " X"},
		{"book", "extend", "--redis", addr, "--book", "x.book"},
		{"worker", "--redis", addr, "--give-up", "1s"},
	} {
		code, out, errOut := runCmd(t, "", args...)
		if code != 1 || !strings.Contains(out+errOut, addr) || !strings.Contains(out+errOut, "refused") {
			t.Errorf("%q: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
}

// solve --redis reaches a TLS server that wants a password with a rediss:// URL, the test's
// CA and the password from the environment, and never prints the password; the worker
// refuses impossible tables and, without a cluster key, a server that is not on loopback.
func TestRedisSecuredCommand(t *testing.T) {
	obf, err := filepath.Abs(filepath.Join("..", "..", "endgame", "testdata", "fforum-1-19.obf"))
	if err != nil {
		t.Fatal(err)
	}
	testFiles(t)
	rs := redistest.StartWith(t, redistest.Options{TLS: true, Password: "env-secret-pw"})
	t.Setenv(cluster.PasswordEnv, "env-secret-pw")
	url := "rediss://" + rs.Addr
	os.WriteFile("cluster.key", []byte("a secret of the test cluster\n"), 0o600)
	startWorkersOn(t, cluster.Access{Servers: url, CAFile: rs.CAFile, ClusterKeyFile: "cluster.key"}, 2)
	code, out, errOut := runCmd(t, "", "solve", "--redis", url, "--redis-ca", rs.CAFile, "--cluster-key", "cluster.key", "-only", "1-2", "-task-empties", "10", "-progress", "0", obf)
	if code != 0 || !strings.Contains(out, "total: 2 positions") || strings.Contains(out, "WRONG") || !strings.Contains(out, "signed") {
		t.Fatalf("solve over TLS: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "env-secret-pw") {
		t.Fatalf("the password is in the output:\n%s\n%s", out, errOut)
	}
	t.Setenv(cluster.PasswordEnv, "wrong-pw")
	code, out, errOut = runCmd(t, "", "solve", "--redis", url, "--redis-ca", rs.CAFile, "-only", "1", "-progress", "0", obf)
	if code == 0 || !strings.Contains(out+errOut, rs.Addr) || strings.Contains(out+errOut, "wrong-pw") {
		t.Fatalf("wrong password: exit %d\n%s\n%s", code, out, errOut)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"worker", "-hash", "99999999999"}, "-hash"},
		{[]string{"worker", "-tt", "-3"}, "-tt"},
		{[]string{"worker", "-hash", "60000"}, "-hash"},
		{[]string{"worker", "--redis", "10.1.2.3:6379"}, "--cluster-key"},
		{[]string{"worker", "--redis", "10.1.2.3:6379", "--cluster-key", "missing.key"}, "missing.key"},
		{[]string{"worker", "-max-empties", "61"}, "-max-empties"},
		{[]string{"solve", "--redis", "redis.example:6379", obf}, "--cluster-key"},
		{[]string{"analyze", "--redis", "redis://:pw@10.0.0.1:1", "--position", strings.Fields(ffo1)[0] + " X"}, "--cluster-key"},
		{[]string{"book", "extend", "--redis", "10.0.0.1:1", "--book", "x.book"}, "--cluster-key"},
	} {
		code, out, errOut := runCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%q: exit %d, want 2 naming %s\n%s\n%s", c.args, code, c.want, out, errOut)
		}
	}
}
