package cluster

import (
	"context"
	"os/exec"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/othellogo/othello/internal/redistest"
)

// redisServer is a real redis-server on a loopback port (internal/redistest).
type redisServer = redistest.Server

func startRedis(t testing.TB) *redisServer { return redistest.Start(t) }

// endpoint is how the cluster reaches the test server: its address, user, password and TLS.
func endpoint(r *redisServer) Endpoint {
	return Endpoint{Addr: r.Addr, Username: r.User, Password: r.Password, TLS: r.ClientTLS()}
}

func endpoints(rs ...*redisServer) []Endpoint {
	out := make([]Endpoint, len(rs))
	for i, r := range rs {
		out[i] = endpoint(r)
	}
	return out
}

func dieWithParent(cmd *exec.Cmd) { redistest.DieWithParent(cmd) }

func TestRedisHelper(t *testing.T) {
	r := startRedis(t)
	c := redis.NewClient(&redis.Options{Addr: r.Addr, Protocol: 2})
	defer c.Close()
	if err := c.Set(context.Background(), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	r.Restart(t)
	if err := c.Get(context.Background(), "k").Err(); err != redis.Nil {
		t.Fatalf("after a restart without persistence: %v, want no key", err)
	}
}
