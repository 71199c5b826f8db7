// Package spool is a bounded first-in first-out queue of records on
// disk, for exporters whose receiver is away: what they could not send
// waits here, across restarts, and is read back in the order written.
//
// A spool is a directory of segment files, each a run of frames (length,
// CRC-32C, bytes), and a head file saying how far the oldest segment was
// read. Past its byte limit the oldest segment is deleted, and its
// records counted as dropped. A crash can tear only the frame being
// written, which Open cuts off; a crash between a read being sent and
// Commit leaves those records to be read again (the exporter's
// duplicates).
//
// A Spool is not safe for concurrent use, except its counters (Stats).
package spool

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// frameHeader is a frame's length and checksum, before its bytes.
const frameHeader = 8

// maxRecord bounds one record, so a damaged length cannot make Read
// allocate gigabytes.
const maxRecord = 16 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Stats are a spool's counters.
type Stats struct {
	Records int    `json:"records"`
	Bytes   int64  `json:"bytes"`
	Limit   int64  `json:"limit"`
	Dropped uint64 `json:"dropped"` // records deleted to stay under Limit, since Open
}

// Spool is one open spool directory.
type Spool struct {
	dir    string
	limit  int64
	segMax int64

	segs []segment // oldest first; the last is written to
	head int64     // offset in segs[0] of its oldest unread record
	tail *os.File  // segs[len-1], open for appending

	mu sync.Mutex // guards st, read by Stats from other goroutines
	st Stats
}

type segment struct {
	num   uint64
	size  int64 // bytes in the file
	count int   // records in it past the head (for segs[0])
}

func segName(num uint64) string { return fmt.Sprintf("%016d.seg", num) }

// Open opens the spool in dir (made 0700 if missing) holding at most
// limit bytes: the records there from before are read back first.
func Open(dir string, limit int64) (*Spool, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("spool %s: limit %d bytes: want more than 0", dir, limit)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create spool %s: %w", dir, err)
	}
	// Eight segments to the limit: the oldest eighth goes at a time.
	s := &Spool{dir: dir, limit: limit, segMax: max(limit/8, 4096)}
	s.st.Limit = limit
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read spool %s: %w", dir, err)
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".seg")
		if !ok {
			continue
		}
		num, err := strconv.ParseUint(name, 10, 64)
		if err != nil {
			continue
		}
		s.segs = append(s.segs, segment{num: num})
	}
	slices.SortFunc(s.segs, func(a, b segment) int { return cmp.Compare(a.num, b.num) })
	headNum, headOff := s.readHead()
	// Segments wholly read before a crash that came before their
	// deletion go now.
	for len(s.segs) > 0 && s.segs[0].num < headNum {
		if err := os.Remove(s.path(s.segs[0].num)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("spool %s: %w", dir, err)
		}
		s.segs = s.segs[1:]
	}
	if len(s.segs) == 0 || s.segs[0].num != headNum {
		headOff = 0 // the head file speaks of a segment that is gone
	}
	for i := range s.segs {
		from := int64(0)
		if i == 0 {
			from = headOff
		}
		if err := s.scan(&s.segs[i], from, i == len(s.segs)-1); err != nil {
			return nil, err
		}
	}
	if len(s.segs) > 0 {
		s.head = min(headOff, s.segs[0].size)
	}
	if len(s.segs) == 0 {
		s.segs = []segment{{num: headNum}}
	}
	if s.tail, err = os.OpenFile(s.path(s.segs[len(s.segs)-1].num), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
		return nil, fmt.Errorf("open spool segment: %w", err)
	}
	s.update()
	return s, nil
}

func (s *Spool) path(num uint64) string { return filepath.Join(s.dir, segName(num)) }

// readHead is the head file's segment and offset; none (a new spool, or
// a file torn or damaged) reads as the start of the oldest segment.
func (s *Spool) readHead() (uint64, int64) {
	oldest := uint64(1)
	if len(s.segs) > 0 {
		oldest = s.segs[0].num
	}
	b, err := os.ReadFile(filepath.Join(s.dir, "head"))
	if err != nil || len(b) != 20 || crc32.Checksum(b[:16], castagnoli) != binary.LittleEndian.Uint32(b[16:]) {
		return oldest, 0
	}
	return binary.LittleEndian.Uint64(b), int64(binary.LittleEndian.Uint64(b[8:]))
}

func (s *Spool) writeHead() error {
	var b [20]byte
	binary.LittleEndian.PutUint64(b[:], s.segs[0].num)
	binary.LittleEndian.PutUint64(b[8:], uint64(s.head))
	binary.LittleEndian.PutUint32(b[16:], crc32.Checksum(b[:16], castagnoli))
	// One small write in place: it cannot be torn short of a sector,
	// and the checksum catches it if it is.
	f, err := os.OpenFile(filepath.Join(s.dir, "head"), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("spool head: %w", err)
	}
	_, err = f.WriteAt(b[:], 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("spool head: %w", err)
	}
	return nil
}

// scan counts seg's whole frames from offset from on; in the last
// segment, a torn or damaged frame and all after it are cut off (a
// crash mid-write), elsewhere the segment ends there.
func (s *Spool) scan(seg *segment, from int64, last bool) error {
	f, err := os.Open(s.path(seg.num))
	if err != nil {
		return fmt.Errorf("open spool segment: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return fmt.Errorf("spool segment %s: %w", f.Name(), err)
	}
	r := bufio.NewReader(f)
	off := from
	var buf []byte
	for {
		var n int
		if buf, n, err = readFrame(r, buf); err != nil {
			break
		}
		off += int64(n)
		seg.count++
	}
	seg.size = off
	if last && !errors.Is(err, io.EOF) {
		if err := os.Truncate(f.Name(), off); err != nil {
			return fmt.Errorf("cut the torn end off spool segment %s: %w", f.Name(), err)
		}
	}
	return nil
}

var errDamaged = errors.New("damaged frame")

// readFrame reads one frame into buf, returning its bytes and the
// frame's length on disk; io.EOF at a clean end.
func readFrame(r io.Reader, buf []byte) ([]byte, int, error) {
	var h [frameHeader]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return buf, 0, errDamaged
		}
		return buf, 0, err
	}
	n := binary.LittleEndian.Uint32(h[:])
	if n > maxRecord {
		return buf, 0, errDamaged
	}
	buf = slices.Grow(buf[:0], int(n))[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return buf, 0, errDamaged
	}
	if crc32.Checksum(buf, castagnoli) != binary.LittleEndian.Uint32(h[4:]) {
		return buf, 0, errDamaged
	}
	return buf, frameHeader + int(n), nil
}

// Append writes recs after the newest records, then deletes the oldest
// segments while the spool is over its limit.
func (s *Spool) Append(recs [][]byte) error {
	var out []byte
	tail := &s.segs[len(s.segs)-1]
	flush := func() error {
		if len(out) == 0 {
			return nil
		}
		if _, err := s.tail.Write(out); err != nil {
			return fmt.Errorf("write spool %s: %w", s.dir, err)
		}
		tail.size += int64(len(out))
		out = out[:0]
		return nil
	}
	for _, r := range recs {
		if len(r) > maxRecord {
			continue // cannot be read back: not written
		}
		if tail.size+int64(len(out)) >= s.segMax && tail.count > 0 {
			if err := flush(); err != nil {
				return err
			}
			if err := s.rotate(); err != nil {
				return err
			}
			tail = &s.segs[len(s.segs)-1]
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(len(r)))
		out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(r, castagnoli))
		out = append(out, r...)
		tail.count++
	}
	if err := flush(); err != nil {
		return err
	}
	dropped := 0
	for len(s.segs) > 1 && s.size() > s.limit {
		dropped += s.segs[0].count
		if err := os.Remove(s.path(s.segs[0].num)); err != nil {
			return fmt.Errorf("spool %s: drop the oldest records: %w", s.dir, err)
		}
		s.segs, s.head = s.segs[1:], 0
		if err := s.writeHead(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.st.Dropped += uint64(dropped)
	s.mu.Unlock()
	s.update()
	return nil
}

// rotate starts a new segment for appending.
func (s *Spool) rotate() error {
	if err := s.tail.Close(); err != nil {
		return fmt.Errorf("spool %s: %w", s.dir, err)
	}
	num := s.segs[len(s.segs)-1].num + 1
	f, err := os.OpenFile(s.path(num), os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("spool %s: new segment: %w", s.dir, err)
	}
	s.tail = f
	s.segs = append(s.segs, segment{num: num})
	return nil
}

// size is the bytes of records not yet read.
func (s *Spool) size() int64 {
	var n int64
	for _, g := range s.segs {
		n += g.size
	}
	return n - s.head
}

func (s *Spool) records() int {
	n := 0
	for _, g := range s.segs {
		n += g.count
	}
	return n
}

func (s *Spool) update() {
	s.mu.Lock()
	s.st.Records, s.st.Bytes = s.records(), s.size()
	s.mu.Unlock()
}

// Len is how many records wait.
func (s *Spool) Len() int { return s.records() }

// Mark is where a Read ended, for Commit.
type Mark struct {
	pos
	n    int
	ends []pos // where each record read ends, for Upto
}

type pos struct {
	seg   uint64
	off   int64
	inSeg int // of the records read, those from segment seg
}

// Upto is the mark of the first k records read: a batch the receiver
// took only part of leaves the rest on the spool.
func (m Mark) Upto(k int) Mark {
	if k >= m.n {
		return m
	}
	if k <= 0 {
		return Mark{}
	}
	return Mark{pos: m.ends[k-1], n: k, ends: m.ends[:k]}
}

// Read returns up to n of the oldest records, without taking them off
// the spool: Commit does, once they are sent.
func (s *Spool) Read(n int) ([][]byte, Mark, error) {
	var out [][]byte
	m := Mark{pos: pos{seg: s.segs[0].num, off: s.head}}
	for i := 0; i < len(s.segs) && len(out) < n; i++ {
		g := s.segs[i]
		from := int64(0)
		if i == 0 {
			from = s.head
		}
		if from >= g.size {
			continue
		}
		f, err := os.Open(s.path(g.num))
		if err != nil {
			return nil, m, fmt.Errorf("read spool: %w", err)
		}
		r := bufio.NewReader(io.NewSectionReader(f, from, g.size-from))
		off, k0 := from, len(out)
		for len(out) < n {
			b, k, err := readFrame(r, nil)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				f.Close()
				return nil, m, fmt.Errorf("read spool segment %s at %d: %w", f.Name(), off, err)
			}
			off += int64(k)
			out = append(out, b)
			m.ends = append(m.ends, pos{seg: g.num, off: off, inSeg: len(out) - k0})
		}
		f.Close()
		if len(m.ends) > 0 {
			m.pos = m.ends[len(m.ends)-1]
		}
	}
	m.n = len(out)
	return out, m, nil
}

// Commit takes the records read up to m off the spool. Records already
// dropped meanwhile are not taken twice.
func (s *Spool) Commit(m Mark) error {
	if m.n == 0 || m.seg < s.segs[0].num {
		return nil
	}
	for len(s.segs) > 1 && s.segs[0].num < m.seg {
		if err := os.Remove(s.path(s.segs[0].num)); err != nil {
			return fmt.Errorf("spool %s: %w", s.dir, err)
		}
		s.segs = s.segs[1:]
	}
	s.segs[0].count -= m.inSeg
	s.head = m.off
	if len(s.segs) == 1 && s.head == s.segs[0].size {
		// All sent: start the segment afresh rather than let it grow.
		if err := s.tail.Truncate(0); err != nil {
			return fmt.Errorf("spool %s: %w", s.dir, err)
		}
		s.segs[0].size, s.head = 0, 0
	}
	if err := s.writeHead(); err != nil {
		return err
	}
	s.update()
	return nil
}

// Stats are the spool's counters now; safe from any goroutine.
func (s *Spool) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// Close flushes the segment being written to disk and closes it.
func (s *Spool) Close() error {
	err := s.tail.Sync()
	if cerr := s.tail.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("close spool %s: %w", s.dir, err)
	}
	return nil
}
