package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Endpoint is one Redis server and how to reach it: its address, the ACL user and password
// (none: the default user without a password), and TLS (nil: plain TCP). Its String never
// shows the password.
type Endpoint struct {
	Addr               string // host:port
	Username, Password string
	TLS                *tls.Config
}

func (e Endpoint) String() string {
	if e.TLS != nil {
		return "rediss://" + e.Addr
	}
	return e.Addr
}

// Loopback reports whether the server is on this machine (localhost or a loopback IP).
func (e Endpoint) Loopback() bool {
	host, _, err := net.SplitHostPort(e.Addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// The environment variables that give the password (and user) when the --redis address
// does not, so that it is not on a command line; REDISCLI_AUTH is redis-cli's.
const (
	PasswordEnv    = "OTHELLO_REDIS_PASSWORD"
	RedisCLIAuth   = "REDISCLI_AUTH"
	UserEnv        = "OTHELLO_REDIS_USER"
	loopbackAdvice = "a cluster on a network needs --cluster-key FILE, and Redis with a password or an ACL user, ideally TLS (docs/distributed.md)"
)

// Access is what the commands are told about the cluster: the Redis servers
// (comma-separated, each host:port or a redis:// or rediss:// URL with user and password;
// the first carries the task queue), the TLS files (a CA to trust, a client certificate
// and key), and the cluster key's file (ClusterKeyFile; "": no key, loopback servers only).
// Getenv reads the environment (nil: os.Getenv).
type Access struct {
	Servers                       string
	CAFile, CertFile, CertKeyFile string
	ClusterKeyFile                string
	Getenv                        func(string) string
}

// Cluster is an Access resolved: the servers and the cluster key (nil: none).
type Cluster struct {
	Servers []Endpoint
	Key     *Key
}

// Resolve parses the servers, loads the TLS files and the cluster key, and refuses, without
// a key, a server that is not on a loopback address.
func (a Access) Resolve() (Cluster, error) {
	eps, err := a.Endpoints()
	if err != nil {
		return Cluster{}, err
	}
	var key *Key
	if a.ClusterKeyFile != "" {
		if key, err = ReadKey(a.ClusterKeyFile); err != nil {
			return Cluster{}, err
		}
	} else {
		for _, e := range eps {
			if !e.Loopback() {
				return Cluster{}, fmt.Errorf("redis %s is not a loopback address and there is no --cluster-key: %s", e, loopbackAdvice)
			}
		}
	}
	return Cluster{Servers: eps, Key: key}, nil
}

// Check is Resolve for a usage check: it reports only the error.
func (a Access) Check() error {
	_, err := a.Resolve()
	return err
}

// Endpoints parses the list of servers, with the password (and user) from the environment
// when an address gives none, and the TLS files for the rediss:// ones.
func (a Access) Endpoints() ([]Endpoint, error) {
	getenv := a.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	tlsFiles := a.CAFile != "" || a.CertFile != "" || a.CertKeyFile != ""
	if (a.CertFile == "") != (a.CertKeyFile == "") {
		return nil, errors.New("--redis-cert and --redis-key go together")
	}
	var out []Endpoint
	for _, s := range strings.Split(a.Servers, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		e, err := parseEndpoint(s)
		if err != nil {
			return nil, err
		}
		if e.Password == "" {
			e.Password = getenv(PasswordEnv)
			if e.Password == "" {
				e.Password = getenv(RedisCLIAuth)
			}
		}
		if e.Username == "" {
			e.Username = getenv(UserEnv)
		}
		if e.TLS != nil {
			if err := a.loadTLS(e.TLS); err != nil {
				return nil, err
			}
		} else if tlsFiles {
			return nil, fmt.Errorf("redis %s: --redis-ca, --redis-cert and --redis-key are for TLS, give a rediss:// URL", e)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errors.New("no redis address")
	}
	return out, nil
}

// ParseAddrs parses a list of servers without TLS files, the password from the
// environment when an address has none.
func ParseAddrs(list string) ([]Endpoint, error) { return Access{Servers: list}.Endpoints() }

// parseEndpoint reads host:port or a redis:// or rediss:// URL. Its errors show the URL with
// the password redacted.
func parseEndpoint(s string) (Endpoint, error) {
	if !strings.Contains(s, "://") {
		if _, _, err := net.SplitHostPort(s); err != nil {
			return Endpoint{}, fmt.Errorf("redis address %q: want host:port or a redis:// or rediss:// URL", s)
		}
		return Endpoint{Addr: s}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return Endpoint{}, fmt.Errorf("redis URL: cannot parse it (want redis://[user:password@]host:port or rediss://...)")
	}
	shown := u.Redacted()
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return Endpoint{}, fmt.Errorf("redis URL %s: want redis:// or rediss://", shown)
	}
	if u.RawQuery != "" {
		return Endpoint{}, fmt.Errorf("redis URL %s: no options after '?': the commands set their own timeouts", shown)
	}
	o, err := redis.ParseURL(s)
	if err != nil {
		return Endpoint{}, fmt.Errorf("redis URL %s: %v", shown, strings.ReplaceAll(err.Error(), u.String(), shown))
	}
	if o.DB != 0 {
		return Endpoint{}, fmt.Errorf("redis URL %s: no database number: the cluster uses databases %d and %d of each server", shown, queueDB, tableDB)
	}
	return Endpoint{Addr: o.Addr, Username: o.Username, Password: o.Password, TLS: o.TLSConfig}, nil
}

func (a Access) loadTLS(c *tls.Config) error {
	if a.CAFile != "" {
		pem, err := os.ReadFile(a.CAFile)
		if err != nil {
			return fmt.Errorf("--redis-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("--redis-ca %s: no PEM certificate in it", a.CAFile)
		}
		c.RootCAs = pool
	}
	if a.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(a.CertFile, a.CertKeyFile)
		if err != nil {
			return fmt.Errorf("--redis-cert/--redis-key: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return nil
}
