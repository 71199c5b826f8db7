package secrets

// Payment card numbers: 13–19 digits, written together or in groups split by
// single spaces or dashes, with a known issuer prefix and a valid Luhn check
// digit. A random 16-digit number passes the prefix and Luhn tests about one
// time in twenty-five, so the grouping and boundary rules do the rest.

// scanCards reports card numbers in text. It needs no keyword: it walks the
// digits directly, which costs one comparison per byte.
func scanCards(st *scanState, text string) {
	for i := 0; i < len(text); i++ {
		if !isDigit(text[i]) {
			// Skip eight digit-free bytes at a time: most text has few digits.
			for i+9 <= len(text) && !hasDigit8(text[i+1:i+9]) {
				i += 8
			}
			continue
		}
		start := i
		var digits [24]byte
		nd := 0
		var groups [8]int
		ng, glen := 0, 0
		sep := byte(0)
		j := i
		for j < len(text) {
			c := text[j]
			if isDigit(c) {
				if nd < len(digits) {
					digits[nd] = c
				}
				nd++
				glen++
				j++
				continue
			}
			if (c == ' ' || c == '-') && (sep == 0 || sep == c) && j+1 < len(text) && isDigit(text[j+1]) && ng < len(groups)-1 {
				sep = c
				groups[ng] = glen
				ng++
				glen = 0
				j++
				continue
			}
			break
		}
		groups[ng] = glen
		ng++
		i = j
		if nd < 13 || nd > 19 || !cardBoundary(text, start, j) || (sep != 0 && !cardGrouping(groups[:ng])) {
			continue
		}
		if sep == 0 && (nd < 14 || nd > 16) {
			// Unseparated 13- and 17–19-digit runs are mostly integers in
			// code (seeds, hashes); the cards people paste are 14–16 long.
			continue
		}
		num := digits[:nd]
		if !issuerPrefix(num) || !luhn(num) || (sep != 0 && countingGroups(num, groups[:ng])) {
			continue
		}
		st.add(finding{generic: true, Finding: Finding{
			Type: "credit_card", Rule: "credit-card", Value: text[start:j], Start: start, End: j,
			Example: repetitiveDigits(num),
		}})
	}
}

// cardBoundary rejects digit runs that are part of something larger: a
// word, a decimal, a version, a hex string or a longer number.
func cardBoundary(text string, s, e int) bool {
	if s > 0 {
		switch c := text[s-1]; {
		case isAlpha(c), c == '_', c == '.', c == '-', c == '/', c == '+', c == ':':
			return false
		}
	}
	if e < len(text) {
		switch c := text[e]; {
		case isAlpha(c), c == '_', c == '/':
			return false
		case c == '.' || c == ',' || c == '-' || c == ':':
			if e+1 < len(text) && isDigit(text[e+1]) {
				return false
			}
		}
	}
	return true
}

// cardGrouping accepts the ways people write card numbers: fours (with a
// short last group) and the 4-6-5 / 4-6-4 layouts of Amex and Diners.
func cardGrouping(g []int) bool {
	if len(g) == 3 && g[0] == 4 && g[1] == 6 && (g[2] == 5 || g[2] == 4) {
		return true
	}
	if len(g) < 3 {
		return false
	}
	for i, n := range g {
		if i < len(g)-1 && n != 4 || i == len(g)-1 && (n < 1 || n > 4) {
			return false
		}
	}
	return true
}

// countingGroups rejects rows of a numeric table ("5430 5431 5432 5433"):
// neighbouring groups of four that differ by 1 to 9. In a card number that
// happens for a pair about once in five hundred. (Equal groups, as in the
// published test number 4111 1111 1111 1111, are left to the example mark.)
func countingGroups(num []byte, groups []int) bool {
	val := func(d []byte) int {
		v := 0
		for _, c := range d {
			v = v*10 + int(c-'0')
		}
		return v
	}
	off := 0
	prev := -1
	for _, g := range groups {
		cur := -1
		if g == 4 {
			cur = val(num[off : off+4])
		}
		if d := cur - prev; prev >= 0 && cur >= 0 && d != 0 && d < 10 && d > -10 {
			return true
		}
		prev = cur
		off += g
	}
	return false
}

// issuerPrefix checks the issuer identification number and length.
func issuerPrefix(d []byte) bool {
	n := len(d)
	p := func(k int) int {
		v := 0
		for i := 0; i < k; i++ {
			v = v*10 + int(d[i]-'0')
		}
		return v
	}
	switch {
	case d[0] == '4':
		return n == 13 || n == 16 || n == 19 // Visa
	case p(2) >= 51 && p(2) <= 55, p(4) >= 2221 && p(4) <= 2720:
		return n == 16 // Mastercard
	case p(2) == 34 || p(2) == 37:
		return n == 15 // American Express
	case p(4) == 6011, p(2) == 65, p(3) >= 644 && p(3) <= 649:
		return n >= 16 // Discover
	case p(3) >= 300 && p(3) <= 305, p(2) == 36, p(2) == 38, p(2) == 39:
		return n >= 14 // Diners Club
	case p(4) >= 3528 && p(4) <= 3589:
		return n >= 16 // JCB
	case p(2) == 62:
		return n >= 16 // UnionPay
	case p(4) >= 2200 && p(4) <= 2204:
		return n == 16 // Mir
	case p(2) == 50, p(2) >= 56 && p(2) <= 69:
		return true // Maestro
	}
	return false
}

func luhn(d []byte) bool {
	sum := 0
	double := false
	for i := len(d) - 1; i >= 0; i-- {
		v := int(d[i] - '0')
		if double {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
		double = !double
	}
	return sum%10 == 0
}

// repetitiveDigits marks published test numbers such as 4111 1111 1111 1111
// or 4242…: few distinct digits, or a counting run.
func repetitiveDigits(d []byte) bool {
	var seen [10]bool
	distinct := 0
	for _, c := range d {
		if !seen[c-'0'] {
			seen[c-'0'] = true
			distinct++
		}
	}
	return distinct <= 3 || sequenceRun(string(d)) >= 6
}

// hasDigit8 reports whether any of the 8 bytes of s is an ASCII digit,
// testing them together: x^'0' turns digits into bytes below 10, and the
// borrow trick flags a byte below 10 in its high bit.
func hasDigit8(s string) bool {
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	y := x ^ (ones * '0')
	return (y-ones*10)&^y&highs != 0
}
