package unwrap

import "bytes"

// Character codes written in a language's own call or cast, one per
// character and joined by an operator: chr(103)+chr(104) (Python),
// CHAR(103)||CHAR(104) (SQL), [char]103+[char]104 (PowerShell),
// Chr(103) & Chr(104) (VB). Whatever the language, it is a run of decimal
// numbers with the same text between each two: that text repeated is the
// mark, not its words.

// Bounds on such a run: at least minCodes numbers, the text between two
// of at most maxCodeSep bytes.
const (
	minCodes   = 12
	maxCodeSep = 16
)

// joinCodes returns text with runs of character codes between repeated
// text turned into the characters; ok is false when there are none.
func joinCodes(text []byte) ([]byte, bool) {
	var out, run []byte
	last := 0
	for i := 0; i < len(text); {
		s := nextNumber(text, i)
		if s < 0 {
			break
		}
		var end int
		run, end = codeRun(text, s, run[:0], number)
		if len(run) < minCodes {
			// From the next number on: a run that fails reads at most
			// minCodes numbers, so each number is read a bounded number
			// of times.
			i = s + 1
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		out = append(append(out, text[last:s]...), run...)
		last, i = end, end
	}
	if out == nil {
		return nil, false
	}
	return append(out, text[last:]...), true
}

// codeRun appends to run the numbers from s on, each read by num, with
// the same text of at most maxCodeSep bytes between each two; end is
// where the last ends.
func codeRun(text []byte, s int, run []byte, num func([]byte, int) (int, byte, bool)) (_ []byte, end int) {
	var sep []byte
	j, end := s, s
	for {
		k, v, ok := num(text, j)
		if !ok {
			break
		}
		run = append(run, v)
		end = k
		// Only the next maxCodeSep bytes can hold the next number's
		// start: sparse digits were each read on to the next number,
		// and then again by the caller.
		n := nextNumber(text[:min(len(text), k+maxCodeSep+1)], k)
		if n < 0 || n-k > maxCodeSep || n == k || sep != nil && !bytes.Equal(text[k:n], sep) {
			break
		}
		sep = text[k:n]
		j = n
	}
	return run, end
}

// nextNumber is where the next run of digits at or after i starts, or
// -1. Digits after an escape's introducer (\061, &#49;, %31) are the
// escape's, which unescape reads.
func nextNumber(text []byte, i int) int {
	for ; i < len(text); i++ {
		if text[i] >= '0' && text[i] <= '9' && (i == 0 || (text[i-1] < '0' || text[i-1] > '9') && text[i-1] != '\\' && text[i-1] != '#' && text[i-1] != '%') {
			return i
		}
	}
	return -1
}

// number reads the decimal number at i as a character code: printable
// ASCII or a blank.
func number(text []byte, i int) (end int, c byte, ok bool) {
	if end, v, sci := scientific(text, i); sci {
		return end, byte(v), codeByte(v)
	}
	v, k := 0, i
	for k < len(text) && text[k] >= '0' && text[k] <= '9' && k-i < 4 {
		v = v*10 + int(text[k]-'0')
		k++
	}
	if k == i || k < len(text) && text[k] >= '0' && text[k] <= '9' {
		return k, 0, false
	}
	return k, byte(v), codeByte(v)
}

// codeByte reports whether v is the code of printable ASCII or a blank.
func codeByte(v int) bool {
	return v >= 32 && v <= 126 || v == '\n' || v == '\r' || v == '\t'
}

// scientific reads a number in scientific notation at i (1.03e+02, 1e2,
// 10.4E1): a code written as a float is still the code. ok is false
// when there is none there, or it is not a whole number below 1000.
func scientific(text []byte, i int) (end int, v int, ok bool) {
	digits, exp, k := 0, 0, i
	read := func(frac bool) int {
		n := 0
		for ; k < len(text) && text[k] >= '0' && text[k] <= '9' && n < 6; k++ {
			digits = digits*10 + int(text[k]-'0')
			n++
			if frac {
				exp--
			}
		}
		return n
	}
	if read(false) == 0 {
		return 0, 0, false
	}
	if k < len(text) && text[k] == '.' {
		k++
		read(true)
	}
	if k+1 >= len(text) || text[k] != 'e' && text[k] != 'E' {
		return 0, 0, false
	}
	k++
	sign := 1
	// The '+' may have been read as a blank by the form decoding before.
	if text[k] == '+' || text[k] == '-' || text[k] == ' ' {
		sign = 1 - 2*boolInt(text[k] == '-')
		k++
	}
	e, n := 0, 0
	for ; k < len(text) && text[k] >= '0' && text[k] <= '9' && n < 3; k++ {
		e = e*10 + int(text[k]-'0')
		n++
	}
	if n == 0 {
		return 0, 0, false
	}
	for exp += sign * e; exp < 0; exp++ {
		if digits%10 != 0 {
			return 0, 0, false
		}
		digits /= 10
	}
	for ; exp > 0 && digits < 1000; exp-- {
		digits *= 10
	}
	if digits >= 1000 {
		return 0, 0, false
	}
	return k, digits, true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
