package boltfile

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreelistPastItsCountField: a free list of 0xFFFF pages or more
// keeps its count in the first element (256 MiB of free pages, too many
// to write in a test).
func TestFreelistPastItsCountField(t *testing.T) {
	const ps, pages = 1024, 10
	le := binary.NativeEndian
	page := func(free []uint64, count uint16, real uint64) *tree {
		file := make([]byte, ps*pages)
		p := file[2*ps:]
		le.PutUint64(p, 2)
		le.PutUint16(p[8:], freelistFlag)
		le.PutUint16(p[10:], count)
		at := pageHeaderSize
		if count == countOverflow {
			le.PutUint64(p[at:], real)
			at += 8
		}
		for _, id := range free {
			le.PutUint64(p[at:], id)
			at += 8
		}
		return &tree{r: bytes.NewReader(file), pageSize: ps, pages: pages, used: make([]bool, pages), le: le}
	}
	tr := page([]uint64{3, 4, 5}, countOverflow, 3)
	require.NoError(t, tr.freelist(2))
	assert.Equal(t, []uint64{3, 4, 5}, tr.free)

	tr = page([]uint64{3, 4, 5}, 3, 0)
	require.NoError(t, tr.freelist(2))
	assert.Equal(t, []uint64{3, 4, 5}, tr.free)

	assert.ErrorContains(t, page(nil, countOverflow, 1<<40).freelist(2), "more than it holds")
	assert.ErrorContains(t, page([]uint64{3, 12}, 2, 0).freelist(2), "page 12 as free, outside the file's 10 pages")
}
