// Package entropy measures how random a string looks: the one Shannon
// entropy that the secret rules, the host-name and the URL exfiltration
// checks share.
package entropy

import "math"

// Bits is the Shannon entropy of s in bits per byte: 0 for "" or one
// repeated byte, up to 8.
func Bits(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
