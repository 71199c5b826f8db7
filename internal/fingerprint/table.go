package fingerprint

// table maps 48-bit hash keys to 16-bit origin slots. Each cell is one
// uint64, key<<16 | slot, in an open-addressing array with linear probing:
// 8 bytes an entry plus load slack, where a Go map would cost several times
// that, and a lookup touches one cache line. The window table is most of a
// session's memory.
//
// 48 bits keep false hits negligible: a lookup collides with one of N
// stored keys with probability N/2^48, about 10^-8 for a full session, and
// Match makes a few thousand lookups.
type table struct {
	cells []uint64
	n     int
}

const (
	keyBits     = 48
	keyMask     = 1<<keyBits - 1
	minTableCap = 64
)

// home spreads keys over the cells by their low 32 bits (keys are hashes, so
// those bits are uniform) without needing a power-of-two capacity.
func (t *table) home(key uint64) int {
	return int((key & 0xffffffff) * uint64(len(t.cells)) >> 32)
}

func (t *table) get(key uint64) (uint16, bool) {
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

// put stores key (non-zero, at most 48 bits) for slot, replacing an earlier
// slot: the newest origin that contains a fingerprint is the one reported.
func (t *table) put(key uint64, slot uint16) {
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

// full reports whether one more entry would push the load past 4/5. Past
// that, linear probing slows down sharply (and lookups are mostly misses).
func (t *table) full() bool { return (t.n+1)*5 > len(t.cells)*4 }

// resize rehashes into a table with load 3/5, or minTableCap: growth by
// a third at a time keeps the slack small, and amortised cost stays O(1).
func (t *table) resize() {
	old := t.cells
	t.cells = make([]uint64, max(minTableCap, t.n*5/3))
	t.n = 0
	for _, c := range old {
		if c != 0 {
			t.put(c>>16, uint16(c))
		}
	}
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
	if t.n*4 < len(t.cells) && len(t.cells) > minTableCap {
		t.resize()
	}
}

// deleteAt empties cell i and shifts later entries of the probe run back so
// that every remaining key is still reachable from its home without
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

// touch loads the home cell of each non-zero key and returns a value that
// depends on them all, so that the loads are not optimised away.
func (t *table) touch(keys []uint64) uint64 {
	if len(t.cells) == 0 {
		return 0
	}
	var sum uint64
	for _, k := range keys {
		sum += t.cells[t.home(k)]
	}
	return sum
}
