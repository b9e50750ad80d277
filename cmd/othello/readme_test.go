package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeOutputFlags are the options whose file an example writes (or, for the book, creates
// when absent): a later example may read it.
var readmeOutputFlags = map[string]bool{
	"-o": true, "-ggf": true, "-store": true, "-out": true, "--all-moves": true, "-all-moves": true, "-errors": true, "-plot": true, "-log": true,
	"-cpuprofile": true, "--cpuprofile": true, "-exact-cache": true, "-fit-bias": true, "--book": true, "-book": true,
}

var (
	readmeQuoted   = regexp.MustCompile(`'[^']*'|"[^"]*"`)
	readmeDataFile = regexp.MustCompile(`\.(txt|wtb|obf|ggf|gtw|book)$`)
)

// readmeInputs returns the files the README's example command lines (indented code lines
// running othello or go) read: repository paths (with a slash), and plain file names not
// written by an earlier example, which a fresh clone would lack.
func readmeInputs(readme string) (paths []string, missing []string) {
	written := map[string]bool{}
	for _, line := range strings.Split(readme, "\n") {
		if !strings.HasPrefix(line, "    ") {
			continue
		}
		line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i] // a comment after the command
		}
		words := strings.Fields(readmeQuoted.ReplaceAllString(line, `""`))
		if len(words) == 0 || words[0] != "othello" && words[0] != "go" {
			continue
		}
		for i := 1; i < len(words); i++ {
			w := words[i]
			if readmeOutputFlags[w] && i+1 < len(words) {
				written[words[i+1]] = true
				i++
				continue
			}
			switch {
			case strings.HasPrefix(w, "-") || strings.Contains(w, "://") || strings.Contains(w, "..."):
			case strings.Contains(w, "/"):
				paths = append(paths, w)
			case readmeDataFile.MatchString(w) && !written[w]:
				missing = append(missing, w)
			}
		}
	}
	return paths, missing
}

// Every file the README's examples read is in the repository, so that they run on a fresh
// clone: no file of other projects that is not shipped.
func TestReadmeExampleFiles(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths, missing := readmeInputs(string(data))
	if len(paths) < 5 {
		t.Fatalf("only %d repository paths found in the README's examples: %q", len(paths), paths)
	}
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("the README's examples read %s, which the repository lacks", p)
		}
	}
	for _, f := range missing {
		t.Errorf("the README's examples read %s, which the repository does not ship and no earlier example writes", f)
	}
}

// The test's reader of example lines: paths, plain names, outputs read later, quoted
// strings and comments.
func TestReadmeInputs(t *testing.T) {
	readme := "text othello match -openings x.txt\n" +
		"    othello train -o my.gtw a/b.wtb\n" +
		"    othello mpcfit -eval my.gtw -openings c/d.txt -store my.gtw\n" +
		"    $ printf 'f5 e/f.txt\\n' | othello console\n" +
		"    othello match -b-nboard \"cd n/t && exec ntest x\" -openings xot-large.txt   # uses g/h.txt\n" +
		"    redis-server --dir r/s\n"
	paths, missing := readmeInputs(readme)
	if strings.Join(paths, " ") != "a/b.wtb c/d.txt" || strings.Join(missing, " ") != "xot-large.txt" {
		t.Errorf("paths %q, missing %q", paths, missing)
	}
}
