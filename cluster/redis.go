package cluster

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis databases: the global table lives in its own database so that a measurement can
// empty it (FLUSHDB) without touching the task queue.
const (
	queueDB = 0
	tableDB = 1
)

// delayHook adds a fixed delay to every round trip (a command or a pipeline, and a dial),
// to show on one machine what a network's latency costs: the sleep does not use the CPU,
// as the wait for a remote server would not.
type delayHook struct{ d time.Duration }

func (h delayHook) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		pause(h.d)
		return next(ctx, network, addr)
	}
}

func (h delayHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		pause(h.d)
		return next(ctx, cmd)
	}
}

func (h delayHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		pause(h.d)
		return next(ctx, cmds)
	}
}

// newClient connects to one Redis server. timeout bounds each command's reads and writes
// and the dial; retries is how many times a failed command is tried again (-1: never).
func newClient(e Endpoint, db int, timeout time.Duration, retries int, delay time.Duration) *redis.Client {
	var tc *tls.Config
	if e.TLS != nil {
		tc = e.TLS.Clone()
	}
	c := redis.NewClient(&redis.Options{
		Addr:            e.Addr,
		Username:        e.Username,
		Password:        e.Password,
		TLSConfig:       tc,
		DB:              db,
		Protocol:        2,
		DialTimeout:     timeout,
		ReadTimeout:     timeout,
		WriteTimeout:    timeout,
		PoolTimeout:     timeout,
		MaxRetries:      retries,
		MinRetryBackoff: 20 * time.Millisecond,
		MaxRetryBackoff: 500 * time.Millisecond,
		DialerRetries:   1,
		PoolSize:        16,
	})
	if delay > 0 {
		c.AddHook(delayHook{delay})
	}
	return c
}

// FlushTable empties the global table on every server (a measurement's fresh start); the
// task queue stays.
func FlushTable(ctx context.Context, addrs []Endpoint) error {
	for _, a := range addrs {
		c := newClient(a, tableDB, 5*time.Second, 1, 0)
		err := c.FlushDB(ctx).Err()
		c.Close()
		if err != nil {
			return fmt.Errorf("redis %s: %w", a, err)
		}
	}
	return nil
}

// TableInfo returns the number of positions in the global table on each server.
func TableInfo(ctx context.Context, addrs []Endpoint) ([]int64, error) {
	out := make([]int64, len(addrs))
	for i, a := range addrs {
		c := newClient(a, tableDB, 5*time.Second, 1, 0)
		n, err := c.DBSize(ctx).Result()
		c.Close()
		if err != nil {
			return nil, fmt.Errorf("redis %s: %w", a, err)
		}
		out[i] = n
	}
	return out, nil
}

type noClientLog struct{}

func (noClientLog) Printf(context.Context, string, ...any) {}

// SilenceClientLog stops the Redis client's own log lines on stderr (each failed dial):
// the commands report the failures themselves, once, as errors.
func SilenceClientLog() { redis.SetLogger(noClientLog{}) }
