package entropy

import (
	"math"
	"testing"
)

func TestBits(t *testing.T) {
	tests := []struct {
		s    string
		want float64
	}{
		{"", 0},
		{"aaaa", 0},
		{"ab", 1},
		{"abcd", 2},
		{"aabb", 1},
		{"0123456789abcdef", 4},
	}
	for _, tt := range tests {
		if got := Bits(tt.s); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Bits(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
