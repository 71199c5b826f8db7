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

// TryWrite takes what a full pipe has room for and returns instead of
// waiting; the bytes it wrote, then the rest, arrive in order.
func TestTryWriteStopsAtAFullPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, ok := Writer(w).(*file)
	if !ok {
		t.Fatalf("Writer(os.Pipe's write end) = %T, want the raw path", Writer(w))
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // more than a pipe holds
	n, err := f.TryWrite(want)
	if err != nil || n == 0 || n >= len(want) {
		t.Fatalf("TryWrite of %d bytes into an empty pipe = %d, %v; want part of it and no error", len(want), n, err)
	}
	if m, err := f.TryWrite(want[n:]); m != 0 || err != nil {
		t.Fatalf("TryWrite into a full pipe = %d, %v; want 0, nil", m, err)
	}
	receive(t, r, want, func() error {
		_, err := f.Write(want[n:])
		w.Close()
		return err
	})
}
