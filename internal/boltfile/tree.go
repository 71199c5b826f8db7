package boltfile

import (
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

// tree checks the pages reachable from m's root and its free list: each
// in the file, of the type its parent expects, referenced once, with every
// element inside its page. It does not check key order or that free and
// used pages add up; bbolt's tx.Check does that, and once tree passed, it
// can do so without faulting or looping.
type tree struct {
	r        io.ReaderAt
	pageSize uint64
	pages    uint64 // high-water mark
	seen     []bool
	le       binary.ByteOrder
}

func checkTree(r io.ReaderAt, m meta) string {
	t := &tree{r: r, pageSize: m.pageSize, pages: m.pages, seen: make([]bool, m.pages), le: binary.NativeEndian}
	t.seen[0], t.seen[1] = true, true // the two headers
	if m.freelist != noFreelist {
		if err := t.freelist(m.freelist); err != nil {
			return "free list: " + err.Error()
		}
	}
	if err := t.bucket(m.root, "root"); err != nil {
		return err.Error()
	}
	return ""
}

// page reads page id whole, overflow included, after checking that it
// and its overflow are inside the file and not referenced before.
func (t *tree) page(id uint64, want uint16, where string) ([]byte, error) {
	if id < 2 || id >= t.pages {
		return nil, fmt.Errorf("%s: page %d is outside the file's %d pages", where, id, t.pages)
	}
	hdr := make([]byte, pageHeaderSize)
	if _, err := t.r.ReadAt(hdr, int64(id*t.pageSize)); err != nil {
		return nil, fmt.Errorf("%s: read page %d: %w", where, id, err)
	}
	if got := t.le.Uint64(hdr); got != id {
		return nil, fmt.Errorf("%s: page %d calls itself page %d", where, id, got)
	}
	if flags := t.le.Uint16(hdr[8:]); flags&want == 0 {
		return nil, fmt.Errorf("%s: page %d has type %#x, not %#x", where, id, flags, want)
	}
	overflow := uint64(t.le.Uint32(hdr[12:]))
	if overflow >= t.pages-id {
		return nil, fmt.Errorf("%s: page %d runs %d pages past the file's end", where, id, overflow)
	}
	for i := id; i <= id+overflow; i++ {
		if t.seen[i] {
			return nil, fmt.Errorf("%s: page %d is referenced twice", where, i)
		}
		t.seen[i] = true
	}
	p := make([]byte, (overflow+1)*t.pageSize)
	if _, err := t.r.ReadAt(p, int64(id*t.pageSize)); err != nil {
		return nil, fmt.Errorf("%s: read page %d: %w", where, id, err)
	}
	return p, nil
}

func (t *tree) freelist(id uint64) error {
	p, err := t.page(id, freelistFlag, "free list")
	if err != nil {
		return err
	}
	n, start := uint64(t.le.Uint16(p[10:])), uint64(pageHeaderSize)
	if n == countOverflow {
		if len(p) < pageHeaderSize+8 {
			return fmt.Errorf("page %d is too short for its count", id)
		}
		n, start = t.le.Uint64(p[pageHeaderSize:]), pageHeaderSize+8
	}
	if n > (uint64(len(p))-start)/8 {
		return fmt.Errorf("page %d claims %d free pages, more than it holds", id, n)
	}
	for i := range n {
		if free := t.le.Uint64(p[start+i*8:]); free < 2 || free >= t.pages {
			return fmt.Errorf("page %d lists page %d as free, outside the file's %d pages", id, free, t.pages)
		}
	}
	return nil
}

// bucket checks the bucket whose root page is id.
func (t *tree) bucket(id uint64, name string) error {
	p, err := t.page(id, branchFlag|leafFlag, name)
	if err != nil {
		return err
	}
	return t.node(p, id, name)
}

// node checks the elements of page p (a page read from the file, or an
// inline bucket's page inside a value) and what they point to.
func (t *tree) node(p []byte, id uint64, name string) error {
	if len(p) < pageHeaderSize {
		return fmt.Errorf("%s: page %d is shorter than its header", name, id)
	}
	flags, n := t.le.Uint16(p[8:]), uint64(t.le.Uint16(p[10:]))
	if n > (uint64(len(p))-pageHeaderSize)/elementSize {
		return fmt.Errorf("%s: page %d claims %d elements, more than it holds", name, id, n)
	}
	if n == 0 && flags&branchFlag != 0 {
		return fmt.Errorf("%s: branch page %d has no elements", name, id)
	}
	for i := range n {
		off := pageHeaderSize + i*elementSize
		e := p[off : off+elementSize]
		switch {
		case flags&branchFlag != 0:
			pos, ksize := uint64(t.le.Uint32(e)), uint64(t.le.Uint32(e[4:]))
			if err := keyAt(p, off+pos, ksize); err != nil {
				return fmt.Errorf("%s: page %d element %d: key %w", name, id, i, err)
			}
			if err := t.bucket(t.le.Uint64(e[8:]), name); err != nil {
				return err
			}
		case flags&leafFlag != 0:
			eflags, pos := t.le.Uint32(e), uint64(t.le.Uint32(e[4:]))
			ksize, vsize := uint64(t.le.Uint32(e[8:])), uint64(t.le.Uint32(e[12:]))
			if err := keyAt(p, off+pos, ksize); err != nil {
				return fmt.Errorf("%s: page %d element %d: key %w", name, id, i, err)
			}
			v, err := slice(p, off+pos+ksize, vsize)
			if err != nil {
				return fmt.Errorf("%s: page %d element %d: value %w", name, id, i, err)
			}
			if eflags&bucketLeafFlag != 0 {
				if err := t.nested(v, fmt.Sprintf("%s/%q", name, p[off+pos:off+pos+ksize])); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("%s: page %d is neither branch nor leaf (type %#x)", name, id, flags)
		}
	}
	return nil
}

// nested checks a bucket stored in a leaf value: its own pages, or, when
// small, a page inline after its header.
func (t *tree) nested(v []byte, name string) error {
	if len(v) < bucketHeaderLen {
		return fmt.Errorf("%s: bucket header is %d bytes, short of %d", name, len(v), bucketHeaderLen)
	}
	if root := t.le.Uint64(v); root != 0 {
		return t.bucket(root, name)
	}
	inline := v[bucketHeaderLen:]
	if len(inline) < pageHeaderSize || t.le.Uint16(inline[8:])&leafFlag == 0 {
		return fmt.Errorf("%s: inline bucket is not a leaf page", name)
	}
	return t.node(inline, 0, name)
}

// keyAt checks a key: inside p, and not empty, which bbolt asserts (with
// a panic) when it next writes the page.
func keyAt(p []byte, off, n uint64) error {
	if n == 0 {
		return fmt.Errorf("is empty")
	}
	_, err := slice(p, off, n)
	return err
}

// slice is p[off:off+n], or an error when that is outside p.
func slice(p []byte, off, n uint64) ([]byte, error) {
	if off > uint64(len(p)) || n > uint64(len(p))-off {
		return nil, fmt.Errorf("at %d+%d lies outside its %d-byte page", off, n, len(p))
	}
	return p[off : off+n], nil
}
