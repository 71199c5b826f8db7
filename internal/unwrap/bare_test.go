package unwrap

import (
	"math/rand"
	"testing"
)

// A bare text (short, letters and digits only) is one that expand
// passes over below the surface: no undoing changes it, no run of it
// decodes, no radix token or token view is made of it. Built from
// spelled words, numbers that could be character codes, and pieces of
// hex and base64, glued as a bare text must be.
func TestBareTextsHaveNothingToUndo(t *testing.T) {
	parts := []string{"a", "Z", "0", "1", "9", "65", "66", "x", "zero", "one", "two", "alpha", "bravo", "Alpha",
		"six", "caps", "up", "dot", "dash", "k", "00", "101", "32", "0x41", "u", "A", "e5", "E", "dGVzdA", "MTIz", "YWJj", "ff"}
	r := rand.New(rand.NewSource(1))
	checked := 0
	for range 100000 {
		var s []byte
		for k := 1 + r.Intn(8); k > 0; k-- {
			s = append(s, parts[r.Intn(len(parts))]...)
		}
		if !bare(s) {
			continue
		}
		checked++
		for i, u := range &wholeUndoings {
			if out, ok := u.undo(s); ok && string(out) != string(s) {
				t.Fatalf("undoing %d changes bare %q to %q", i, s, out)
			}
		}
		for run := range runs(s) {
			t.Fatalf("bare %q has an encoded run %q", s, run)
		}
		if v := radixViews(nil, s); len(v) > 0 {
			t.Fatalf("bare %q has radix views %q", s, v)
		}
		if v, ok := tokenViews(s, 1<<20); ok {
			t.Fatalf("bare %q has token views %q", s, v)
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d bare texts checked", checked)
	}
}
