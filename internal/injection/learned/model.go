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
	"bytes"
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
//
// It sums the same weights as WordFeatures and WindowLogit would, in
// integers (quantised units), so the order it adds them in changes
// nothing: TestScoreMatchesReference holds it bit for bit to the plain
// scorer it replaced. What makes it cheaper: its buffers are reused
// (scratch), no feature hash is stored, and a word seen before in the
// same text reuses the sum of its own features (a word and its n-grams
// are the same wherever it stands; only the pair with the word before
// is new).
func (m *Model) Score(text string) Window {
	sc := scratchPool.Get().(*scratch)
	defer sc.put()
	ws := &sc.ws
	ws.tokenize(text)
	ts := ws.ts
	if len(ts) < MinWords {
		return Window{}
	}
	sc.newText()
	// The window's weights and features are running sums; rings of the
	// window's length hold what each word added, to take it off when
	// the word leaves.
	w := min(m.Window, len(ts))
	ringW, ringN := sc.rings(w)
	var sumW, sumN int32
	mask := uint32(1)<<m.Bits - 1
	var prevPair uint32 // the pair hash's prefix over the word before
	best, at := float32(math.Inf(-1)), 0
	for i := range ts {
		own := sc.own(m, i, mask)
		s, n := own.sum, own.n
		if i > 0 {
			s += int32(m.Weights[hashBytes(prevPair^' ', ws.word(i))&mask])
			n++
		}
		prevPair = own.pair
		k := i % w
		sumW += s - ringW[k]
		sumN += n - ringN[k]
		ringW[k], ringN[k] = s, n
		if i+1 < w {
			continue
		}
		if z := float32(sumW) * m.Scale / float32(math.Sqrt(float64(sumN))); z > best {
			best, at = z, i+1-w
		}
	}
	return Window{P: sigmoid(float64(m.Bias + best)), Start: int(ts[at].start), End: int(ts[at+w-1].end)}
}

// ownSum is what a word contributes to a window by itself: the sum of
// the weights of its word and n-gram features and how many there are,
// and the prefix of the hash of the pair it begins with the next word.
type ownSum struct {
	sum, n int32
	pair   uint32
}

// ownFeatures computes word's ownSum: the features features() lists
// but the pair, looked up as they are hashed.
func (m *Model) ownFeatures(word []byte, hw, mask uint32) ownSum {
	o := ownSum{sum: int32(m.Weights[hw&mask]), n: 1, pair: hashBytes(seedPair, word)}
	if len(word) > maxTokenBytes {
		word = word[:maxTokenBytes]
	}
	var marked [maxTokenBytes + 2]byte // "<word>"
	marked[0] = '<'
	l := copy(marked[1:], word)
	marked[l+1] = '>'
	mk := marked[:l+2]
	for a := 0; a+minGram <= len(mk); a++ {
		h := uint32(seedGram)
		for k, c := range mk[a:min(len(mk), a+maxGram)] {
			h ^= uint32(c)
			h *= fnvPrime
			if k+1 >= minGram {
				o.sum += int32(m.Weights[h&mask])
				o.n++
			}
		}
	}
	return o
}

// scratch is what one Score reuses from the last: the tokenizer's
// buffers, the rings and a cache of the words' own sums.
type scratch struct {
	ws           words
	ringW, ringN []int32
	// seen caches ownSums by word hash, direct-mapped; an entry is of
	// this text only when its gen is the text's (gen counts texts), and
	// names its word's bytes in ws.canon, compared on each hit, so a
	// hash collision is a miss, never a wrong sum.
	seen [seenSize]seenWord
	gen  uint32
}

const seenSize = 512

type seenWord struct {
	gen, hash uint32
	cs, ce    int32
	own       ownSum
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooledBytes bounds the buffers a scratch keeps between texts: a rare
// huge text should not pin its buffers for good.
const maxPooledBytes = 256 << 10

func (sc *scratch) put() {
	if cap(sc.ws.canon) > maxPooledBytes {
		return
	}
	scratchPool.Put(sc)
}

// newText starts a text: entries of earlier texts no longer count.
func (sc *scratch) newText() {
	sc.gen++
	if sc.gen == 0 { // wrapped: an entry of 2^32 texts ago would count again
		sc.seen = [seenSize]seenWord{}
		sc.gen = 1
	}
}

func (sc *scratch) rings(w int) ([]int32, []int32) {
	if cap(sc.ringW) < w {
		sc.ringW, sc.ringN = make([]int32, w), make([]int32, w)
	}
	sc.ringW, sc.ringN = sc.ringW[:w], sc.ringN[:w]
	clear(sc.ringW)
	clear(sc.ringN)
	return sc.ringW, sc.ringN
}

// own returns the ownSum of word i of the text, from the cache when the
// same word came before.
func (sc *scratch) own(m *Model, i int, mask uint32) ownSum {
	t := sc.ws.ts[i]
	word := sc.ws.canon[t.cs:t.ce]
	hw := hashBytes(seedWord, word)
	e := &sc.seen[(hw^hw>>16)%seenSize]
	if e.gen == sc.gen && e.hash == hw && bytes.Equal(sc.ws.canon[e.cs:e.ce], word) {
		return e.own
	}
	o := m.ownFeatures(word, hw, mask)
	*e = seenWord{gen: sc.gen, hash: hw, cs: t.cs, ce: t.ce, own: o}
	return o
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
