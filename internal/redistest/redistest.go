// Package redistest starts and stops a real redis-server on a free loopback port for tests
// (of the distributed search and of the commands that use it): no fake Redis. A server may
// require a password or ACL users and speak only TLS, with a CA and a certificate made for
// the test.
package redistest

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Options configure a Server.
type Options struct {
	// Password is the default user's password (requirepass).
	Password string
	// ACL are users, each as a redis.conf "user" line without the word "user", e.g.
	// "othello on >pw ~othello:* +@all"; "default off" disables the default user.
	ACL []string
	// User is the user the Server's clients log in as (with Password); "": the default.
	User string
	// TLS makes the server speak only TLS, with a certificate for 127.0.0.1 signed by a CA
	// made for the test (CAFile); clients need no certificate of their own.
	TLS bool
	// Args are more redis-server arguments, e.g. "--maxmemory-policy", "allkeys-lru".
	Args []string
}

// Server is a real redis-server started for a test on a free loopback port, in a
// temporary directory, without persistence. The tests fail, not skip, when redis-server is
// missing: CI installs it (.ci/run).
type Server struct {
	Addr           string
	User, Password string // what the clients log in with
	CAFile         string // the CA of a TLS server's certificate ("" without TLS)
	opt            Options
	clientTLS      *tls.Config
	port           int
	dir            string
	cmd            *exec.Cmd
	done           chan struct{}
}

// Start starts a plain server: no password, no TLS.
func Start(t testing.TB) *Server { return StartWith(t, Options{}) }

// StartWith starts a server with the options.
func StartWith(t testing.TB, opt Options) *Server {
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
	r := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), User: opt.User, Password: opt.Password, opt: opt, port: port, dir: t.TempDir()}
	if opt.TLS {
		var err error
		if r.CAFile, r.clientTLS, err = makeCerts(r.dir); err != nil {
			t.Fatal(err)
		}
	}
	r.start(t)
	t.Cleanup(r.Kill)
	return r
}

func (r *Server) start(t testing.TB) {
	t.Helper()
	args := []string{"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", r.dir, "--daemonize", "no", "--loglevel", "warning"}
	if r.opt.TLS {
		args = append(args, "--port", "0", "--tls-port", strconv.Itoa(r.port), "--tls-auth-clients", "no",
			"--tls-cert-file", filepath.Join(r.dir, "server.crt"), "--tls-key-file", filepath.Join(r.dir, "server.key"), "--tls-ca-cert-file", r.CAFile)
	} else {
		args = append(args, "--port", strconv.Itoa(r.port))
	}
	if r.opt.Password != "" && r.opt.User == "" {
		args = append(args, "--requirepass", r.opt.Password)
	}
	for _, u := range r.opt.ACL {
		args = append(args, append([]string{"--user"}, strings.Fields(u)...)...)
	}
	args = append(args, r.opt.Args...)
	r.cmd = exec.Command("redis-server", args...)
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
	o := r.Options()
	o.DialTimeout, o.MaxRetries = 100*time.Millisecond, -1
	c := redis.NewClient(o)
	defer c.Close()
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if c.Ping(context.Background()).Err() == nil {
			return
		}
		if time.Since(start) > 5*time.Second {
			r.Kill()
			log, _ := os.ReadFile(filepath.Join(r.dir, "redis.log"))
			t.Fatalf("redis-server on %s did not answer: %s", r.Addr, log)
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

// Options are a client's options for the server: its address, user, password and TLS.
func (r *Server) Options() *redis.Options {
	return &redis.Options{Addr: r.Addr, Username: r.User, Password: r.Password, TLSConfig: r.ClientTLS(), Protocol: 2}
}

// Client is a raw client of the server's database db, closed when the test ends: what any
// client that can reach the server can do.
func (r *Server) Client(t testing.TB, db int) *redis.Client {
	o := r.Options()
	o.DB = db
	c := redis.NewClient(o)
	t.Cleanup(func() { c.Close() })
	return c
}

// ClientTLS is the TLS configuration that trusts the server's certificate (nil without TLS).
func (r *Server) ClientTLS() *tls.Config {
	if r.clientTLS == nil {
		return nil
	}
	return r.clientTLS.Clone()
}
