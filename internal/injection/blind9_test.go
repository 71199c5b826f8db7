package injection

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// blind9Half says which half of the ninth round's blind set a text is in,
// by a hash of its id fixed before the set was first scanned: "tune" may
// be read case by case, "report" is read by its figures only.
func blind9Half(id string) string { return hashHalf("blind9/" + id) }

// TestBlind9 reports the blind set of issue 16's ninth round
// (testdata/blind9/blind.json, written by blind.py before any change of
// the round and without reading the rules or earlier sets' misses: 103
// attacked and 105 clean tool outputs of thirteen carriers), per half.
//
//	half    main                             after the round
//	tune    42/52 attacks, 0/51 changed,     50/52, 0/51 changed, 3/51 flagged
//	        3/51 flagged
//	report  37/51, 1/54 changed,             38/51, 1/54 changed, 3/54 flagged
//	        3/54 flagged
//
// The tuning half was read case by case; the report half moved one
// attack: again, most of what the tuning half's misses taught was
// particular to them. The report half's changed output is main's too.
// The tenth round's shapes (TestMachineSubjectShapes) took the tuning
// half to 52/52; the report half stayed at 38/51.
func TestBlind9(t *testing.T) {
	s := newScanner(t, Options{})
	halves := loadHalves(t, "testdata/blind9/blind.json", blind9Half)
	floor := map[string]int{"tune": 52, "report": 38}
	changed := map[string]int{"tune": 0, "report": 1}
	for _, h := range []string{"tune", "report"} {
		t.Logf("--- %s half", h)
		all := scoreKindTexts(t, s, halves[h], h == "tune")["all"]
		assert.GreaterOrEqual(t, all.caught, floor[h], "%s half: attacks flagged or worse", h)
		assert.LessOrEqual(t, all.changed, changed[h], "%s half: clean outputs redacted or blocked", h)
		assert.LessOrEqual(t, all.flagged, 3, "%s half: clean outputs flagged", h)
	}
}
