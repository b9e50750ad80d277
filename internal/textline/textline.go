// Package textline turns the errors of line-by-line readers (bufio.Scanner) into messages
// for people: a line too long for the scanner's buffer is named by its number and its limit,
// not reported as "bufio.Scanner: token too long".
package textline

import (
	"bufio"
	"errors"
	"fmt"
)

// Err is the error of a scanner that stopped after line lines (the next one failed) with a
// buffer of at most max bytes, what names what each line should hold ("a transcript").
func Err(err error, line, max int, what string) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("line %d is longer than %d bytes: not %s", line+1, max, what)
	}
	return err
}
