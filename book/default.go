package book

import (
	_ "embed"
	"fmt"
)

// defaultBook is the book compiled into the binary (see README, "Opening book", for how it
// was built).
//
//go:embed default.book
var defaultBook []byte

// Default returns a fresh copy of the embedded default book.
func Default() (*Book, error) {
	bk, err := Decode(defaultBook)
	if err != nil {
		return nil, fmt.Errorf("embedded book: %w", err)
	}
	return bk, nil
}

// Open returns the book a front end should use: none when path is "-" or "none", the
// embedded default when path is empty or "default", else the file at path. A book that cannot be read is
// reported with the error, and the caller plays without a book (a nil *Book is an empty book
// for Lookup and Choose).
func Open(path string) (*Book, error) {
	switch path {
	case "-", "none":
		return nil, nil
	case "", "default":
		return Default()
	}
	return Load(path)
}
