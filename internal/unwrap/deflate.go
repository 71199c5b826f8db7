package unwrap

import (
	"bytes"
	"compress/flate"
	"io"
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
	if len(b) < 8 || b[0]>>1&3 == 3 || textLike(b) {
		return out
	}
	r := rawReaders.Get().(*rawReader)
	defer rawReaders.Put(r)
	r.src.Reset(b)
	if err := r.inflate.(flate.Resetter).Reset(&r.src, nil); err != nil {
		return out
	}
	u, err := io.ReadAll(io.LimitReader(r.inflate, maxInflate+1))
	if err != nil || len(u) > maxInflate || !textLike(u) {
		return out
	}
	return append(out, u)
}

type rawReader struct {
	src     bytes.Reader
	inflate io.ReadCloser
}

var rawReaders = sync.Pool{New: func() any {
	r := &rawReader{}
	r.inflate = flate.NewReader(&r.src)
	return r
}}
