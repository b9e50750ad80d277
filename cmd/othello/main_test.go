package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs the binary's entry point in-process and returns exit code, stdout and stderr.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestHelpAndUnknown(t *testing.T) {
	code, out, _ := runCmd(t, "", "help")
	if code != 0 || !strings.Contains(out, "perft") {
		t.Errorf("help: code %d, output %q", code, out)
	}
	code, _, errOut := runCmd(t, "", "frobnicate")
	if code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: code %d, stderr %q", code, errOut)
	}
}

// perft wires board.Perft (its counts are tested there) to the position flags.
func TestPerftCommand(t *testing.T) {
	if code, out, errOut := runCmd(t, "", "perft", "--moves", "f5d6", "6"); code != 0 || !strings.Contains(out, "perft  1              5 leaves") || !strings.Contains(out, "perft  6 ") {
		t.Errorf("perft: code %d, stderr %q\n%s", code, errOut, out)
	}
	for _, bad := range [][]string{{"perft"}, {"perft", "x"}, {"perft", "61"}, {"perft", "--position", "garbage", "3"}, {"perft", "--moves", "f5f5", "3"}} {
		if code, _, errOut := runCmd(t, "", bad...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", bad, code, errOut)
		}
	}
}

// -config reaches the subcommands' flags (internal/flagconfig); its errors are usage errors.
func TestConfigFile(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "othello.toml")
	if err := os.WriteFile(cfg, []byte("[perft]\nmoves = \"f5d6c3\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "-config", cfg, "perft", "1")
	if code != 0 || !strings.Contains(out, "empties 57") {
		t.Errorf("config defaults not applied: code %d, stderr %q\n%s", code, errOut, out)
	}
	os.WriteFile(cfg, []byte("[perft]\nmovez = 1\n"), 0o644)
	if code, _, errOut = runCmd(t, "", "-config", cfg, "perft", "1"); code != 2 || !strings.Contains(errOut, "unknown option \"movez\"") {
		t.Errorf("unknown config key: code %d, stderr %q", code, errOut)
	}
}
