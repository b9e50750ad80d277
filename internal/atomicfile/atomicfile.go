// Package atomicfile replaces a file's content atomically: after a crash, a kill or a failed
// write at any moment the file holds either its old content or the new, never a mix or a
// truncated file. That is its one job.
//
// The new content goes to a temporary file in the target's directory, named ".NAME.tmp-<random>"
// so that it is hidden and easy to recognise; it is written, synced to disk, and renamed over the
// target, which is atomic on POSIX file systems; then the directory is synced so that the rename itself survives a power cut. A symbolic link is
// kept: the file it points to gets the new content. A writer killed before its rename leaves its
// temporary file behind; the next write of the same target removes it (RemoveStale).
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// WriteFile writes data to path atomically. A new file gets the permission bits perm (less the
// umask, as with os.WriteFile); an existing one keeps its own.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// Write is WriteFile for content produced by a function: write gets the temporary file's
// writer, and an error from it (or from any later step) leaves the target untouched and the
// temporary file removed.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	// Temporaries of a killed writer would otherwise pile up; one that cannot be removed
	// harms nothing.
	_ = RemoveStale(target)
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	keep := false
	if fi, err := os.Stat(target); err == nil {
		perm, keep = fi.Mode().Perm(), true
	}
	tmp, err := createTemp(dir, base, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if keep {
		// The umask applied at creation must not narrow the target's own permissions.
		if err = tmp.Chmod(perm); err != nil {
			return err
		}
	}
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// tmpPrefix is the start of the names of target's temporary files.
func tmpPrefix(base string) string { return "." + base + ".tmp-" }

// isTemp reports whether name is one of base's temporary files: the prefix, then letters and
// digits only (this package writes hex digits, os.CreateTemp decimal ones), so that the
// temporaries of another target such as "NAME.tmp-x" are not taken for base's.
func isTemp(name, base string) bool {
	rest, ok := strings.CutPrefix(name, tmpPrefix(base))
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// createTemp creates a new temporary file for base in dir. os.CreateTemp would do, but it
// always creates the file with mode 0600; opening it here with perm lets the umask apply to a
// new target as it does for os.WriteFile.
func createTemp(dir, base string, perm fs.FileMode) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, fmt.Sprintf("%s%016x", tmpPrefix(base), rand.Uint64()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 100 {
			return f, err
		}
	}
}

// syncDir makes a rename in dir durable. Not every system can sync a directory (Windows
// cannot open one for it), and the rename has happened either way, so a failure is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// maxLinks bounds the symbolic links followed, as the kernel's ELOOP limit does.
const maxLinks = 40

// resolve follows path through symbolic links to the file that holds the content, which
// need not exist yet (a dangling link gets its target created).
func resolve(path string) (string, error) {
	for i := 0; i < maxLinks; i++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", &fs.PathError{Op: "write", Path: path, Err: errors.New("too many levels of symbolic links")}
}

// RemoveStale removes the temporary files of path left by writers that were killed before
// they could rename them. Write calls it first; it is exported for a program that wants to
// tidy up at start-up. Two processes writing the same file at once do not corrupt it, but
// one may remove the other's temporary file and make that write fail.
func RemoveStale(path string) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.Type().IsRegular() && isTemp(e.Name(), base) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// CheckWritable reports whether Write could replace path, for a program to refuse an output
// before its work rather than after: path must not be a directory, and its directory must
// take a new file (one is created and removed again). The file itself need not be writable:
// Write replaces it.
func CheckWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("it is a directory")
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".othello-write-check-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("directory %s: %v", dir, pe.Err)
		}
		return err
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
