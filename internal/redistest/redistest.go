// Package redistest starts and stops a real redis-server on a free loopback port for tests
// (of the distributed search and of the commands that use it): no fake Redis.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a real redis-server started for a test on a free loopback port, in a
// temporary directory, without persistence. The tests fail, not skip, when redis-server is
// missing: CI installs it (.ci/run).
type Server struct {
	Addr string
	port int
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
}

func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatalf("redis-server not found (apt-get install redis-server): %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), port: port, dir: t.TempDir()}
	r.start(t)
	t.Cleanup(r.Kill)
	return r
}

func (r *Server) start(t testing.TB) {
	t.Helper()
	r.cmd = exec.Command("redis-server", "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.dir, "--daemonize", "no", "--loglevel", "warning")
	logf, err := os.OpenFile(filepath.Join(r.dir, "redis.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	r.cmd.Stdout, r.cmd.Stderr = logf, logf
	DieWithParent(r.cmd)
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("redis-server: %v", err)
	}
	r.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) {
		cmd.Wait()
		close(done)
	}(r.cmd, r.done)
	c := redis.NewClient(&redis.Options{Addr: r.Addr, Protocol: 2, DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if c.Ping(context.Background()).Err() == nil {
			return
		}
		if time.Since(start) > 5*time.Second {
			r.Kill()
			t.Fatalf("redis-server on %s did not answer", r.Addr)
		}
	}
}

// Kill stops the server at once (SIGKILL) and waits for it to be gone.
func (r *Server) Kill() {
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	r.cmd.Process.Kill()
	<-r.done
}

// Restart starts a fresh, empty server on the same port.
func (r *Server) Restart(t testing.TB) {
	r.Kill()
	r.start(t)
}
