//go:build unix

package atomicfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// child starts this test binary running only the test named, with env set; it skips the
// test when the binary cannot be run again.
func child(t *testing.T, name, env string) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, "-test.run=^"+name+"$")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	return cmd, bufio.NewReader(out)
}

// stallingWriter writes n bytes, says so on stdout, then waits to be killed: a process caught
// in the middle of writing the file.
type stallingWriter struct {
	w io.Writer
	n int
}

func (s *stallingWriter) Write(p []byte) (int, error) {
	if len(p) > s.n {
		s.w.Write(p[:s.n])
		os.Stdout.WriteString("half written\n")
		time.Sleep(time.Hour)
	}
	s.n -= len(p)
	return s.w.Write(p)
}

// A writer killed with SIGKILL halfway through leaves the previous content in place; the
// next write removes its temporary file.
func TestKillDuringWrite(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_KILL_CHILD"); path != "" {
		data := bytes.Repeat([]byte("new "), 1<<18)
		Write(path, 0o644, func(w io.Writer) error {
			_, err := io.Copy(&stallingWriter{w: w, n: len(data) / 2}, bytes.NewReader(data))
			return err
		})
		t.Fatal("the write finished; it should have been killed")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	old := []byte("the old content")
	if err := WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, out := child(t, "TestKillDuringWrite", "ATOMICFILE_KILL_CHILD="+path)
	line, _ := out.ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if line != "half written\n" {
		t.Fatalf("child said %q", line)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
		t.Fatalf("after a kill mid-write the file holds %d bytes, want the old %d", len(got), len(old))
	}
	if n := names(t, dir); len(n) != 2 {
		t.Fatalf("directory holds %q, want the file and the killed writer's temporary", n)
	}
	if err := WriteFile(path, []byte("next"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := names(t, dir); len(n) != 1 || readString(t, path) != "next" {
		t.Fatalf("after the next write the directory holds %q", n)
	}
}

// versions are the contents the looping child writes in turn: large enough that a write
// takes many system calls, each recognisable whole.
func versions() [][]byte {
	var vs [][]byte
	for i := range 3 {
		vs = append(vs, bytes.Repeat([]byte(fmt.Sprintf("version %d;", i)), 100_000))
	}
	return vs
}

// Killed at arbitrary moments while it rewrites the file over and over, a writer never
// leaves it partial: it holds one of the versions, whole.
func TestKillAtAnyMoment(t *testing.T) {
	vs := versions()
	if path := os.Getenv("ATOMICFILE_LOOP_CHILD"); path != "" {
		os.Stdout.WriteString("started\n")
		for i := 0; ; i++ {
			if err := WriteFile(path, vs[i%len(vs)], 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	rounds := 20
	if testing.Short() {
		rounds = 5
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteFile(path, vs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	for r := range rounds {
		cmd, out := child(t, "TestKillAtAnyMoment", "ATOMICFILE_LOOP_CHILD="+path)
		out.ReadString('\n')
		time.Sleep(time.Duration(r%7) * 3 * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole := false
		for _, v := range vs {
			whole = whole || bytes.Equal(got, v)
		}
		if !whole {
			t.Fatalf("round %d: the file holds %d bytes starting %q: not one of the versions", r, len(got), got[:min(len(got), 20)])
		}
	}
	for _, n := range names(t, dir) {
		if n != "f" && !strings.HasPrefix(n, ".f.tmp-") {
			t.Errorf("unexpected file %q", n)
		}
	}
}
