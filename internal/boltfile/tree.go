package boltfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
)

// Page layout of bbolt's format version 2, read from the file rather than
// through bbolt's mapping: a damaged page read through the mapping faults
// or panics in whatever goroutine touches it, and bbolt's own walks (its
// cursors, tx.Check) loop forever on a page that points back to its
// ancestor.
const (
	branchFlag      = 0x01
	leafFlag        = 0x02
	freelistFlag    = 0x10
	bucketLeafFlag  = 0x01 // a leaf element that is a nested bucket
	elementSize     = 16   // branch and leaf elements alike
	bucketHeaderLen = 16   // root page ID, sequence
	countOverflow   = 0xFFFF
)

// tree checks what bbolt relies on when it reads and writes the file:
// every page reachable from m's root and its free list in the file, of the
// type its parent expects, referenced once (so no cycle), with every
// element inside its page, keys not empty and in order within the range
// their parent gives them, and no page both used and free. It is what
// bbolt's tx.Check checks, less pages neither used nor free (which only
// waste space), at a fraction of its cost: one read of each page, no
// maps.
type tree struct {
	r        io.ReaderAt
	pageSize uint64
	pages    uint64 // high-water mark
	used     []bool
	free     []uint64
	bufs     [][]byte // one per depth: a parent's page stays while its children are read
	le       binary.ByteOrder
}

func checkTree(r io.ReaderAt, m meta) string {
	t := &tree{r: r, pageSize: m.pageSize, pages: m.pages, used: make([]bool, m.pages), le: binary.NativeEndian}
	t.used[0], t.used[1] = true, true // the two headers
	if m.freelist != noFreelist {
		if err := t.freelist(m.freelist); err != nil {
			return "free list: " + err.Error()
		}
	}
	if err := t.bucket(m.root, "root", 0); err != nil {
		return err.Error()
	}
	isFree := make([]bool, t.pages)
	for _, id := range t.free {
		switch {
		case t.used[id]:
			return fmt.Sprintf("free list: page %d is listed free but is in use", id)
		case isFree[id]:
			return fmt.Sprintf("free list: page %d is listed twice", id)
		}
		isFree[id] = true
	}
	return ""
}

// page reads page id whole, overflow included, after checking that it
// and its overflow are inside the file and not referenced before.
func (t *tree) page(id uint64, want uint16, where string, depth int) ([]byte, error) {
	if id < 2 || id >= t.pages {
		return nil, fmt.Errorf("%s: page %d is outside the file's %d pages", where, id, t.pages)
	}
	for len(t.bufs) <= depth {
		t.bufs = append(t.bufs, make([]byte, t.pageSize))
	}
	p := t.bufs[depth][:t.pageSize]
	if _, err := t.r.ReadAt(p, int64(id*t.pageSize)); err != nil {
		return nil, fmt.Errorf("%s: read page %d: %w", where, id, err)
	}
	if got := t.le.Uint64(p); got != id {
		return nil, fmt.Errorf("%s: page %d calls itself page %d", where, id, got)
	}
	if flags := t.le.Uint16(p[8:]); flags&want == 0 || flags&(flags-1) != 0 {
		return nil, fmt.Errorf("%s: page %d has type %#x, not %#x", where, id, flags, want)
	}
	overflow := uint64(t.le.Uint32(p[12:]))
	if overflow >= t.pages-id {
		return nil, fmt.Errorf("%s: page %d runs %d pages past the file's end", where, id, overflow)
	}
	for i := id; i <= id+overflow; i++ {
		if t.used[i] {
			return nil, fmt.Errorf("%s: page %d is referenced twice", where, i)
		}
		t.used[i] = true
	}
	if overflow > 0 {
		size := (overflow + 1) * t.pageSize
		if uint64(cap(t.bufs[depth])) < size {
			t.bufs[depth] = append(t.bufs[depth][:t.pageSize], make([]byte, size-t.pageSize)...)
		}
		p = t.bufs[depth][:size]
		if _, err := t.r.ReadAt(p[t.pageSize:], int64((id+1)*t.pageSize)); err != nil {
			return nil, fmt.Errorf("%s: read page %d: %w", where, id, err)
		}
	}
	return p, nil
}

func (t *tree) freelist(id uint64) error {
	p, err := t.page(id, freelistFlag, "free list", 0)
	if err != nil {
		return err
	}
	n, start := uint64(t.le.Uint16(p[10:])), uint64(pageHeaderSize)
	if n == countOverflow {
		n, start = t.le.Uint64(p[pageHeaderSize:]), pageHeaderSize+8
	}
	if n > (uint64(len(p))-start)/8 {
		return fmt.Errorf("page %d claims %d free pages, more than it holds", id, n)
	}
	t.free = make([]uint64, n)
	for i := range n {
		free := t.le.Uint64(p[start+i*8:])
		if free < 2 || free >= t.pages {
			return fmt.Errorf("page %d lists page %d as free, outside the file's %d pages", id, free, t.pages)
		}
		t.free[i] = free
	}
	return nil
}

// bucket checks the subtree whose root is page id, whose keys must lie in
// [lo, hi) (nil: unbounded).
func (t *tree) bucket(id uint64, name string, depth int, bounds ...[]byte) error {
	p, err := t.page(id, branchFlag|leafFlag, name, depth)
	if err != nil {
		return err
	}
	var lo, hi []byte
	if len(bounds) == 2 {
		lo, hi = bounds[0], bounds[1]
	}
	return t.node(p, id, name, depth, lo, hi)
}

// node checks the elements of page p (a page read from the file, or an
// inline bucket's page inside a value) and what they point to.
func (t *tree) node(p []byte, id uint64, name string, depth int, lo, hi []byte) error {
	flags, n := t.le.Uint16(p[8:]), uint64(t.le.Uint16(p[10:]))
	if n > (uint64(len(p))-pageHeaderSize)/elementSize {
		return fmt.Errorf("%s: page %d claims %d elements, more than it holds", name, id, n)
	}
	if n == 0 && flags&branchFlag != 0 {
		return fmt.Errorf("%s: branch page %d has no elements", name, id)
	}
	keys := make([][]byte, n)
	for i := range n {
		off := pageHeaderSize + i*elementSize
		e := p[off : off+elementSize]
		pos, ksize := uint64(t.le.Uint32(e[4:])), uint64(t.le.Uint32(e[8:]))
		if flags&branchFlag != 0 {
			pos, ksize = uint64(t.le.Uint32(e)), uint64(t.le.Uint32(e[4:]))
		}
		k, err := slice(p, off+pos, ksize)
		switch {
		case err != nil:
			return fmt.Errorf("%s: page %d element %d: key %w", name, id, i, err)
		case len(k) == 0: // bbolt asserts (panics) on it when it next writes the page
			return fmt.Errorf("%s: page %d element %d: key is empty", name, id, i)
		case lo != nil && bytes.Compare(k, lo) < 0, hi != nil && bytes.Compare(k, hi) >= 0,
			i > 0 && bytes.Compare(keys[i-1], k) >= 0:
			return fmt.Errorf("%s: page %d element %d: key %x is out of order", name, id, i, k)
		}
		keys[i] = k
		if flags&leafFlag == 0 {
			continue
		}
		v, err := slice(p, off+pos+ksize, uint64(t.le.Uint32(e[12:])))
		if err != nil {
			return fmt.Errorf("%s: page %d element %d: value %w", name, id, i, err)
		}
		if t.le.Uint32(e)&bucketLeafFlag != 0 {
			if err := t.nested(v, fmt.Sprintf("%s/%q", name, k), depth+1); err != nil {
				return err
			}
		}
	}
	if flags&branchFlag != 0 {
		for i := range n {
			child, next := p[pageHeaderSize+i*elementSize+8:], hi
			if i+1 < n {
				next = keys[i+1]
			}
			if err := t.bucket(t.le.Uint64(child), name, depth+1, keys[i], next); err != nil {
				return err
			}
		}
	}
	return nil
}

// nested checks a bucket stored in a leaf value: its own pages, or, when
// small, a page inline after its header.
func (t *tree) nested(v []byte, name string, depth int) error {
	if len(v) < bucketHeaderLen {
		return fmt.Errorf("%s: bucket header is %d bytes, short of %d", name, len(v), bucketHeaderLen)
	}
	if root := t.le.Uint64(v); root != 0 {
		return t.bucket(root, name, depth)
	}
	inline := v[bucketHeaderLen:]
	if len(inline) < pageHeaderSize || t.le.Uint16(inline[8:]) != leafFlag {
		return fmt.Errorf("%s: inline bucket is not a leaf page", name)
	}
	return t.node(inline, 0, name, depth, nil, nil)
}

// slice is p[off:off+n], or an error when that is outside p.
func slice(p []byte, off, n uint64) ([]byte, error) {
	if off > uint64(len(p)) || n > uint64(len(p))-off {
		return nil, fmt.Errorf("at %d+%d lies outside its %d-byte page", off, n, len(p))
	}
	return p[off : off+n], nil
}
