package injection

import (
	"hash/fnv"
	"testing"
)

// blind8Half says which half of the eighth round's blind set a text is
// in, by a hash of its id fixed before the set was first scanned: "tune"
// may be read case by case and tuned on, "report" is read by its figures
// only.
func blind8Half(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "tune"
	}
	return "report"
}

// TestBlind8 reports the blind set of issue 16's eighth round
// (testdata/blind8/blind.json, written by blind.py before any change of
// the round: 123 attacked and 131 clean tool outputs of eleven carriers),
// per half. Main before the round: tune half 41/64 attacks flagged or
// worse, 4/69 clean changed, 3/69 flagged; report half 42/59, 2/62
// changed, 2/62 flagged.
func TestBlind8(t *testing.T) {
	s := newScanner(t, Options{})
	halves := map[string][]kindText{}
	for _, x := range loadKindTexts(t, "testdata/blind8/blind.json") {
		h := blind8Half(x.ID)
		halves[h] = append(halves[h], x)
	}
	for _, h := range []string{"tune", "report"} {
		t.Logf("--- %s half", h)
		scoreKindTexts(t, s, halves[h], h == "tune")
	}
}

// TestDev8 measures the eighth round's development set
// (testdata/blind8/dev.json), written after the first reading of
// blind.json's tuning half, and tuned on.
func TestDev8(t *testing.T) {
	s := newScanner(t, Options{})
	scoreKinds(t, s, "testdata/blind8/dev.json")
	scoreKinds(t, s, "testdata/blind8/dev2.json")
	scoreKinds(t, s, "testdata/blind8/dev3.json")
	scoreKinds(t, s, "testdata/blind8/dev4.json")
}
