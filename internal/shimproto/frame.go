package shimproto

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/flowd-dev/flowd/internal/rawio"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

// Version names this protocol in the HTTP Upgrade header.
const Version = "flowd-shim/1"

// Path is the HTTP endpoint a shim upgrades.
const Path = "/api/v1/shim"

// FrameType tags a frame.
type FrameType uint8

const (
	TypeHello    FrameType = 1 // shim → flowd, JSON Hello
	TypeWelcome  FrameType = 2 // flowd → shim, JSON Welcome
	TypeMessage  FrameType = 3 // shim → flowd, one MCP message
	TypeVerdict  FrameType = 4 // flowd → shim, the answer to one Message
	TypeUpstream FrameType = 5 // shim → flowd, JSON UpstreamEvent
	TypeAnswer   FrameType = 6 // shim → flowd, JSON Answer: the user's answer to an Ask verdict
	TypeToClient FrameType = 7 // flowd → shim, one MCP message line for the shim to write to the client
	TypeGrant    FrameType = 8 // flowd → shim, JSON Grant: what the shim may forward without waiting for a verdict
	// TypeAlive, flowd → shim, empty: flowd is working on what the shim
	// sent and has not answered yet. flowd sends one at least every
	// Welcome.AliveMS while it owes the shim verdicts, so a shim can tell
	// a flowd that is slow from one that is gone (stopped, hung, dead).
	TypeAlive FrameType = 9
	// TypeServerClass, flowd → shim, JSON ServerClass: flowd's reading of
	// the server changed after the Welcome (its tools can send data out).
	TypeServerClass FrameType = 10
)

// Direction of an MCP message.
type Direction uint8

const (
	ClientToServer Direction = 0
	ServerToClient Direction = 1
)

func (d Direction) String() string {
	if d == ServerToClient {
		return "server→client"
	}
	return "client→server"
}

// Action is what the shim does with a message.
type Action uint8

const (
	Pass    Action = 0 // forward the original bytes
	Drop    Action = 1 // forward nothing
	Replace Action = 2 // forward Data instead
	Respond Action = 3 // forward nothing; send Data back to the sender (a blocked request's reply)
	// Ask holds a client request while the shim asks the user through the
	// client (MCP elicitation); Data is a JSON Question. The shim then
	// forwards the request or answers it blocked, and tells flowd with an
	// Answer frame.
	Ask Action = 4
)

func (a Action) String() string {
	switch a {
	case Pass:
		return "pass"
	case Drop:
		return "drop"
	case Replace:
		return "replace"
	case Respond:
		return "respond"
	case Ask:
		return "ask"
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// Hello introduces a shim. Session hints let flowd join the shim to the
// agent session it belongs to.
type Hello struct {
	PID     int             `json:"pid"`
	Name    string          `json:"name,omitempty"` // --name, if given
	Command []string        `json:"command"`
	Session sessionid.Hints `json:"session"`
}

// Welcome is flowd's answer to Hello: the settings the shim follows.
type Welcome struct {
	Version         string `json:"version"`
	Session         string `json:"session"`
	FailMode        string `json:"fail_mode"`
	VerdictTimeout  int64  `json:"verdict_timeout_ms"`
	MaxInspectBytes int    `json:"max_inspect_bytes"`
	// AliveMS is how often at least flowd sends an Alive frame while it
	// owes the shim a verdict; zero: this flowd sends none.
	AliveMS int64 `json:"alive_ms,omitempty"`
	// ServerClass is the class flowd gives the shim's server by the
	// client's name and command for it ("internal", "external",
	// "hybrid", "unknown"); "" from a flowd that does not say. While a
	// connected flowd is silent (stopped or stuck) the shim lets calls
	// pass under fail_mode open only to a server classed "internal":
	// an agent that can pause flowd must not open the way out by it.
	ServerClass string `json:"server_class,omitempty"`
}

// ServerClass replaces Welcome.ServerClass: flowd learnt more about the
// server than its name told (a tool of a server named like an internal
// one that sends data out), and the shim fails closed for it from then
// on while flowd is silent. A shim that does not know the frame skips it.
type ServerClass struct {
	ServerClass string `json:"server_class"`
}

// KeepsDataIn is the ServerClass a shim may fail open for while flowd is
// silent.
const KeepsDataIn = "internal"

// Question is what the shim asks the user about a held request.
type Question struct {
	// Elicitation is the params of the elicitation/create request the shim
	// sends to the client.
	Elicitation json.RawMessage `json:"elicitation"`
	// DenyReason is the text of the blocked result when the user does not
	// allow the call.
	DenyReason string `json:"deny_reason"`
	// TimeoutMS is how long the shim waits for the user; no answer denies.
	TimeoutMS int64 `json:"timeout_ms"`
	// Forward, when set, is the line to send upstream in place of the held
	// one if the user allows the call.
	Forward string `json:"forward,omitempty"`
}

// AllowField is the boolean the elicitation's form asks the user to set:
// only an accepted form with it true lets the call through.
const AllowField = "allow"

// Answer tells flowd what the user decided about an Ask verdict's message.
type Answer struct {
	Seq     uint64 `json:"seq"`
	Allowed bool   `json:"allowed"`
	// Outcome is the elicitation's action ("accept", "decline", "cancel"),
	// or "timeout" or "error" when the client gave none.
	Outcome string `json:"outcome"`
}

// Grant lets a shim forward a client's tools/call to one of Tools at once,
// unless its arguments name one of Hosts (policy.SuspiciousHost, decoded
// views included) or exceed max_inspect_bytes. The shim still shows flowd
// each such call, marked Forwarded, before it writes the call to its
// server, and flowd sends no verdict for it. Each Grant replaces the one
// before; an empty one withdraws it. A grant ends with the connection it
// came on.
//
// flowd grants a tool only where its decision cannot depend on the
// arguments otherwise: a destination policy does not count as able to send
// data out (internal: what flowd cannot classify counts as able to), allowed
// by policy. It withdraws grants before anything that could change that
// decision takes effect (a config reload, a new tool list, a new name for
// the server).
//
// Seq numbers a connection's grants from 1: flowd may write them out of
// order, and the shim applies only one newer than any it applied.
type Grant struct {
	Seq   uint64   `json:"seq"`
	Tools []string `json:"tools"`
	Hosts []string `json:"hosts,omitempty"`
	// Guarded are what names flowd's own files and the agents' hook and
	// client files (lower case): a call whose text holds one waits for
	// its verdict, which is where self-protection reads it.
	Guarded []string `json:"guarded,omitempty"`
}

// UpstreamEvent tells flowd what became of the upstream process.
type UpstreamEvent struct {
	Exited   bool `json:"exited"`
	ExitCode int  `json:"exit_code"`
}

// Message is one MCP message seen by the shim.
type Message struct {
	Seq       uint64
	Dir       Direction
	Truncated bool // Data is the first max_inspect_bytes of a longer line
	// Forwarded: the shim sent this client request on under a Grant
	// without waiting; flowd answers it with no verdict.
	Forwarded bool
	Data      []byte
	// Size and Tail, for a truncated message: the whole line's length and
	// its end, of which WriteMessage sends the last MaxTail bytes: where a
	// server that writes "id" last puts it, so flowd can still tell which
	// request it answers.
	Size int
	Tail []byte
}

// MaxTail bounds Message.Tail.
const MaxTail = 256

// Verdict answers the Message with the same Seq.
type Verdict struct {
	Seq    uint64
	Action Action
	Data   []byte
}

// MaxFrame bounds a frame so a corrupt length cannot make either side
// allocate without limit. flowd reads a shim's frames under a tighter
// limit (Reader.SetLimit, FrameLimit).
const MaxFrame = 1 << 30

// FrameLimit is the largest frame flowd reads whole from a shim welcomed with
// maxInspect as MaxInspectBytes. A result is cut to maxInspect bytes (plus
// its fixed fields, tail and type byte), but a client's request is shown
// whole, as its method and tool name may sit anywhere in it: flowd reads
// requests up to RequestFactor times maxInspect, far more than a model
// writes into one call.
func FrameLimit(maxInspect int) int {
	return min(MaxFrame, RequestFactor*maxInspect+1+16+MaxTail)
}

// RequestFactor bounds a client request against max_inspect_bytes.
const RequestFactor = 4

// HelloLimit bounds the frames before the Welcome: a Hello is a command
// line and a few session hints.
const HelloLimit = 1 << 20

// FrameTooLargeError is a frame whose length is over the reader's limit
// and that is not a message Next can cut: the connection is unusable.
type FrameTooLargeError struct {
	Size, Limit int
}

func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("shimproto: frame of %d bytes is over the limit of %d", e.Size, e.Limit)
}

const headerLen = 5

// Writer writes frames. It is not safe for concurrent use; callers that
// share a connection hold a lock around WriteX calls.
type Writer struct {
	w   io.Writer
	hdr [headerLen + 16 + MaxTail]byte
	buf []byte // a small frame, gathered for one write
}

// NewWriter writes frames to w, a connection or rawio's view of one.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// gather is the largest frame copied into one buffer for a single write;
// a larger one goes out as header and data without a copy.
const gather = 64 << 10

func (w *Writer) frame(t FrameType, fixed []byte, data []byte) error {
	n := 1 + len(fixed) + len(data)
	if n > MaxFrame {
		return fmt.Errorf("shimproto: frame of %d bytes exceeds limit", n)
	}
	binary.BigEndian.PutUint32(w.hdr[:4], uint32(n))
	w.hdr[4] = byte(t)
	copy(w.hdr[headerLen:], fixed)
	head := w.hdr[:headerLen+len(fixed)]
	if n <= gather {
		w.buf = append(append(w.buf[:0], head...), data...)
		_, err := w.w.Write(w.buf)
		return err
	}
	bufs := net.Buffers{head, data}
	_, err := bufs.WriteTo(w.w)
	return err
}

func (w *Writer) WriteJSON(t FrameType, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return w.frame(t, nil, b)
}

func (w *Writer) WriteMessage(m Message) error {
	var fixed [16 + MaxTail]byte
	binary.BigEndian.PutUint64(fixed[:8], m.Seq)
	fixed[8] = byte(m.Dir)
	if m.Forwarded {
		fixed[9] = flagForwarded
	}
	if !m.Truncated {
		return w.frame(TypeMessage, fixed[:10], m.Data)
	}
	fixed[9] |= flagTruncated
	tail := m.Tail[max(0, len(m.Tail)-MaxTail):]
	binary.BigEndian.PutUint32(fixed[10:14], uint32(m.Size))
	binary.BigEndian.PutUint16(fixed[14:16], uint16(len(tail)))
	n := copy(fixed[16:], tail)
	return w.frame(TypeMessage, fixed[:16+n], m.Data)
}

// WriteToClient sends one MCP message line for the shim to write to its
// client.
func (w *Writer) WriteToClient(line []byte) error {
	return w.frame(TypeToClient, nil, line)
}

// WriteAlive tells the shim that flowd is still working on its messages.
func (w *Writer) WriteAlive() error {
	return w.frame(TypeAlive, nil, nil)
}

func (w *Writer) WriteVerdict(v Verdict) error {
	var fixed [9]byte
	binary.BigEndian.PutUint64(fixed[:8], v.Seq)
	fixed[8] = byte(v.Action)
	return w.frame(TypeVerdict, fixed[:], v.Data)
}

// Bits of a Message frame's flags byte.
const (
	flagTruncated = 1 << iota
	flagForwarded
)

// Reader reads frames.
type Reader struct {
	r     *bufio.Reader
	hdr   [headerLen]byte
	limit int
}

func NewReader(r *bufio.Reader) *Reader { return &Reader{r: r, limit: MaxFrame} }

// SetLimit bounds the frames Next accepts from now on, type byte included,
// at most MaxFrame.
func (r *Reader) SetLimit(n int) { r.limit = min(n, MaxFrame) }

// Frames returns the frame reader and writer of an upgraded connection c,
// whose first bytes br has read. They take rawio's path: frames are the
// latency of every tool call.
func Frames(c net.Conn, br *bufio.Reader) (*Reader, *Writer) {
	return NewReader(bufio.NewReaderSize(rawio.After(br, c), 64<<10)), NewWriter(rawio.Writer(c))
}

// Next reads one frame. The payload is freshly allocated: it is handed to
// other goroutines and kept in pending-message queues. A message over the
// limit is read as a shim cuts one, keeping its start and end and passing
// over the rest, so that its sender can be answered; any other frame over
// it is a *FrameTooLargeError.
func (r *Reader) Next() (FrameType, []byte, error) {
	if _, err := io.ReadFull(r.r, r.hdr[:]); err != nil {
		return 0, nil, err
	}
	n := int(binary.BigEndian.Uint32(r.hdr[:4]))
	if n < 1 {
		return 0, nil, fmt.Errorf("shimproto: bad frame length %d", n)
	}
	if n > r.limit {
		if FrameType(r.hdr[4]) != TypeMessage {
			return 0, nil, &FrameTooLargeError{Size: n, Limit: r.limit}
		}
		p, err := r.cut(n-1, r.limit)
		if err != nil {
			return 0, nil, err
		}
		return TypeMessage, p, nil
	}
	p, err := readN(r.r, n-1)
	if err != nil {
		return 0, nil, fmt.Errorf("shimproto: short frame: %w", err)
	}
	return FrameType(r.hdr[4]), p, nil
}

// cutHead is how much of a message over the limit cut keeps: enough to
// find its id, which is all its answer needs.
const cutHead = 64 << 10

// cut reads a message payload of n bytes, over limit, and returns it as a
// cut message: its fixed fields, its first cutHead bytes of data and its
// last MaxTail.
func (r *Reader) cut(n, limit int) ([]byte, error) {
	var fixed [10]byte
	if _, err := io.ReadFull(r.r, fixed[:]); err != nil {
		return nil, fmt.Errorf("shimproto: short frame: %w", err)
	}
	if fixed[9]&flagTruncated != 0 {
		// Already cut by the shim, to more than it was welcomed with.
		return nil, &FrameTooLargeError{Size: n + 1, Limit: limit}
	}
	size := n - len(fixed)
	head, err := readN(r.r, min(size, cutHead))
	if err != nil {
		return nil, fmt.Errorf("shimproto: short frame: %w", err)
	}
	tail := make([]byte, min(MaxTail, size-len(head)))
	if _, err := io.CopyN(io.Discard, r.r, int64(size-len(head)-len(tail))); err != nil {
		return nil, fmt.Errorf("shimproto: short frame: %w", err)
	}
	if _, err := io.ReadFull(r.r, tail); err != nil {
		return nil, fmt.Errorf("shimproto: short frame: %w", err)
	}
	p := make([]byte, 16, 16+len(tail)+len(head))
	copy(p, fixed[:])
	p[9] |= flagTruncated
	binary.BigEndian.PutUint32(p[10:14], uint32(size))
	binary.BigEndian.PutUint16(p[14:16], uint16(len(tail)))
	return append(append(p, tail...), head...), nil
}

// firstRead is what readN allocates before any of a payload has arrived.
const firstRead = 64 << 10

// readN reads n bytes into a buffer that grows with what arrives, so that a
// length a peer claims and does not send costs nothing: memory follows
// the bytes received, at most twice them.
func readN(r io.Reader, n int) ([]byte, error) {
	p := make([]byte, min(n, firstRead))
	got := 0
	for {
		m, err := io.ReadFull(r, p[got:])
		got += m
		if err != nil {
			return nil, err
		}
		if got == n {
			return p, nil
		}
		grown := make([]byte, got+min(n-got, got))
		copy(grown, p)
		p = grown
	}
}

var errShort = errors.New("shimproto: frame payload too short")

func DecodeMessage(p []byte) (Message, error) {
	if len(p) < 10 {
		return Message{}, errShort
	}
	m := Message{
		Seq:       binary.BigEndian.Uint64(p[:8]),
		Dir:       Direction(p[8]),
		Truncated: p[9]&flagTruncated != 0,
		Forwarded: p[9]&flagForwarded != 0,
		Data:      p[10:],
	}
	if m.Forwarded && m.Dir != ClientToServer {
		return Message{}, errors.New("shimproto: only a client's request can be forwarded")
	}
	if !m.Truncated {
		return m, nil
	}
	if len(p) < 16 {
		return Message{}, errShort
	}
	m.Size = int(binary.BigEndian.Uint32(p[10:14]))
	tl := int(binary.BigEndian.Uint16(p[14:16]))
	if len(p) < 16+tl {
		return Message{}, errShort
	}
	m.Tail, m.Data = p[16:16+tl], p[16+tl:]
	return m, nil
}

func DecodeVerdict(p []byte) (Verdict, error) {
	if len(p) < 9 {
		return Verdict{}, errShort
	}
	return Verdict{Seq: binary.BigEndian.Uint64(p[:8]), Action: Action(p[8]), Data: p[9:]}, nil
}
