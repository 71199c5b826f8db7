// Package learned is a small learned scorer for prompt injection: a
// logistic regression over hashed words, word pairs and character
// n-grams of canonicalised text (features.go), scored over every window
// of Window consecutive words and max-pooled, so that one injected
// sentence in a long page scores as itself. It is pure Go, CPU only and
// linear in the text: each word's features are hashed once and the
// windows slide over running sums.
//
// The weights are trained by ./train from data named there (BIPIA's
// training split read in place, templates and benign text written in this
// repository, the Go distribution's own documentation), with a fixed
// seed, and embedded quantised to one byte each (model.bin).
//
// The score is one signal among the rules' (see the injection package):
// it knows words, not intent, and is never trusted alone to change what a
// model reads.
package learned

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
)

//go:embed model.bin
var modelBin []byte

// Model is a trained scorer. It is read-only and safe for concurrent use.
type Model struct {
	// Bits: the table has 1<<Bits weights, indexed by feature hash.
	Bits uint8
	// Window is how many words one window holds.
	Window int
	Bias   float32
	// Weights, each Scale times its byte.
	Scale   float32
	Weights []int8
}

// Window is the best-scoring window of a text.
type Window struct {
	// P is the model's probability that the window is an injection.
	P float64
	// Start and End delimit the window in bytes of the text.
	Start, End int
}

const magic = "FLWDLRN1"

var (
	loadOnce sync.Once
	embedded *Model
	loadErr  error
)

// Embedded returns the model built into flowd. A model that does not
// decode is a build defect that TestEmbeddedLoads catches.
func Embedded() (*Model, error) {
	loadOnce.Do(func() { embedded, loadErr = Decode(modelBin) })
	return embedded, loadErr
}

// Encode writes m in the format Decode reads.
func (m *Model) Encode() []byte {
	out := make([]byte, 0, len(magic)+10+len(m.Weights))
	out = append(out, magic...)
	out = append(out, m.Bits, byte(m.Window))
	out = binary.LittleEndian.AppendUint32(out, math.Float32bits(m.Bias))
	out = binary.LittleEndian.AppendUint32(out, math.Float32bits(m.Scale))
	for _, w := range m.Weights {
		out = append(out, byte(w))
	}
	return out
}

// Decode reads a model written by Encode.
func Decode(b []byte) (*Model, error) {
	if len(b) < len(magic)+10 || string(b[:len(magic)]) != magic {
		return nil, errors.New("learned model: not a model file (bad magic)")
	}
	b = b[len(magic):]
	m := &Model{Bits: b[0], Window: int(b[1])}
	m.Bias = math.Float32frombits(binary.LittleEndian.Uint32(b[2:]))
	m.Scale = math.Float32frombits(binary.LittleEndian.Uint32(b[6:]))
	b = b[10:]
	if m.Bits < 8 || m.Bits > 24 || m.Window < 1 || len(b) != 1<<m.Bits {
		return nil, fmt.Errorf("learned model: %d weights for %d bits, window %d", len(b), m.Bits, m.Window)
	}
	m.Weights = make([]int8, len(b))
	for i, c := range b {
		m.Weights[i] = int8(c)
	}
	return m, nil
}

// WordFeatures returns the feature hashes of each word of text, unmasked:
// what the trainer builds its windows from.
func WordFeatures(text string) [][]uint32 {
	ws := tokenize(text)
	out := make([][]uint32, len(ws.ts))
	for i := range ws.ts {
		out[i] = features(nil, &ws, i)
	}
	return out
}

// WindowLogit is the score before the sigmoid of a window whose words
// have features fs, with weights read by weight: the sum of its weights
// over the square root of its number of features.
func WindowLogit(fs [][]uint32, weight func(uint32) float32) float32 {
	var s float32
	n := 0
	for _, f := range fs {
		for _, h := range f {
			s += weight(h)
		}
		n += len(f)
	}
	if n == 0 {
		return 0
	}
	return s / float32(math.Sqrt(float64(n)))
}

// MinWords is the fewest words a text must have to be scored: a field of
// a word or two (a MIME type, an encoding's name) says too little, and the
// model is trained on sentences.
const MinWords = 6

// Score returns the best window of text; a text of fewer than MinWords
// words scores 0.
func (m *Model) Score(text string) Window {
	ws := tokenize(text)
	ts := ws.ts
	if len(ts) < MinWords {
		return Window{}
	}
	// The window's weights (in quantised units) and features are running
	// sums; rings of the window's length hold what each word added, to
	// take it off when the word leaves.
	w := min(m.Window, len(ts))
	ringW, ringN := make([]int32, w), make([]int32, w)
	var sumW, sumN int32
	var hs []uint32
	mask := uint32(1)<<m.Bits - 1
	best, at := float32(math.Inf(-1)), 0
	for i := range ts {
		hs = features(hs[:0], &ws, i)
		var s int32
		for _, h := range hs {
			s += int32(m.Weights[h&mask])
		}
		k := i % w
		sumW += s - ringW[k]
		sumN += int32(len(hs)) - ringN[k]
		ringW[k], ringN[k] = s, int32(len(hs))
		if i+1 < w {
			continue
		}
		if z := float32(sumW) * m.Scale / float32(math.Sqrt(float64(sumN))); z > best {
			best, at = z, i+1-w
		}
	}
	return Window{P: sigmoid(float64(m.Bias + best)), Start: int(ts[at].start), End: int(ts[at+w-1].end)}
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
