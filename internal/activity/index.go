package activity

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

// The index: for each field a filter may name (type, session, server,
// tool, flow type, risk level, the session's owner), the IDs of the records with each value,
// kept in the records' own transaction. A filtered page of a large store
// used to decode records from the newest back until it filled: a filter
// one record in a thousand matches read 50,000 of them for a page of 50.
// With the index the page reads its 50.
//
// A key is the field's tag, the value's length (uvarint) and the value,
// then the record's ID (8 bytes, big-endian), so one value's IDs sit
// together in ID order; its value is empty. The keys are kept in one
// bucket per span of 2^epochBits IDs (its key the span's number,
// big-endian), so that retention deletes a span's keys with its bucket,
// once every record in it is gone, rather than each record's keys one by
// one, which doubled the writer's work. Keys of records already pruned
// in the oldest span stay until then; a walk stops at the oldest record
// kept. The key under tagThrough holds the last ID indexed: Open indexes
// what came after it (a store written before the index, or by an older
// flowd since). The index only chooses which records to read: each is
// decoded and matched against the whole filter as before, and a key
// whose record is gone or cannot be decoded is skipped.
var indexBucket = []byte("index")

const (
	tagType = 't'
	tagSess = 's'
	tagSrv  = 'v'
	tagTool = 'o'
	tagFlow = 'f'
	// A record's risk is indexed by its rank, so "high" and "High" are
	// one; none is not indexed (a filter of none or above is every
	// record).
	tagRisk = 'r'
	// The uid whose session it is, in a system flowd (sessionid.Owner):
	// what a user's own pages are filtered by.
	tagOwner   = 'u'
	tagThrough = 0
	// maxIndexed is the longest value indexed; a filter naming a longer
	// one reads the records instead.
	maxIndexed = 512
)

// epochBits sets the span of IDs whose keys share a bucket: 16,384 IDs,
// so a default store of 100,000 records keeps its stale keys below one
// span. Tests make it small, to walk many.
var epochBits = 14

var throughKey = []byte{tagThrough}

// indexed are a record's values as the index keys them.
type indexed struct {
	typ, session, server, tool, flowType string
	risk                                 int // rank; 0 (none, or unknown) is not indexed
}

func indexedOf(r *Record) indexed {
	x := indexed{typ: r.Type, session: r.Session, server: r.Server, tool: r.Tool, flowType: r.FlowType}
	if rank, ok := riskRank(r.RiskLevel); ok {
		x.risk = rank
	}
	return x
}

// stored is x as a stored record decodes: json.Marshal writes each byte
// of invalid UTF-8 as U+FFFD, and the index must key what filters are
// matched against.
func (x indexed) stored() indexed {
	for _, s := range []*string{&x.typ, &x.session, &x.server, &x.tool, &x.flowType} {
		if !utf8.ValidString(*s) {
			b, _ := json.Marshal(*s) // a string always encodes
			_ = json.Unmarshal(b, s)
		}
	}
	return x
}

// keys calls each with every index key of x for record id; buf holds
// them, and is returned for the next call.
func (x indexed) keys(id uint64, buf []byte, each func([]byte) error) ([]byte, error) {
	for _, kv := range []struct {
		tag byte
		v   string
	}{{tagType, x.typ}, {tagSess, x.session}, {tagSrv, x.server}, {tagTool, x.tool}, {tagFlow, x.flowType}} {
		if kv.v == "" || len(kv.v) > maxIndexed {
			continue
		}
		buf = binary.BigEndian.AppendUint64(indexPrefix(buf[:0], kv.tag, kv.v), id)
		if err := each(buf); err != nil {
			return buf, err
		}
	}
	if uid, ok := sessionid.Owner(x.session); ok {
		buf = binary.BigEndian.AppendUint64(indexPrefix(buf[:0], tagOwner, strconv.Itoa(uid)), id)
		if err := each(buf); err != nil {
			return buf, err
		}
	}
	if x.risk > 0 {
		buf = binary.BigEndian.AppendUint64(indexPrefix(buf[:0], tagRisk, string(rune('0'+x.risk))), id)
		return buf, each(buf)
	}
	return buf, nil
}

func indexPrefix(dst []byte, tag byte, v string) []byte {
	dst = append(dst, tag)
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	return append(dst, v...)
}

// indexer keeps a transaction's index up to date.
type indexer struct {
	top   *bolt.Bucket
	epoch *bolt.Bucket // the span's bucket the last ID went to
	num   uint64       // its number
	buf   []byte
}

// add indexes record r stored under id.
func (w *indexer) add(x indexed, id uint64) (err error) {
	if n := id >> epochBits; w.epoch == nil || w.num != n {
		if w.epoch, err = w.top.CreateBucketIfNotExists(idKey(n)); err != nil {
			return err
		}
		w.num = n
	}
	w.buf, err = x.keys(id, w.buf, w.put)
	return err
}

func (w *indexer) put(k []byte) error { return w.epoch.Put(k, nil) }

// pruneIndex deletes the spans whose records are all below floor, the
// oldest ID retention keeps. A span below routineFloor that still holds
// notable records retention spared (retention.go) is rebuilt once with
// their keys alone, marked by compactedKey: left as it was, the keys of
// its routine records would stay as long as one notable record does.
func pruneIndex(tx *bolt.Tx, floor, routineFloor uint64) error {
	top := tx.Bucket(indexBucket)
	var gone, stale [][]byte
	c := top.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 || v != nil {
			continue // the through key
		}
		end := (binary.BigEndian.Uint64(k) + 1) << epochBits
		if end > max(floor, routineFloor) {
			break // spans are in ID order: none after this is below either
		}
		if end <= floor {
			gone = append(gone, k)
		} else if top.Bucket(k).Get(compactedKey) == nil {
			stale = append(stale, bytes.Clone(k))
		}
	}
	for _, k := range gone {
		if err := top.DeleteBucket(k); err != nil {
			return err
		}
	}
	for _, k := range stale {
		if err := rebuildSpan(tx, binary.BigEndian.Uint64(k)); err != nil {
			return err
		}
	}
	return nil
}

// compactedKey, in a span's bucket, marks it rebuilt for the records
// left in it. It sorts after every index key, which starts with a tag.
var compactedKey = []byte{0xff}

// rebuildSpan replaces span n's keys with those of the records it still
// holds, and marks it.
func rebuildSpan(tx *bolt.Tx, n uint64) error {
	top := tx.Bucket(indexBucket)
	if err := top.DeleteBucket(idKey(n)); err != nil {
		return err
	}
	w := indexer{top: top}
	c := tx.Bucket(bucketName).Cursor()
	for k, v := c.Seek(idKey(n << epochBits)); k != nil && binary.BigEndian.Uint64(k)>>epochBits == n; k, v = c.Next() {
		if x, ok := indexedOfStored(v); ok {
			if err := w.add(x, binary.BigEndian.Uint64(k)); err != nil {
				return err
			}
		}
	}
	if w.epoch == nil {
		return nil // nothing left in it
	}
	return w.epoch.Put(compactedKey, []byte{1})
}

// indexedOfStored is the indexed fields of the record stored as v,
// read without decoding it where it has the form json.Marshal writes.
func indexedOfStored(v []byte) (indexed, bool) {
	var f storedFields
	if f.parse(v, false) {
		var x indexed
		ok := true
		for _, p := range []struct {
			dst *string
			lit []byte
		}{{&x.typ, f.typ}, {&x.session, f.session}, {&x.server, f.server}, {&x.tool, f.tool}, {&x.flowType, f.flowType}} {
			if p.lit != nil && ok {
				*p.dst, ok = stringOf(p.lit)
			}
		}
		if f.riskLevel != nil && ok {
			var level string
			if level, ok = stringOf(f.riskLevel); ok {
				x.risk, _ = riskRank(level)
			}
		}
		if ok {
			return x, true
		}
	}
	var r Record
	if json.Unmarshal(v, &r) != nil {
		return indexed{}, false
	}
	return indexedOf(&r), true
}

// stringOf is the string the JSON literal lit holds.
func stringOf(lit []byte) (string, bool) {
	if s, ok := plainString(lit); ok {
		return string(s), true
	}
	var s string
	return s, json.Unmarshal(lit, &s) == nil
}

// setThrough notes that every record up to id is indexed.
func setThrough(ix *bolt.Bucket, id uint64) error {
	return ix.Put(throughKey, binary.BigEndian.AppendUint64(nil, id))
}

// catchUpIndex indexes the records stored after the last one indexed,
// catchUpBatch of them per transaction: bbolt splits its pages only as
// a transaction commits, so one transaction adding the keys of a whole
// store inserts into ever larger pages (100,000 records took 78 s).
func catchUpIndex(db *bolt.DB) error {
	more := true
	err := boltfile.View(db, func(tx *bolt.Tx) error {
		k, _ := tx.Bucket(bucketName).Cursor().Last()
		more = k != nil && binary.BigEndian.Uint64(k) > indexedThrough(tx)
		return nil
	})
	for err == nil && more {
		err = boltfile.Update(db, func(tx *bolt.Tx) error {
			var err error
			more, err = catchUpSome(tx, catchUpBatch)
			return err
		})
	}
	return err
}

// catchUpBatch is how many records one transaction indexes; tests make
// it small.
var catchUpBatch = 4096

func indexedThrough(tx *bolt.Tx) uint64 {
	if v := tx.Bucket(indexBucket).Get(throughKey); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// catchUpSome indexes up to n records after the last one indexed; more
// says whether records remain.
func catchUpSome(tx *bolt.Tx, n int) (more bool, err error) {
	ix := tx.Bucket(indexBucket)
	through := indexedThrough(tx)
	c := tx.Bucket(bucketName).Cursor()
	w := indexer{top: ix}
	k, v := c.Seek(idKey(through + 1))
	for ; k != nil && n > 0; k, v = c.Next() {
		id := binary.BigEndian.Uint64(k)
		if x, ok := indexedOfStored(v); ok {
			if err := w.add(x, id); err != nil {
				return false, err
			}
		}
		through, n = id, n-1
	}
	return k != nil, setThrough(ix, through)
}

// idStream is a descending walk over a set of record IDs.
type idStream interface {
	// last is the greatest ID in the set that is at most at; ok is false
	// when there is none. Successive calls never raise at.
	last(at uint64) (id uint64, ok bool)
}

// valueStream is the IDs of the records with one value of one field.
type valueStream struct {
	spans  []*bolt.Bucket // newest first
	nums   []uint64       // their numbers
	i      int            // the span c walks
	c      *bolt.Cursor
	floor  uint64 // the oldest record kept
	prefix []byte
	key    []byte
	cur    uint64 // the ID last returned, when placed
	placed bool
	done   bool
}

func (s *valueStream) last(at uint64) (uint64, bool) {
	switch {
	case s.done:
		return 0, false
	case s.placed && s.cur <= at:
		return s.cur, true
	case s.placed:
		// The next one down is most often the answer: one step, not a
		// seek.
		if id, ok := s.idOf(s.c.Prev()); ok && id <= at {
			return s.place(id)
		}
	}
	for s.i < len(s.nums) && s.nums[s.i] > at>>epochBits {
		s.i, s.c = s.i+1, nil
	}
	for ; s.i < len(s.nums); s.i, s.c = s.i+1, nil {
		if s.c == nil {
			s.c = s.spans[s.i].Cursor()
		}
		bound := at
		if s.nums[s.i] < at>>epochBits {
			bound = s.nums[s.i]<<epochBits | (1<<epochBits - 1)
		}
		s.key = binary.BigEndian.AppendUint64(append(s.key[:0], s.prefix...), bound)
		k, _ := s.c.Seek(s.key)
		switch {
		case bytes.Equal(k, s.key):
			return s.place(bound)
		case k == nil:
			k, _ = s.c.Last()
		default:
			k, _ = s.c.Prev()
		}
		if id, ok := s.idOf(k, nil); ok {
			return s.place(id)
		}
	}
	s.done = true
	return 0, false
}

// place makes id the stream's position; below the oldest record kept
// the stream ends.
func (s *valueStream) place(id uint64) (uint64, bool) {
	if id < s.floor {
		s.done = true
		return 0, false
	}
	s.cur, s.placed = id, true
	return id, true
}

func (s *valueStream) idOf(k, _ []byte) (uint64, bool) {
	if len(k) != len(s.prefix)+8 || !bytes.HasPrefix(k, s.prefix) {
		return 0, false
	}
	return binary.BigEndian.Uint64(k[len(s.prefix):]), true
}

// anyStream is the union of its streams.
type anyStream []idStream

func (u anyStream) last(at uint64) (uint64, bool) {
	var best uint64
	found := false
	for _, s := range u {
		if id, ok := s.last(at); ok && (!found || id > best) {
			best, found = id, true
		}
	}
	return best, found
}

// plan is the streams whose intersection holds every record f matches
// from floor on, or nil when the index cannot narrow f.
func (f Filter) plan(top *bolt.Bucket, floor uint64) []idStream {
	var spans []*bolt.Bucket
	var nums []uint64
	c := top.Cursor()
	for k, v := c.Last(); k != nil; k, v = c.Prev() {
		if len(k) == 8 && v == nil {
			spans, nums = append(spans, top.Bucket(k)), append(nums, binary.BigEndian.Uint64(k))
		}
	}
	var streams []idStream
	stream := func(tag byte, v string) *valueStream {
		return &valueStream{spans: spans, nums: nums, floor: floor, prefix: indexPrefix(nil, tag, v)}
	}
	for _, kv := range []struct {
		tag byte
		v   string
	}{{tagType, f.Type}, {tagSess, f.Session}, {tagSrv, f.Server}, {tagTool, f.Tool}, {tagFlow, f.FlowType}} {
		if kv.v != "" && len(kv.v) <= maxIndexed {
			streams = append(streams, stream(kv.tag, kv.v))
		}
	}
	if f.Owner != nil {
		streams = append(streams, stream(tagOwner, strconv.Itoa(*f.Owner)))
	}
	if min, _ := riskRank(f.RiskLevel); min > 0 {
		var u anyStream
		for rank := min; rank < len(riskLevels); rank++ {
			u = append(u, stream(tagRisk, string(rune('0'+rank))))
		}
		streams = append(streams, u)
	}
	return streams
}

// nextIn is the greatest ID at most at in every stream.
func nextIn(streams []idStream, at uint64) (uint64, bool) {
	for {
		agreed := true
		for _, s := range streams {
			id, ok := s.last(at)
			if !ok {
				return 0, false
			}
			if id < at {
				at, agreed = id, false
			}
		}
		if agreed {
			return at, true
		}
	}
}

// noBound is the ID above every record's.
const noBound = math.MaxUint64
