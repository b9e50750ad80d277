//go:build unix

package book

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/othellogo/othello/board"
)

// TestTwoProcessesLearn runs two child processes that each read the same book, learn a
// different game and, once both have read it, save: the file keeps both games.
func TestTwoProcessesLearn(t *testing.T) {
	if path := os.Getenv("GOTHELLO_BOOK_LEARN_CHILD"); path != "" {
		i, _ := strconv.Atoi(os.Getenv("GOTHELLO_BOOK_LEARN_GAME"))
		bk, err := LoadOrNew(path)
		if err != nil {
			t.Fatal(err)
		}
		moves, _, _ := board.ParseTranscript(learnLines[i])
		if _, _, err := bk.Learn(context.Background(), &fakeSearcher{}, Game{Start: board.Start(), Moves: moves}, 60, Options{Depth: 1}); err != nil {
			t.Fatal(err)
		}
		fmt.Println("learned")
		bufio.NewReader(os.Stdin).ReadString('\n') // wait until the other has learned too
		if err := bk.Save(path); err != nil {
			t.Fatal(err)
		}
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(t.TempDir(), "b.book")
	var children []*exec.Cmd
	var gos []interface{ Close() error }
	for i := range 2 {
		cmd := exec.Command(exe, "-test.run=^TestTwoProcessesLearn$")
		cmd.Env = append(os.Environ(), "GOTHELLO_BOOK_LEARN_CHILD="+path, "GOTHELLO_BOOK_LEARN_GAME="+strconv.Itoa(i))
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		if line, _ := bufio.NewReader(out).ReadString('\n'); line != "learned\n" {
			cmd.Process.Kill()
			t.Fatalf("child %d said %q", i, line)
		}
		children = append(children, cmd)
		gos = append(gos, in)
	}
	for _, in := range gos {
		in.Close() // both save now
	}
	for i, cmd := range children {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v", i, err)
		}
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range learnLines[:2] {
		_, b, _ := board.ParseTranscript(line)
		if _, ok := got.Lookup(b); !ok {
			t.Errorf("the game %s learned by one process is not in the book", line)
		}
	}
}
