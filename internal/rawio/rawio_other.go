//go:build !linux

package rawio

import (
	"bufio"
	"io"
)

// Reader returns r: only Linux takes the raw path (see doc.go).
func Reader(r io.Reader) io.Reader { return r }

// Writer returns w: only Linux takes the raw path.
func Writer(w io.Writer) io.Writer { return w }

// After returns br, which holds the buffered bytes and reads the rest of
// c itself.
func After(br *bufio.Reader, c io.Reader) io.Reader { return br }
