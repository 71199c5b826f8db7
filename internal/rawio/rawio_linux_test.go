package rawio

import (
	"bytes"
	"io"
	"os"
	"testing"
)

func TestRawPathOnlyForNonblocking(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, ok := Reader(r).(*file); !ok {
		t.Errorf("Reader(os.Pipe's read end) = %T, want the raw path", Reader(r))
	}
	// A blocking descriptor keeps the scheduler's bookkeeping.
	fd, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	if got := Reader(fd); got != io.Reader(fd) {
		t.Errorf("Reader(%s) = %T, want the file itself", os.DevNull, got)
	}
	if got := Writer(&bytes.Buffer{}); got == nil {
		t.Error("Writer of a non-descriptor returned nil")
	}
	if _, ok := Writer(&bytes.Buffer{}).(*bytes.Buffer); !ok {
		t.Error("Writer of a bytes.Buffer is not the buffer itself")
	}
}
