package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFileContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.gtw")
	for _, content := range []string{"first version", "", "a second, longer version of the file"} {
		if err := WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := readString(t, path); got != content {
			t.Fatalf("content %q, want %q", got, content)
		}
		if n := names(t, dir); !slices.Equal(n, []string{"w.gtw"}) {
			t.Fatalf("directory holds %q, want the file alone", n)
		}
	}
	// A relative path in the working directory.
	t.Chdir(dir)
	if err := WriteFile("rel", []byte("x"), 0o644); err != nil || readString(t, filepath.Join(dir, "rel")) != "x" {
		t.Fatalf("relative path: %v", err)
	}
}

// A new file reading before the write sees the old content whole: the new one is a new file,
// not the old one overwritten in place (os.WriteFile truncates it first).
func TestOpenReaderKeepsOldContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(r); string(b) != "old content" {
		t.Fatalf("a reader that opened the file before the write read %q", b)
	}
}

func TestPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	dir := t.TempDir()
	// An existing file keeps its bits, even those the umask would clear on a new file.
	for _, mode := range []fs.FileMode{0o600, 0o640, 0o666, 0o755} {
		path := filepath.Join(dir, "f"+mode.String())
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != mode {
			t.Errorf("mode %v became %v", mode, fi.Mode().Perm())
		}
	}
	// A new file gets perm less the umask, as os.WriteFile gives it.
	want, got := filepath.Join(dir, "want"), filepath.Join(dir, "got")
	os.WriteFile(want, nil, 0o666)
	if err := WriteFile(got, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(want)
	b, _ := os.Stat(got)
	if a.Mode() != b.Mode() {
		t.Errorf("new file mode %v, os.WriteFile gives %v", b.Mode(), a.Mode())
	}
}

func TestSymlinkKept(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "data")
	os.Mkdir(sub, 0o755)
	real := filepath.Join(sub, "weights-v2.gtw")
	if err := os.WriteFile(real, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	// current -> data/weights-v2.gtw (relative), latest -> current (absolute): a chain.
	current, latest := filepath.Join(dir, "current"), filepath.Join(dir, "latest")
	if err := os.Symlink(filepath.Join("data", "weights-v2.gtw"), current); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(current, latest); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(latest, []byte("v2"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{current, latest} {
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symbolic link", link)
		}
	}
	if got := readString(t, real); got != "v2" {
		t.Fatalf("the link's target holds %q, want v2", got)
	}
	if n := names(t, sub); !slices.Equal(n, []string{"weights-v2.gtw"}) {
		t.Fatalf("target directory holds %q", n)
	}
	// A dangling link gets its target created.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(sub, "new.gtw"), dangling)
	if err := WriteFile(dangling, []byte("n"), 0o644); err != nil || readString(t, filepath.Join(sub, "new.gtw")) != "n" {
		t.Fatalf("dangling link: %v", err)
	}
	// A loop is an error, not a hang.
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink(b, a)
	os.Symlink(a, b)
	if err := WriteFile(a, nil, 0o644); err == nil {
		t.Fatal("a symbolic link loop was written through")
	}
}

// halfWriter passes n bytes through, then fails: a disk that fills up.
type halfWriter struct {
	w io.Writer
	n int
}

var errDiskFull = errors.New("simulated: no space left on device")

func (h *halfWriter) Write(p []byte) (int, error) {
	if len(p) > h.n {
		k, _ := h.w.Write(p[:h.n])
		h.n = 0
		return k, errDiskFull
	}
	h.n -= len(p)
	return h.w.Write(p)
}

func TestFailedWriteKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	old := bytes.Repeat([]byte("old "), 1000)
	if err := WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("new "), 5000)
	err := Write(path, 0o644, func(w io.Writer) error {
		_, err := io.Copy(&halfWriter{w: w, n: len(data) / 2}, bytes.NewReader(data))
		return err
	})
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("error %v, want the writer's", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
		t.Fatalf("after a failed write the file holds %d bytes, want the old %d", len(got), len(old))
	}
	if n := names(t, dir); !slices.Equal(n, []string{"f"}) {
		t.Fatalf("temporary file left behind: %q", n)
	}
	// A directory that cannot be written: an error, the file untouched.
	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		os.Chmod(dir, 0o555)
		defer os.Chmod(dir, 0o755)
		if err := WriteFile(path, data, 0o644); err == nil {
			t.Fatal("write into a read-only directory succeeded")
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
			t.Fatal("a refused write changed the file")
		}
	}
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.book")
	stale := []string{".b.book.tmp-123456789", ".b.book.tmp-0123456789abcdef"}
	kept := []string{".b.book.tmp-x.tmp-1", ".b.book.tmpfile", "b.book.tmp-1", ".c.book.tmp-1", ".b.book.tmp-"}
	for _, n := range append(slices.Clone(stale), kept...) {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(path, []byte("book"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(kept), "b.book")
	slices.Sort(want)
	if n := names(t, dir); !slices.Equal(n, want) {
		t.Fatalf("directory holds %q, want %q", n, want)
	}
	// On its own, and through a symbolic link: the temporaries are beside the link's target.
	os.WriteFile(filepath.Join(dir, stale[0]), nil, 0o644)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(path, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := RemoveStale(link); err != nil {
		t.Fatal(err)
	}
	if n := names(t, dir); !slices.Equal(n, want) {
		t.Fatalf("directory holds %q, want %q", n, want)
	}
}

// CheckWritable accepts a new file and an existing read-only one in a writable directory,
// and refuses a directory and a missing directory, leaving nothing behind.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.txt")
	os.WriteFile(ro, []byte("x"), 0o444)
	for _, ok := range []string{filepath.Join(dir, "new.txt"), ro} {
		if err := CheckWritable(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	if err := CheckWritable(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
	missing := filepath.Join(dir, "no", "such")
	if err := CheckWritable(filepath.Join(missing, "f")); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing directory: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files left, want the read-only one", len(entries))
	}
}
