package rawio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
)

func TestPipeRoundTrip(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// More than a pipe holds, so the writer must wait in the poller for
	// the reader.
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	receive(t, r, want, func() error {
		n, err := Writer(w).Write(want)
		if err == nil && n != len(want) {
			err = io.ErrShortWrite
		}
		w.Close()
		return err
	})
}

// receive reads r to its end while send writes the other end and closes
// it, and checks that what arrived is want.
func receive(t *testing.T, r io.Reader, want []byte, send func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- send() }()
	got, err := io.ReadAll(Reader(r))
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("write: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, want the %d written", len(got), len(want))
	}
}

func TestAfterKeepsBufferedBytes(t *testing.T) {
	a, b := socketPair(t)
	go func() {
		io.WriteString(b, "GET / HTTP/1.1\r\n\r\nframe one|frame two|")
		b.Close()
	}()
	br := bufio.NewReader(a)
	line, err := br.ReadString('\n')
	if err != nil || line != "GET / HTTP/1.1\r\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	rest, err := io.ReadAll(After(br, a))
	if err != nil {
		t.Fatalf("read the rest: %v", err)
	}
	if got, want := string(rest), "\r\nframe one|frame two|"; got != want {
		t.Fatalf("after the first line read %q, want %q", got, want)
	}
}

func TestClosedConnErrors(t *testing.T) {
	a, _ := socketPair(t)
	r := Reader(a)
	a.Close()
	if _, err := r.Read(make([]byte, 8)); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("read of a closed conn: %v, want an error other than EOF", err)
	}
	if _, err := Writer(a).Write([]byte("x")); err == nil {
		t.Fatal("write to a closed conn succeeded")
	}
}

func TestPeerGoneIsEOF(t *testing.T) {
	a, b := socketPair(t)
	b.Close()
	if _, err := Reader(a).Read(make([]byte, 8)); !errors.Is(err, io.EOF) {
		t.Fatalf("read after the peer closed: %v, want EOF", err)
	}
}

func socketPair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	dir := t.TempDir()
	l, err := net.Listen("unix", dir+"/s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		accepted <- c
	}()
	a, err := net.Dial("unix", dir+"/s")
	if err != nil {
		t.Fatal(err)
	}
	b := <-accepted
	if b == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}
