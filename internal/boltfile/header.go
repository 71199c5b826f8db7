package boltfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
)

// bbolt's file format (version 2), which bbolt does not export: each of
// the first two pages holds a page header and then a meta record; the
// valid meta with the higher transaction ID is the current one. bbolt
// writes them in the machine's byte order.
const (
	pageHeaderSize = 16
	metaSize       = 64
	metaSummed     = 56 // the checksum covers the bytes before it
	magic          = 0xED0CDAED
	formatVersion  = 2
	noFreelist     = ^uint64(0)
)

type meta struct {
	pageSize              uint64
	root, freelist, pages uint64 // pages: the high-water mark
	txid                  uint64
}

func parseMeta(b []byte) (meta, bool) {
	le := binary.NativeEndian
	if le.Uint32(b[0:]) != magic || le.Uint32(b[4:]) != formatVersion {
		return meta{}, false
	}
	h := fnv.New64a()
	h.Write(b[:metaSummed])
	if h.Sum64() != le.Uint64(b[metaSummed:]) {
		return meta{}, false
	}
	return meta{pageSize: uint64(le.Uint32(b[8:])), root: le.Uint64(b[16:]), freelist: le.Uint64(b[32:]),
		pages: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}, true
}

// Inspect checks the file's header against its size and the structure of
// every page reachable from it, reading it as a file without mapping it or
// taking its lock, so that it is safe on any file. It returns a
// *DamagedError naming what is wrong, nil for a sound file or no file, or
// the error that kept it from reading. On a file another process is
// writing it may see a half-written state; Open, which holds the lock,
// is the judge that moves files.
func Inspect(path, what string) error {
	reason, err := inspect(path)
	if err != nil {
		return fmt.Errorf("inspect %s %s: %w", what, path, err)
	}
	if reason != "" {
		return &DamagedError{What: what, Path: path, Reason: reason}
	}
	return nil
}

// inspect says what is wrong with the file, or "".
func inspect(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := uint64(fi.Size())
	if size == 0 {
		return "", nil // bbolt writes a new file's header itself
	}
	read := func(off uint64) (meta, bool) {
		buf := make([]byte, metaSize)
		if _, err := f.ReadAt(buf, int64(off+pageHeaderSize)); err != nil {
			return meta{}, false
		}
		return parseMeta(buf)
	}
	m0, ok0 := read(0)
	var m1 meta
	ok1 := false
	if ok0 {
		m1, ok1 = read(m0.pageSize)
	} else {
		// The second header sits one page in; with the first one gone,
		// try the page sizes bbolt may have used.
		for ps := uint64(1024); ps <= 64<<10 && !ok1; ps *= 2 {
			m1, ok1 = read(ps)
		}
	}
	var m meta
	switch {
	case ok0 && ok1:
		m = m0
		if m1.txid > m0.txid {
			m = m1
		}
	case ok0:
		m = m0
	case ok1:
		m = m1
	default:
		return "neither of its two headers (meta pages) is valid", nil
	}
	switch need := m.pages * m.pageSize; {
	case m.pageSize < 1024 || m.pageSize&(m.pageSize-1) != 0:
		return fmt.Sprintf("its header gives an impossible page size %d", m.pageSize), nil
	case size < need:
		return fmt.Sprintf("it is %d bytes, but its header says it holds %d: it was cut short", size, need), nil
	case m.root >= m.pages || m.root < 2:
		return fmt.Sprintf("its header puts the root at page %d, outside its %d pages", m.root, m.pages), nil
	}
	return checkTree(f, m), nil
}
