package unwrap

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// viewBytes is what the views of text add to the matchers' input.
func viewBytes(text []byte) int {
	n := 0
	for _, v := range Views(text) {
		n += len(v)
	}
	return n
}

// Every matcher reads each view, so the views must stay linear in the
// text: at most viewFactor times it plus viewSlack, whatever the text
// (runs nested in runs, escapes everywhere, 16 MB of base64).
func FuzzViewsLinear(f *testing.F) {
	f.Add("%41%42" + strings.Repeat("QUJD", 100) + " deadbeef" + strings.Repeat("0", 64))
	f.Add(base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 300))))))
	f.Fuzz(func(t *testing.T, text string) {
		assert.LessOrEqual(t, viewBytes([]byte(text)), viewFactor*len(text)+viewSlack)
	})
}

func TestViewsLinearOnLargeInput(t *testing.T) {
	for _, unit := range []string{"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo", "%41+", "deadbeef", "a+b/c=d-e_f "} {
		for _, n := range []int{1 << 10, 1 << 20, 16 << 20} {
			text := []byte(strings.Repeat(unit, n/len(unit)+1)[:n])
			assert.LessOrEqual(t, viewBytes(text), viewFactor*n+viewSlack, "%q × %d bytes", unit, n)
		}
	}
}
