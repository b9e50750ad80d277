package cluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/internal/redistest"
)

// --redis takes host:port or a redis:// / rediss:// URL with user and password; the
// password may come from the environment; errors never show it; without a cluster key only
// loopback servers are accepted.
func TestParseEndpoints(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	parse := func(list string) ([]Endpoint, error) { return Access{Servers: list, Getenv: getenv}.Endpoints() }

	eps, err := parse("127.0.0.1:6379, redis://othello:s3cret@10.0.0.5:6380,rediss://:pw@redis.example:6390,redis://h")
	if err != nil {
		t.Fatal(err)
	}
	want := []Endpoint{{Addr: "127.0.0.1:6379"}, {Addr: "10.0.0.5:6380", Username: "othello", Password: "s3cret"}, {Addr: "redis.example:6390", Password: "pw"}, {Addr: "h:6379"}}
	for i, w := range want {
		e := eps[i]
		if e.Addr != w.Addr || e.Username != w.Username || e.Password != w.Password || (e.TLS != nil) != (i == 2) {
			t.Errorf("%d: %+v, want %+v", i, e, w)
		}
		if strings.Contains(e.String(), "s3cret") || strings.Contains(e.String(), "pw") {
			t.Errorf("%d: String %q shows the password", i, e.String())
		}
	}
	if eps[2].TLS.ServerName != "redis.example" {
		t.Errorf("TLS server name %q", eps[2].TLS.ServerName)
	}

	env[RedisCLIAuth] = "fromcli"
	if eps, _ = parse("127.0.0.1:1,redis://u:own@127.0.0.1:2"); eps[0].Password != "fromcli" || eps[1].Password != "own" {
		t.Errorf("REDISCLI_AUTH: %+v", eps)
	}
	env[PasswordEnv], env[UserEnv] = "fromenv", "othello"
	if eps, _ = parse("127.0.0.1:1"); eps[0].Password != "fromenv" || eps[0].Username != "othello" {
		t.Errorf("%s: %+v", PasswordEnv, eps)
	}

	for _, bad := range []string{"", "noport", "http://h:1", "redis://:s3cret@h:1/3", "redis://:s3cret@h:1?dial_timeout=1s", "redis://:s3cret@h:notaport", "unix:///tmp/r.sock"} {
		_, err := parse(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
		} else if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: error shows the password: %v", bad, err)
		}
	}
	if _, err := (Access{Servers: "127.0.0.1:1", CAFile: "ca.crt"}).Endpoints(); err == nil || !strings.Contains(err.Error(), "rediss://") {
		t.Errorf("--redis-ca without TLS: %v", err)
	}

	for _, list := range []string{"10.0.0.5:6379", "127.0.0.1:1,redis.example:6379", "rediss://u:p@redis.example:1"} {
		err := Access{Servers: list, Getenv: getenv}.Check()
		if err == nil || !strings.Contains(err.Error(), "--cluster-key") || strings.Contains(err.Error(), ":p@") {
			t.Errorf("%q without a key: %v", list, err)
		}
	}
	for _, list := range []string{"127.0.0.1:1", "localhost:1", "[::1]:1", "redis://:x@127.0.0.2:1"} {
		if err := (Access{Servers: list, Getenv: getenv}).Check(); err != nil {
			t.Errorf("%q: %v", list, err)
		}
	}
}

// The cluster solves through a server that wants a password, through an ACL user with
// the documented rights only, and over TLS; a wrong password is a clear error that does
// not show it.
func TestSecuredServers(t *testing.T) {
	acl := "othello on >acl-pw ~othello:* ~t:* resetchannels +@all -@dangerous +info"
	servers := []struct {
		name string
		opt  redistest.Options
	}{
		{"requirepass", redistest.Options{Password: "pass-word"}},
		{"ACL user", redistest.Options{ACL: []string{"default off", acl}, User: "othello", Password: "acl-pw"}},
		{"TLS", redistest.Options{TLS: true, Password: "tls-pw"}},
	}
	pr := ffo(t, "1-19")[0]
	best, _ := pr.Best()
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			rs := redistest.StartWith(t, s.opt)
			ep := endpoint(rs)
			tc := newTestCluster(t, ep, []Endpoint{ep}, 1, WorkerOptions{})
			out, err := NewController(tc.q, ControllerOptions{TaskEmpties: 10, Stall: testStall}).Solve(t.Context(), pr.Board.P, pr.Board.O, -64, 64)
			if err != nil || out.Score != best {
				t.Fatalf("score %d, %v; want %d", out.Score, err, best)
			}
			if n, err := TableInfo(t.Context(), []Endpoint{ep}); err != nil || n[0] == 0 {
				t.Errorf("no entry in the global table: %v, %v", n, err)
			}

			bad := ep
			bad.Password = "wrong-secret"
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			_, err = NewRedisQueue(ctx, QueueOptions{Server: bad, Timeout: time.Second})
			if err == nil || !strings.Contains(err.Error(), rs.Addr) || strings.Contains(err.Error(), "wrong-secret") {
				t.Errorf("wrong password: %v", err)
			}
			if s.opt.TLS {
				plain := ep
				plain.TLS = nil
				if _, err := NewRedisQueue(ctx, QueueOptions{Server: plain, Timeout: time.Second}); err == nil {
					t.Errorf("a plain connection to a TLS-only server worked")
				}
				// The URL form with the CA file, as the commands take it.
				eps, err := Access{Servers: "rediss://:tls-pw@" + rs.Addr, CAFile: rs.CAFile}.Endpoints()
				if err != nil {
					t.Fatal(err)
				}
				q, err := NewRedisQueue(ctx, QueueOptions{Server: eps[0]})
				if err != nil {
					t.Fatalf("rediss:// with --redis-ca: %v", err)
				}
				q.Close()
			}
		})
	}
}
