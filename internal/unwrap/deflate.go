package unwrap

import (
	"bytes"
	"compress/flate"
	"io"
	"math/bits"
	"slices"
	"sync"
)

// inflateRaw adds to out what b inflates to as raw deflate (no gzip or
// zlib header: what deflate APIs write by default). With no header to
// know it by, any binary run is tried: what comes out is kept only when
// the stream reads whole to its end, within maxInflate, and is text.
// Random bytes fail within a few bytes (a reserved block type, a length
// and its complement that disagree, a distance before the start); the
// readers are pooled, since each holds a 32 KB window that a new one
// clears.
func inflateRaw(out [][]byte, b []byte) [][]byte {
	if len(b) < 16 || !deflateStart(b) || textLike(b) {
		return out
	}
	r := rawReaders.Get().(*rawReader)
	defer rawReaders.Put(r)
	r.src.Reset(b)
	if err := r.inflate.(flate.Resetter).Reset(&r.src, nil); err != nil {
		return out
	}
	// Read a piece at a time, given up at the first piece that is not
	// text: random bytes can inflate to kilobytes of garbage before the
	// stream breaks.
	var u []byte
	checked := 0
	for len(u) <= maxInflate {
		u = slices.Grow(u, rawPiece)
		n, err := r.inflate.Read(u[len(u) : len(u)+rawPiece])
		u = u[:len(u)+n]
		if len(u)-checked >= rawPiece {
			if !textLike(u[checked:]) {
				return out
			}
			checked = len(u)
		}
		switch {
		case err == io.EOF:
			if !textLike(u) {
				return out
			}
			return append(out, u)
		case err != nil:
			return out
		}
	}
	return out
}

// rawPiece is how much inflateRaw reads before it looks at what came out.
const rawPiece = 256

type rawReader struct {
	src     bytes.Reader
	inflate io.ReadCloser
}

var rawReaders = sync.Pool{New: func() any {
	r := &rawReader{}
	r.inflate = flate.NewReader(&r.src)
	return r
}}

// deflateStart reports whether b can begin a raw deflate stream of text,
// read from its first block's header: a stored block's length and its
// complement agree; a block of fixed codes begins with a literal of text
// (nothing before it to copy); a block of its own codes has at most 286
// and 30 of them. Three runs of random bytes in four fail here, before a
// reader is reset (a few KB of tables) to try them.
func deflateStart(b []byte) bool {
	switch b[0] >> 1 & 3 {
	case 0:
		return b[1]^b[3] == 0xff && b[2]^b[4] == 0xff
	case 1:
		// The first code's bits come least significant first, the code
		// itself most significant bit first: 8-bit codes 0x30-0xbf are
		// the literals 0-143, and text begins with one of 9-126.
		code := bits.Reverse8(b[0]>>3 | b[1]<<5)
		return code >= 0x30+'\t' && code <= 0x30+'~'
	case 2:
		return b[0]>>3 <= 29 && b[1]&31 <= 29
	}
	return false
}
