package shimproto

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"net"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMessageRoundTrip(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 1000)
	tests := []Message{
		{Seq: 1, Dir: ClientToServer, Data: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")},
		{Seq: 2, Dir: ServerToClient, Truncated: true, Data: []byte(`{"result":{"text":"xxxx`), Size: 5000,
			Tail: []byte(`xxxx"},"jsonrpc":"2.0","id":2}` + "\n")},
		// A tail longer than MaxTail keeps its last MaxTail bytes.
		{Seq: 3, Dir: ServerToClient, Truncated: true, Data: []byte("{"), Size: 1 << 30, Tail: long},
		{Seq: 4, Dir: ClientToServer, Forwarded: true, Data: []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call"}` + "\n")},
		{Seq: 5, Dir: ClientToServer, Forwarded: true, Truncated: true, Data: []byte("{"), Size: 10, Tail: []byte("}")},
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go func() {
		w := NewWriter(a)
		for _, m := range tests {
			w.WriteMessage(m)
		}
	}()
	r := NewReader(bufio.NewReader(b))
	for _, want := range tests {
		typ, p, err := r.Next()
		require.NoError(t, err)
		require.Equal(t, TypeMessage, typ)
		got, err := DecodeMessage(p)
		require.NoError(t, err)
		if len(want.Tail) > MaxTail {
			want.Tail = want.Tail[len(want.Tail)-MaxTail:]
		}
		assert.Equal(t, want.Seq, got.Seq)
		assert.Equal(t, want.Dir, got.Dir)
		assert.Equal(t, want.Truncated, got.Truncated)
		assert.Equal(t, want.Forwarded, got.Forwarded)
		assert.Equal(t, string(want.Data), string(got.Data))
		assert.Equal(t, want.Size, got.Size)
		assert.Equal(t, string(want.Tail), string(got.Tail))
	}
}

func TestDecodeMessageRejectsShortTruncated(t *testing.T) {
	_, err := DecodeMessage([]byte{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0})
	assert.Error(t, err)
	// A tail length past the payload's end.
	_, err = DecodeMessage([]byte{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 9, 0, 200, 'x'})
	assert.Error(t, err)
	// Only the shim's client sends requests it may forward.
	_, err = DecodeMessage([]byte{0, 0, 0, 0, 0, 0, 0, 1, byte(ServerToClient), flagForwarded, '{', '}'})
	assert.Error(t, err)
}

// A length over the limit is refused from the header alone, and a length
// claimed but not sent costs what was sent, not what was claimed.
func TestReaderLimitAllocatesWhatArrives(t *testing.T) {
	var hdr [headerLen]byte
	claim := func(n uint32) []byte {
		binary.BigEndian.PutUint32(hdr[:4], n)
		hdr[4] = byte(TypeMessage)
		return hdr[:]
	}
	measure := func(in []byte, limit int) (error, uint64) {
		r := NewReader(bufio.NewReader(bytes.NewReader(in)))
		r.SetLimit(limit)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := r.Next()
		runtime.ReadMemStats(&after)
		return err, after.TotalAlloc - before.TotalAlloc
	}

	err, alloc := measure(claim(1<<30), FrameLimit(16<<20))
	var tooLarge *FrameTooLargeError
	require.ErrorAs(t, err, &tooLarge)
	assert.Equal(t, FrameTooLargeError{Size: 1 << 30, Limit: FrameLimit(16 << 20)}, *tooLarge)
	assert.Less(t, alloc, uint64(64<<10))

	// Within the limit, a 512 MB claim followed by 1 MB and the end.
	err, alloc = measure(append(claim(512<<20), make([]byte, 1<<20)...), MaxFrame)
	assert.ErrorContains(t, err, "short frame")
	assert.Less(t, alloc, uint64(4<<20))

	// A frame sent whole is read whole.
	payload := bytes.Repeat([]byte("ab"), 300<<10)
	r := NewReader(bufio.NewReader(bytes.NewReader(append(claim(uint32(len(payload)+1)), payload...))))
	r.SetLimit(FrameLimit(len(payload) / RequestFactor))
	typ, p, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, TypeMessage, typ)
	assert.Equal(t, payload, p)
}
