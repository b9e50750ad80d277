package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"sync"
)

// Appender is a file that grows by whole records: each Write appends its bytes as one record
// and replaces the file atomically (Write above), so that a kill at any moment leaves the file
// with its old content and the records written before, never a record cut in the middle.
// Rewriting the whole file for each record costs time in the file's size; it suits records
// that come seconds apart, such as the games of a match. Safe for concurrent use.
type Appender struct {
	mu   sync.Mutex
	path string
	perm fs.FileMode
	data []byte
}

// OpenAppender reads the current content of path (none when it does not exist), which every
// later Write keeps and appends to.
func OpenAppender(path string, perm fs.FileMode) (*Appender, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return &Appender{path: path, perm: perm, data: data}, nil
}

// Size is the number of bytes in the file: its old content and the records appended.
func (a *Appender) Size() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.data)
}

// Write appends p as one record. On an error the file keeps what it held before this call.
func (a *Appender) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	next := append(slices.Clip(a.data), p...)
	if err := WriteFile(a.path, next, a.perm); err != nil {
		return 0, err
	}
	a.data = next
	return len(p), nil
}

// SameFile reports whether the two paths name one existing file (through links, or by two
// spellings of one path), for a program to refuse an output that would replace its own input.
// A path that does not exist is the same as no other.
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}
