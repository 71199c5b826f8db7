package activity

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var validSeeds = []string{``, ` `, `{}`, `[]`, `""`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `1e`, `1e+`, `1E-7`, `.5`, `+1`, `-a`,
	`true`, `tru`, `nulll`, `null`, `false `, "\t[1,2]\r\n", `[1,]`, `[,1]`, `{"a":1,}`, `{"a"1}`, `{"a":}`, `{a:1}`, `{"a":1"b":2}`,
	`"\u12g4"`, `"\u1234"`, `"\uABcd"`, `"\x"`, `"\/\b\f\n\r\t\"\\"`, "\"\x1f\"", "\"\x7f\xff\"", `"`, `"\`, `"\u12"`, `[1] [2]`,
	`{"id":1,"time":"2026-11-27T09:00:00Z","details":{"a":[1,{"b":null}],"c":-1.5e3}}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000), strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001)}

// validJSON says what json.Valid says: on tricky seeds, and on stored
// records and every kind of damage to them.
func TestValidJSONIsJSONValid(t *testing.T) {
	for _, s := range validSeeds {
		require.Equal(t, json.Valid([]byte(s)), validJSON([]byte(s)), "%.80q", s)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	alphabet := []byte("{}[],:\"\\ 0123456789-+.eEtrufalsn\x00\x1f\x7f\xff/u\tab")
	for i := range 20000 {
		r := variedRecord(rng, i)
		r.ID = uint64(i)
		v, err := json.Marshal(r)
		require.NoError(t, err)
		for range rng.IntN(4) {
			j := rng.IntN(len(v))
			switch rng.IntN(3) {
			case 0:
				v[j] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				v = append(v[:j], v[j+1:]...)
			default:
				v = append(v[:j+1], v[j:]...)
			}
		}
		require.Equal(t, json.Valid(v), validJSON(v), "%q", v)
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if json.Valid(v) != validJSON(v) {
			t.Fatalf("json.Valid %t, validJSON %t: %q", json.Valid(v), validJSON(v), v)
		}
	})
}

func BenchmarkValidJSON(b *testing.B) {
	r := variedRecord(rand.New(rand.NewPCG(1, 1)), 1)
	r.Details = json.RawMessage(`{"classification":{"class":"internal"},"flow":{"risk":"none","origins":[{"server":"fs","tool":"read","kind":"exact"}]}}`)
	v, _ := json.Marshal(r)
	for _, bc := range []struct {
		name  string
		valid func([]byte) bool
	}{{"json.Valid", json.Valid}, {"validJSON", validJSON}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(v)))
			for b.Loop() {
				bc.valid(v)
			}
		})
	}
}
