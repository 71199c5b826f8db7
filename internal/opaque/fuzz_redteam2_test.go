//go:build redteam2

package opaque

import "testing"

func FuzzRT2Find(f *testing.F) {
	f.Add("AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	f.Add("\u200b\u200c\u200d\u2060 a b c {\"k\":\"v\"} [x]")
	f.Fuzz(func(t *testing.T, s string) { Find(s) })
}
