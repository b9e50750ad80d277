package cluster

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"os"
	"sync"
)

// Key is the cluster's shared secret: every task, result and global table entry written to
// Redis carries a MAC made with it (HMAC-SHA256 truncated to macLen bytes), and whatever
// is read without a valid one is dropped. A party that holds the key is trusted; one that
// can only reach Redis can delete or replay what it finds, not forge (docs/distributed.md).
type Key struct {
	pool sync.Pool // of hash.Hash keyed with the secret
}

// macLen is the MAC's length: 128 bits, as HMAC-SHA256 truncated in TLS and IPsec.
const macLen = 16

// minKeyLen is the shortest secret accepted.
const minKeyLen = 16

// The MACs' domains, so that a MAC of one kind of message is never valid for another.
const (
	macTask   = 't'
	macResult = 'r'
	macLower  = 'l'
	macUpper  = 'u'
)

// NewKey makes a key of the secret.
func NewKey(secret []byte) *Key {
	s := bytes.Clone(secret)
	return &Key{pool: sync.Pool{New: func() any { return hmac.New(sha256.New, s) }}}
}

// ReadKey reads the secret from a file: its content without the surrounding white space,
// at least minKeyLen bytes (e.g. "head -c 32 /dev/urandom | base64 > cluster.key").
func ReadKey(path string) (*Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--cluster-key: %w", err)
	}
	b = bytes.TrimSpace(b)
	if len(b) < minKeyLen {
		return nil, fmt.Errorf("--cluster-key %s: %d bytes, want at least %d (e.g. head -c 32 /dev/urandom | base64 > %s)", path, len(b), minKeyLen, path)
	}
	return NewKey(b), nil
}

// mac appends to dst the MAC of the domain byte and the parts.
func (k *Key) mac(dst []byte, domain byte, parts ...[]byte) []byte {
	h := k.pool.Get().(hash.Hash)
	h.Reset()
	h.Write([]byte{domain})
	for _, p := range parts {
		h.Write(p)
	}
	var sum [sha256.Size]byte
	out := append(dst, h.Sum(sum[:0])[:macLen]...)
	k.pool.Put(h)
	return out
}

// verify reports whether m is the MAC of the domain byte and the parts.
func (k *Key) verify(m []byte, domain byte, parts ...[]byte) bool {
	var buf [macLen]byte
	return len(m) == macLen && hmac.Equal(m, k.mac(buf[:0], domain, parts...))
}
