package fingerprint

import "math/bits"

// keyFilter is a bit per hashed key of a table, set for every key put in
// it: a lookup of a key whose bit is clear is a miss without reading the
// table. Most windows of a call are in no origin, and a miss in a table
// loaded to 4/5 probes a run of cells, where the filter is one bit in an
// array a tenth of the table's size, that stays in cache.
//
// Bits are only set: a key purged from the table keeps its bit until the
// filter is next sized (fit), which costs a lookup, never a miss.
type keyFilter struct {
	bits  []uint64
	shift uint // 64 − log2 of the number of bits
	set   int  // keys set since the filter was sized
}

// Filter bounds: at least filterBitsPerKey bits a key (at most one lookup
// in eight of a key not in the table still reads it; 1.5 to 3 bytes a
// key, where the table takes 7 to 20), from minFilterBits up.
const (
	filterBitsPerKey = 8
	minFilterBits    = 1 << 12
)

// bit is the filter's bit for key: the key mixed, its top bits.
func (f *keyFilter) bit(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> f.shift }

// mayHold reports whether key may be in the table: false only for a key
// never put since the filter was sized.
func (f *keyFilter) mayHold(key uint64) bool {
	if f.bits == nil {
		return false
	}
	b := f.bit(key)
	return f.bits[b/64]&(1<<(b%64)) != 0
}

func (f *keyFilter) add(key uint64) {
	b := f.bit(key)
	f.bits[b/64] |= 1 << (b % 64)
	f.set++
}

// fit readies the filter for m more keys of t: when they would fill it
// past filterBitsPerKey, it is sized anew for half as many keys again as
// t's and m more, and filled with t's keys (purged ones are gone from it
// then). Called before the m keys are put; the slack makes its refills
// cost O(1) a key, like the table's own growth, in a session that evicts
// as many keys as it puts.
func (f *keyFilter) fit(t *table, m int) {
	if f.bits != nil && (f.set+m)*filterBitsPerKey <= 64*len(f.bits) {
		return
	}
	n := max(minFilterBits, filterBitsPerKey*(t.n+m)*3/2)
	log := bits.Len(uint(n - 1)) // the power of two at or above n
	*f = keyFilter{bits: make([]uint64, (1<<log)/64), shift: uint(64 - log)}
	var buf []uint64
	for pos := 0; pos >= 0; {
		buf, pos = t.chunk(buf[:0], pos)
		for _, e := range buf {
			f.add(e >> 16)
		}
	}
	for key := range t.stash {
		f.add(key)
	}
}

// bytes is the memory the filter holds.
func (f *keyFilter) bytes() int { return 8 * len(f.bits) }
