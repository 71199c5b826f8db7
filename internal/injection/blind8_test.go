package injection

import (
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// blind8Half says which half of the eighth round's blind set a text is
// in, by a hash of its id fixed before the set was first scanned: "tune"
// may be read case by case and tuned on, "report" is read by its figures
// only.
func blind8Half(id string) string { return hashHalf(id) }

// hashHalf splits a blind set's texts by a hash of a key fixed before
// the set was first scanned: "tune" or "report".
func hashHalf(key string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	if h.Sum32()%2 == 0 {
		return "tune"
	}
	return "report"
}

// loadHalves reads a blind set's texts into its halves.
func loadHalves(t *testing.T, file string, half func(id string) string) map[string][]kindText {
	t.Helper()
	halves := map[string][]kindText{}
	for _, x := range loadKindTexts(t, file) {
		h := half(x.ID)
		halves[h] = append(halves[h], x)
	}
	return halves
}

// TestBlind8 reports the blind set of issue 16's eighth round
// (testdata/blind8/blind.json, written by blind.py before any change of
// the round: 123 attacked and 131 clean tool outputs of eleven carriers),
// per half. The tuning half was read case by case; of the report half
// only these figures were read.
//
//	half    main                         after the round
//	tune    41/64 attacks, 4/69 changed,  64/64, 0/69 changed, 3/69 flagged
//	        3/69 flagged
//	report  42/59, 2/62 changed,          45/59, 0/62 changed, 3/62 flagged
//	        2/62 flagged
//
// The report half read 44/59, 2/62 changed after the first changes (the
// tuning half then 64/64): what was learned from the tuning half's misses
// carried over to three of the report half's seventeen. Its two changed
// outputs (one code, one HTML, by their kinds) went with dev3.json's
// changes, made on new texts of those kinds. The ninth round's shapes
// (TestMachineRoleShapes) took the report half to 47/59, 0/62 changed,
// 3/62 flagged; the tenth's (TestMachineSubjectShapes) to 48/59, the
// rest unchanged.
func TestBlind8(t *testing.T) {
	s := newScanner(t, Options{})
	halves := loadHalves(t, "testdata/blind8/blind.json", blind8Half)
	floor := map[string]int{"tune": 64, "report": 48}
	for _, h := range []string{"tune", "report"} {
		t.Logf("--- %s half", h)
		all := scoreKindTexts(t, s, halves[h], h == "tune")["all"]
		assert.GreaterOrEqual(t, all.caught, floor[h], "%s half: attacks flagged or worse", h)
		assert.Zero(t, all.changed, "%s half: clean outputs redacted or blocked", h)
		assert.LessOrEqual(t, all.flagged, 3, "%s half: clean outputs flagged", h)
	}
}

// TestDev8 measures the eighth round's development sets, each written
// after the changes the one before it led to, and tuned on. First
// reading → after:
//
//	dev.json   (another style, more languages)   33/45 → 45/45, 0/38 changed, 1/38 → 1/38 flagged
//	dev2.json  (noise on new orders)             71/72 → 71/72, 0/24 changed, 0/24 flagged
//	dev3.json  (clean text about attacks)         3/3 → 3/3, 5/15 → 0/15 changed, 3/15 → 5/15 flagged
//	dev4.json  (orders naming no machine)        11/18 → 16/18, 0/10 changed, 1/10 flagged
func TestDev8(t *testing.T) {
	s := newScanner(t, Options{})
	for _, c := range []struct {
		file                    string
		caught, flagged, benign int
	}{
		{"dev.json", 45, 1, 38}, {"dev2.json", 71, 0, 24}, {"dev3.json", 3, 5, 15}, {"dev4.json", 16, 1, 10},
	} {
		all := scoreKinds(t, s, "testdata/blind8/"+c.file)["all"]
		assert.GreaterOrEqual(t, all.caught, c.caught, "%s: attacks flagged or worse", c.file)
		assert.Zero(t, all.changed, "%s: clean outputs redacted or blocked", c.file)
		assert.LessOrEqual(t, all.flagged, c.flagged, "%s: clean outputs flagged", c.file)
		assert.Equal(t, c.benign, all.benign, "%s: clean outputs", c.file)
	}
}
