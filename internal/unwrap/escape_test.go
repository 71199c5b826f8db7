package unwrap

import "testing"

// Unicode's own notation for a character, U+NNNN, is an escape too: a
// value written as its code points is read back.
func TestUnescapeCodePoints(t *testing.T) {
	got, ok := codePoints([]byte("U+0073U+006B U+2603 u+0041 U+ u+12"))
	if !ok || string(got) != "sk ☃ A U+ u+12" {
		t.Fatalf("codePoints = %q, %v", got, ok)
	}
	assertInViews(t, "U+0070 U+0061 U+0073 U+0073 U+005F U+0051 U+0039 U+0078 U+004C U+0032 U+006D", "pass_Q9xL2m", false)
}
