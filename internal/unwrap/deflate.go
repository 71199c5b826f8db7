package unwrap

import (
	"bytes"
	"compress/flate"
	"io"
)

// inflateRaw adds to out what b inflates to as raw deflate (no gzip or
// zlib header: what deflate APIs write by default). With no header to
// know it by, any binary run is tried: what comes out is kept only when
// the stream reads whole to its end, within maxInflate, and is text.
// Random bytes fail within a few bytes (a reserved block type, a length
// and its complement that disagree, a distance before the start).
func inflateRaw(out [][]byte, b []byte) [][]byte {
	if len(b) < 8 || textLike(b) {
		return out
	}
	u, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(b)), maxInflate+1))
	if err != nil || len(u) > maxInflate || !textLike(u) {
		return out
	}
	return append(out, u)
}
