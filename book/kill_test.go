//go:build unix

package book

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// blockingWriter writes n bytes, announces it on stdout, then blocks: a process caught in the
// middle of writing its book.
type blockingWriter struct {
	w io.Writer
	n int
}

func (b *blockingWriter) Write(p []byte) (int, error) {
	if len(p) > b.n {
		b.w.Write(p[:b.n])
		os.Stdout.WriteString("half written\n")
		time.Sleep(time.Hour) // wait to be killed
	}
	b.n -= len(p)
	return b.w.Write(p)
}

// TestKillDuringSave runs a child process that starts saving a big book over a small one and
// kills it with SIGKILL halfway through the write: the small book must still load intact.
func TestKillDuringSave(t *testing.T) {
	if path := os.Getenv("GOTHELLO_BOOK_KILL_CHILD"); path != "" {
		big, _ := buildFull(t, 3, 1)
		data := big.Encode()
		writeAtomic(path, data, func(w io.Writer) io.Writer { return &blockingWriter{w: w, n: len(data) / 2} })
		t.Fatal("the child's write finished; it should have been killed")
	}
	small, _ := buildFull(t, 1, 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "b.book")
	if err := small.Save(path); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestKillDuringSave$")
	cmd.Env = append(os.Environ(), "GOTHELLO_BOOK_KILL_CHILD="+path)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "half written\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q", line)
	}
	cmd.Process.Kill()
	cmd.Wait()
	got, err := Load(path)
	if err != nil || !bytes.Equal(got.Encode(), small.Encode()) {
		t.Fatalf("after a kill mid-write the previous book is gone: %v", err)
	}
	// The half-written temporary file is left behind, and harms nothing; the next save works.
	if entries := bookDirFiles(t, dir); len(entries) != 2 {
		t.Errorf("files %v, want the book and the killed writer's temporary file", entries)
	}
	if err := small.Save(path); err != nil {
		t.Fatal(err)
	}
}
