package fingerprint

import "testing"

// TestAppendCanonicalByByte checks every byte's canonical form, appended
// after what the buffer holds: letters lower-cased, digits kept, the
// rest dropped.
func TestAppendCanonicalByByte(t *testing.T) {
	for c := range 256 {
		want := "held"
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			want += string(rune(c))
		case c >= 'A' && c <= 'Z':
			want += string(rune(c + 'a' - 'A'))
		}
		if got := AppendCanonical([]byte("held"), []byte{byte(c), '\x80'}); string(got) != want {
			t.Errorf("byte %#x: %q, want %q", c, got, want)
		}
	}
	if got := AppendCanonical(nil, []byte("Ab-C_9 \x00é")); string(got) != "abc9" {
		t.Errorf("a mixed text: %q", got)
	}
}
