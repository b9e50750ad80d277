package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/web"
)

func cmdWeb(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "web")
	ef := addEngineFlags(fs, "web")
	addr := fs.String("addr", web.DefaultAddr, "address to listen on (host:port); other than loopback, anyone who reaches it can use the engine")
	searches := fs.Int("searches", 1, "searches that may run at once for different pages (each has its own -tt tables and -threads)")
	ttl := fs.Duration("session-ttl", 30*time.Minute, "how long a board no page has open is kept")
	setUsage(env, fs, "usage: othello web [options]\n\nServes a board in the browser: play, hints, game analysis. Open the address it prints.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if *searches < 1 || *searches > 16 {
		return exitError{2, fmt.Errorf("-searches %d: want 1-16", *searches)}
	}
	eng, opt, err := ef.engine(env)
	if err != nil {
		return err
	}
	engines := []protocol.Engine{eng}
	for len(engines) < *searches {
		e, _, err := ef.engine(env)
		if err != nil {
			return err
		}
		engines = append(engines, e)
	}
	srv, err := web.New(web.Options{Engines: engines, Front: opt, SessionTTL: *ttl})
	if err != nil {
		return exitError{2, err}
	}
	ln, warning, err := web.Listen(*addr)
	if err != nil {
		return exitError{2, err}
	}
	if warning != "" {
		fmt.Fprintf(env.stderr, "othello web: warning: %s\n", warning)
	}
	shown := ln.Addr().String()
	if a, ok := ln.Addr().(*net.TCPAddr); ok && a.IP.IsUnspecified() {
		shown = fmt.Sprintf("127.0.0.1:%d", a.Port) // every interface: this machine's is one
	}
	fmt.Fprintf(env.stdout, "othello web: open http://%s/\n", shown)
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
