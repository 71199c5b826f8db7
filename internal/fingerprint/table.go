package fingerprint

import (
	"math/bits"
	"slices"
)

// table maps 48-bit hash keys to 16-bit origin slots. The window table is
// most of a session's memory, so it has two forms:
//
//   - wide, while small: one uint64 per cell, key<<16 | slot, in an
//     open-addressing array with linear probing, 2/5 to 4/5 full: 10 to
//     20 bytes an entry.
//   - packed, once the wide form would outgrow the packed one's minimum
//     (4 MB): cache-line buckets of ten cells, each a 32-bit tag and a
//     16-bit slot, linear probing by bucket: 7 to 11 bytes an entry at
//     the loads kept. The bucket of a key is its rank in key order
//     (key·buckets/2^48), so with at least 2^16 buckets a bucket spans at
//     most 2^32 keys and the low 32 bits, the tag, tell the key exactly:
//     packing loses nothing.
//
// 48 bits keep false hits negligible in either form: a lookup equals one of
// N stored keys by chance with probability N/2^48, about 5·10^-9 for a full
// session, and Match makes a few thousand lookups.
type table struct {
	cells   []uint64 // wide form
	buckets []bucket // packed form; when non-empty, cells is nil
	// stash holds the packed entries that found no free cell within
	// maxShift buckets of their home: about 1% at the highest load.
	stash map[uint64]uint16
	n     int
}

const (
	keyBits     = 48
	keyMask     = 1<<keyBits - 1
	minTableCap = 64
)

// bucket is 64 bytes: one cache line, as the allocator aligns large arrays.
// An empty cell has tag 0; keys never have 0 as their low 32 bits.
type bucket struct {
	// tags holds cell 2j's tag in the low half of tags[j] and cell 2j+1's
	// in the high half, so that has compares two at a time.
	tags  [bucketCells / 2]uint64
	slots [bucketCells]uint16
	// meta holds, in bits 3i to 3i+2, how many buckets past its key's
	// home bucket cell i sits (linear probing by bucket, at most
	// maxShift-1), and in overflowBit whether a key whose home is this
	// bucket or one before it sits past it (or in the stash): a lookup
	// stops at the first bucket without it, usually its home.
	meta uint32
}

const (
	bucketCells = 10
	maxShift    = 8
	overflowBit = 1 << 31
	// Below 2^16 buckets a bucket spans more keys than a tag tells apart.
	minPackedBuckets = 1 << (keyBits - 32)
	// The wide form turns packed once it would take more memory than the
	// packed form's minimum: 8 wide cells to a 64-byte bucket.
	maxWideCells = minPackedBuckets * 8
	// Packed load bounds, in entries per 100 cells: a table is rebuilt at
	// packedGrowAt, to packedLoad. Growth by about 1.5 trades the slack
	// left after a rebuild against how often entries are moved: each is
	// moved about twice on the way to a full session (three or four times
	// by 1.3, when moves were a tenth of the cost of recording), for at
	// most a fifth more memory than growth by 1.3 leaves.
	packedGrowAt = 92
	packedLoad   = 60
)

// validKey forces the low 32 bits of a 48-bit hash to be non-zero, so that
// they can serve as a packed tag; the bias this adds is 2^-32.
func validKey(k uint64) uint64 {
	k &= keyMask
	if uint32(k) == 0 {
		k |= 1
	}
	return k
}

// home is the wide cell of key, its rank in key order as homeBucket's:
// keys are hashes, so that spreads them evenly without a power-of-two
// capacity, and rebuilds from either form write the new table in order.
func (t *table) home(key uint64) int {
	hi, _ := bits.Mul64(key<<(64-keyBits), uint64(len(t.cells)))
	return int(hi)
}

// homeBucket is the packed bucket of key: its rank in key order.
func (t *table) homeBucket(key uint64) int {
	hi, _ := bits.Mul64(key<<(64-keyBits), uint64(len(t.buckets)))
	return int(hi)
}

// firstKey is the smallest key whose home is bucket b, ⌈b·2^48/buckets⌉.
// A bucket's keys span at most 2^32 from there, so the one that ends in a
// tag's 32 bits is firstKey + (tag − firstKey mod 2^32).
func (t *table) firstKey(b int) uint64 {
	lo, rem := bits.Div64(uint64(b)>>(64-keyBits), uint64(b)<<keyBits, uint64(len(t.buckets)))
	if rem != 0 {
		lo++
	}
	return lo
}

func (bk *bucket) tag(i int) uint32 { return uint32(bk.tags[i/2] >> (32 * (i % 2))) }

func (bk *bucket) setTag(i int, tag uint32) {
	sh := 32 * (i % 2)
	bk.tags[i/2] = bk.tags[i/2]&^(0xffffffff<<sh) | uint64(tag)<<sh
}

// has reports whether some cell holds tag (0: whether some cell is free).
// It is the whole cost of most lookups, which miss: the classic test for
// a zero lane, over both lanes of each word at once, without a branch.
func (bk *bucket) has(tag uint32) bool {
	const low, high = 0x0000000100000001, 0x8000000080000000
	spread := uint64(tag) * low
	var zero uint64
	for _, w := range &bk.tags {
		x := w ^ spread
		zero |= (x - low) &^ x & high
	}
	return zero != 0
}

// free returns the first free cell, or -1 when the bucket is full. As in
// has, a borrow can mark a non-zero lane above a zero one, never below, so
// the lowest lane marked is free.
func (bk *bucket) free() int {
	const low, high = 0x0000000100000001, 0x8000000080000000
	for j, w := range &bk.tags {
		if zero := (w - low) &^ w & high; zero != 0 {
			return 2*j + bits.TrailingZeros64(zero)/32
		}
	}
	return -1
}

func shiftOf(meta uint32, i int) int { return int(meta >> (3 * i) & (maxShift - 1)) }

func (t *table) get(key uint64) (uint16, bool) {
	if len(t.buckets) > 0 {
		switch b, i, where := t.find(key); where {
		case inBucket:
			return t.buckets[b].slots[i], true
		case stashed:
			return t.stash[key], true
		}
		return 0, false
	}
	if len(t.cells) == 0 {
		return 0, false
	}
	for i := t.home(key); ; {
		c := t.cells[i]
		if c == 0 {
			return 0, false
		}
		if c>>16 == key {
			return uint16(c), true
		}
		if i++; i == len(t.cells) {
			i = 0
		}
	}
}

// find returns the packed bucket and cell of key, or stashed when key is
// in the stash.
func (t *table) find(key uint64) (b, i int, where found) {
	tag := uint32(key)
	b = t.homeBucket(key)
	for shift := range maxShift {
		bk := &t.buckets[b]
		if bk.has(tag) {
			for i := range bucketCells {
				if bk.tag(i) == tag && shiftOf(bk.meta, i) == shift {
					return b, i, inBucket
				}
			}
		}
		if bk.meta&overflowBit == 0 {
			return 0, 0, absent
		}
		b = t.next(b)
	}
	if _, ok := t.stash[key]; ok {
		return 0, 0, stashed
	}
	return 0, 0, absent
}

type found uint8

const (
	absent found = iota
	inBucket
	stashed
)

// put stores key (a validKey) for slot, replacing an earlier slot: the
// newest origin that contains a fingerprint is the one reported. The caller
// makes room first (roomFor, rebuild).
func (t *table) put(key uint64, slot uint16) {
	if len(t.buckets) == 0 {
		t.putWide(key, slot)
		return
	}
	t.putPacked(key, slot)
}

// putUnless is put, except that an entry whose slot keep approves of stays.
func (t *table) putUnless(key uint64, slot uint16, keep func(old uint16) bool) {
	if len(t.buckets) == 0 {
		for i := t.home(key); ; {
			c := t.cells[i]
			if c>>16 == key {
				if !keep(uint16(c)) {
					t.cells[i] = key<<16 | uint64(slot)
				}
				return
			}
			if c == 0 {
				t.n++
				t.cells[i] = key<<16 | uint64(slot)
				return
			}
			if i++; i == len(t.cells) {
				i = 0
			}
		}
	}
	switch b, i, where := t.find(key); where {
	case inBucket:
		if !keep(t.buckets[b].slots[i]) {
			t.buckets[b].slots[i] = slot
		}
		return
	case stashed:
		if !keep(t.stash[key]) {
			t.stash[key] = slot
		}
		return
	}
	t.insert(key, slot)
}

func (t *table) putWide(key uint64, slot uint16) {
	for i := t.home(key); ; {
		c := t.cells[i]
		if c == 0 {
			t.n++
		}
		if c == 0 || c>>16 == key {
			t.cells[i] = key<<16 | uint64(slot)
			return
		}
		if i++; i == len(t.cells) {
			i = 0
		}
	}
}

func (t *table) putPacked(key uint64, slot uint16) {
	switch b, i, where := t.find(key); where {
	case inBucket:
		t.buckets[b].slots[i] = slot
		return
	case stashed:
		t.stash[key] = slot
		return
	}
	t.insert(key, slot)
}

// insert adds key, which is not in the packed table.
func (t *table) insert(key uint64, slot uint16) {
	t.n++
	home := t.homeBucket(key)
	b := home
	for shift := range maxShift {
		bk := &t.buckets[b]
		if i := bk.free(); i >= 0 {
			bk.setTag(i, uint32(key))
			bk.slots[i] = slot
			bk.meta = bk.meta&^((maxShift-1)<<(3*i)) | uint32(shift)<<(3*i)
			t.markPassed(home, shift)
			return
		}
		b = t.next(b)
	}
	t.stashKey(home, key, slot)
}

func (t *table) stashKey(home int, key uint64, slot uint16) {
	if t.stash == nil {
		t.stash = make(map[uint64]uint16)
	}
	t.stash[key] = slot
	t.markPassed(home, maxShift)
}

// markPassed sets the overflow bit of the n buckets from home on.
func (t *table) markPassed(home, n int) {
	for b := home; n > 0; n-- {
		t.buckets[b].meta |= overflowBit
		b = t.next(b)
	}
}

func (t *table) next(b int) int {
	if b++; b == len(t.buckets) {
		return 0
	}
	return b
}

// roomFor reports whether m more entries keep the load within its bound:
// 4/5 for the wide form, past which linear probing slows down sharply (and
// lookups are mostly misses), packedGrowAt% for the packed one.
func (t *table) roomFor(m int) bool {
	if len(t.buckets) > 0 {
		return (t.n+m)*100 <= len(t.buckets)*bucketCells*packedGrowAt
	}
	return (t.n+m)*5 <= len(t.cells)*4
}

// resize rebuilds the table for its entries at the load a fresh table
// starts with; amortised cost stays O(1).
func (t *table) resize() { t.rebuild(t.n) }

// rebuild rehashes the entries into a table sized for n entries: wide at
// load 2/5 while that is small, else packed at packedLoad% or at its
// minimum size. The wide form doubles when it grows: it is small, and a
// session that grows past it rebuilds half as often on the way.
//
// Packed buckets are in key order, so the entries of the old table come
// out in nearly ascending key order and land in the new buckets one after
// another: the rebuild is a sequential pass, not a random one.
func (t *table) rebuild(n int) {
	old := *t
	*t = table{}
	wide := max(minTableCap, n*5/2)
	if wide <= maxWideCells {
		t.cells = make([]uint64, wide)
	} else {
		t.buckets = make([]bucket, max(minPackedBuckets, (n*100+bucketCells*packedLoad-1)/(bucketCells*packedLoad)))
	}
	// The keys are distinct, and a fresh bucket fills from its first cell
	// on: a count per bucket finds the free cell without reading it.
	var used []uint8
	if len(t.buckets) > 0 {
		used = make([]uint8, len(t.buckets))
	}
	// Entries are moved a chunk at a time through a small buffer: the
	// loops stay tight, without a call per entry.
	buf := make([]uint64, 0, chunkBuckets*bucketCells)
	for pos := 0; pos >= 0; {
		buf, pos = old.chunk(buf[:0], pos)
		if used == nil {
			for _, e := range buf {
				t.putWide(e>>16, uint16(e))
			}
			continue
		}
		t.placeAll(used, buf)
	}
	for key, slot := range old.stash {
		if used == nil {
			t.putWide(key, slot)
		} else {
			t.place(used, key, slot)
		}
	}
}

// placeAll adds entries, key<<16 | slot, to a packed table being rebuilt,
// where used counts the filled cells of each bucket. Most land in their
// home bucket, which is handled here without a call.
func (t *table) placeAll(used []uint8, entries []uint64) {
	for _, e := range entries {
		b := t.homeBucket(e >> 16)
		i := used[b]
		if i >= bucketCells {
			t.place(used, e>>16, uint16(e))
			continue
		}
		used[b]++
		bk := &t.buckets[b]
		// A fresh cell: its tag and shift are zero.
		bk.tags[i/2] |= uint64(uint32(e>>16)) << (32 * (i % 2))
		bk.slots[i] = uint16(e)
		t.n++
	}
}

// place adds key to a packed table being rebuilt, where used counts the
// filled cells of each bucket.
func (t *table) place(used []uint8, key uint64, slot uint16) {
	t.n++
	home := t.homeBucket(key)
	for shift, b := 0, home; shift < maxShift; shift++ {
		if i := used[b]; i < bucketCells {
			used[b]++
			bk := &t.buckets[b]
			bk.setTag(int(i), uint32(key))
			bk.slots[i] = slot
			bk.meta |= uint32(shift) << (3 * i)
			t.markPassed(home, shift)
			return
		}
		b = t.next(b)
	}
	t.stashKey(home, key, slot)
}

// chunkBuckets is how many packed buckets chunk decodes at a time (wide
// cells: that many times bucketCells).
const chunkBuckets = 64

// chunk appends to dst the entries, key<<16 | slot, of the cells or
// buckets from pos on, a chunk of them, and returns where the next chunk
// starts, or -1 after the last. Stashed entries are not included.
func (t *table) chunk(dst []uint64, pos int) ([]uint64, int) {
	if len(t.cells) > 0 {
		end := min(len(t.cells), pos+chunkBuckets*bucketCells)
		// Without a branch: which cells are empty is a coin toss at the
		// loads kept, one the branch predictor loses.
		cells := t.cells[pos:end]
		dst = slices.Grow(dst, len(cells))
		out, n := dst[len(dst):len(dst)+len(cells)], 0
		for _, c := range cells {
			out[n] = c
			n += b2i(c != 0)
		}
		dst = dst[:len(dst)+n]
		if end == len(t.cells) {
			end = -1
		}
		return dst, end
	}
	nb := len(t.buckets)
	if nb == 0 {
		return dst, -1
	}
	end := min(nb, pos+chunkBuckets)
	// The first keys of the last maxShift buckets, by bucket number
	// modulo maxShift: an entry's key is its tag placed after the first
	// key of its home bucket, shift buckets back. Buckets before 0 are
	// the end of the table, where probes wrap around.
	var first [maxShift]uint64
	for b := pos - (maxShift - 1); b < pos; b++ {
		first[b&(maxShift-1)] = t.firstKey((b + nb) % nb)
	}
	// First keys step by 2^48/nb: a quotient and remainder carried from
	// bucket to bucket replace a division per bucket.
	q, r := bits.Div64(uint64(pos)>>(64-keyBits), uint64(pos)<<keyBits, uint64(nb))
	stepQ, stepR := bits.Div64(0, 1<<keyBits, uint64(nb))
	dst = slices.Grow(dst, (end-pos)*bucketCells)
	out, n := dst[len(dst):len(dst)+(end-pos)*bucketCells], 0
	for b := pos; b < end; b++ {
		lo := q
		if r != 0 {
			lo++
		}
		first[b&(maxShift-1)] = lo
		if q, r = q+stepQ, r+stepR; r >= uint64(nb) {
			q, r = q+1, r-uint64(nb)
		}
		bk := &t.buckets[b]
		for i := range bucketCells {
			tag := bk.tag(i)
			lo := first[(b-shiftOf(bk.meta, i))&(maxShift-1)]
			out[n] = (lo+uint64(tag-uint32(lo)))<<16 | uint64(bk.slots[i])
			n += b2i(tag != 0)
		}
	}
	dst = dst[:len(dst)+n]
	if end == nb {
		end = -1
	}
	return dst, end
}

// purge deletes, in place, every entry whose slot is dead, then shrinks the
// table if it became mostly empty.
func (t *table) purge(dead []bool) {
	for i := 0; i < len(t.cells); {
		if c := t.cells[i]; c != 0 && dead[uint16(c)] {
			t.deleteAt(i)
			continue // deleteAt may have moved a later entry into i
		}
		i++
	}
	if len(t.buckets) > 0 {
		t.purgePacked(dead)
	}
	if t.capacity() > minTableCap && t.n*4 < t.capacity() {
		t.resize()
	}
}

// bytes is the memory t holds; a stashed entry costs about what a map
// entry does.
func (t *table) bytes() int { return 8*len(t.cells) + 64*len(t.buckets) + 32*len(t.stash) }

func (t *table) capacity() int { return len(t.cells) + len(t.buckets)*bucketCells }

// purgePacked empties the cells of dead slots where they are (a packed
// entry never moves: its shift says where its home is) and recomputes the
// overflow bits, which the survivors may no longer need.
func (t *table) purgePacked(dead []bool) {
	for b := range t.buckets {
		bk := &t.buckets[b]
		bk.meta &^= overflowBit
		for i := range bucketCells {
			if bk.tag(i) != 0 && dead[bk.slots[i]] {
				bk.setTag(i, 0)
				t.n--
			}
		}
	}
	for b := range t.buckets {
		bk := &t.buckets[b]
		for i := range bucketCells {
			if shift := shiftOf(bk.meta, i); bk.tag(i) != 0 && shift > 0 {
				home := b - shift
				if home < 0 {
					home += len(t.buckets)
				}
				t.markPassed(home, shift)
			}
		}
	}
	for key, slot := range t.stash {
		if dead[slot] {
			delete(t.stash, key)
			t.n--
			continue
		}
		t.markPassed(t.homeBucket(key), maxShift)
	}
}

// deleteAt empties wide cell i and shifts later entries of the probe run
// back so that every remaining key is still reachable from its home without
// tombstones.
func (t *table) deleteAt(i int) {
	n := len(t.cells)
	for j := i; ; {
		if j++; j == n {
			j = 0
		}
		c := t.cells[j]
		if c == 0 {
			break
		}
		h := t.home(c >> 16)
		// The entry at j may stay if its home lies cyclically in (i, j].
		if (i < j && i < h && h <= j) || (i > j && (i < h || h <= j)) {
			continue
		}
		t.cells[i] = c
		i = j
	}
	t.cells[i] = 0
	t.n--
}

// touch loads the home cell or bucket of each key and returns a value that
// depends on them all, so that the loads are not optimised away.
func (t *table) touch(keys []uint64) uint64 {
	var sum uint64
	if len(t.buckets) > 0 {
		for _, k := range keys {
			sum += uint64(t.buckets[t.homeBucket(k)].meta)
		}
		return sum
	}
	if len(t.cells) == 0 {
		return 0
	}
	for _, k := range keys {
		sum += t.cells[t.home(k)]
	}
	return sum
}
