package shimproto

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"net"
	"runtime"
	"strings"
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
	claim := func(n uint32, t ...FrameType) []byte {
		var hdr [headerLen]byte
		binary.BigEndian.PutUint32(hdr[:4], n)
		hdr[4] = byte(append(t, TypeMessage)[0])
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

	err, alloc := measure(claim(1<<30, TypeAnswer), FrameLimit(16<<20))
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

// A message over the limit is read as a cut one: its start and end kept,
// the rest passed over without being held.
func TestReaderCutsMessagesOverTheLimit(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{"a":"` +
		strings.Repeat("z", 8<<20) + `"}},"id":77}` + "\n")
	var buf bytes.Buffer
	require.NoError(t, NewWriter(&buf).WriteMessage(Message{Seq: 9, Dir: ClientToServer, Data: line}))
	// A second frame after it is read as usual.
	require.NoError(t, NewWriter(&buf).WriteJSON(TypeAnswer, Answer{Seq: 9}))
	r := NewReader(bufio.NewReader(&buf))
	r.SetLimit(FrameLimit(4096))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	typ, p, err := r.Next()
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "the 8 MB message is not held")
	assert.Equal(t, TypeMessage, typ)
	m, err := DecodeMessage(p)
	require.NoError(t, err)
	assert.Equal(t, Message{Seq: 9, Dir: ClientToServer, Truncated: true, Size: len(line),
		Data: line[:cutHead], Tail: line[len(line)-MaxTail:]}, m)
	typ, _, err = r.Next()
	require.NoError(t, err)
	assert.Equal(t, TypeAnswer, typ)
}
