package activity

// validJSON is json.Valid, several times faster: an export checks every
// stored record it writes as it is (a damaged one is skipped, not
// written as a line that does not parse), and json.Valid's scanner,
// which calls a function per byte, was most of a JSON-lines export's
// cost. It accepts exactly what json.Valid accepts (a fuzz test compares
// them), nesting included up to json's limit of 10,000.
func validJSON(v []byte) bool {
	i := skipSpace(v, 0)
	i, ok := validValue(v, i, 0)
	return ok && skipSpace(v, i) == len(v)
}

const maxNesting = 10000

func skipSpace(v []byte, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r') {
		i++
	}
	return i
}

// validValue reads the value at v[i] (no space before it) at nesting
// depth; it returns the index past it.
func validValue(v []byte, i, depth int) (int, bool) {
	if i >= len(v) {
		return i, false
	}
	switch c := v[i]; {
	case c == '"':
		return scanString(v, i)
	case c == '{':
		if depth++; depth > maxNesting {
			return i, false
		}
		i = skipSpace(v, i+1)
		if i < len(v) && v[i] == '}' {
			return i + 1, true
		}
		for {
			var ok bool
			if i >= len(v) || v[i] != '"' {
				return i, false
			}
			if i, ok = scanString(v, i); !ok {
				return i, false
			}
			if i = skipSpace(v, i); i >= len(v) || v[i] != ':' {
				return i, false
			}
			if i, ok = validValue(v, skipSpace(v, i+1), depth); !ok {
				return i, false
			}
			if i = skipSpace(v, i); i >= len(v) {
				return i, false
			}
			switch v[i] {
			case ',':
				i = skipSpace(v, i+1)
			case '}':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '[':
		if depth++; depth > maxNesting {
			return i, false
		}
		i = skipSpace(v, i+1)
		if i < len(v) && v[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = validValue(v, i, depth); !ok {
				return i, false
			}
			if i = skipSpace(v, i); i >= len(v) {
				return i, false
			}
			switch v[i] {
			case ',':
				i = skipSpace(v, i+1)
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		return validNumber(v, i)
	case c == 't':
		return literal(v, i, "true")
	case c == 'f':
		return literal(v, i, "false")
	case c == 'n':
		return literal(v, i, "null")
	}
	return i, false
}

func literal(v []byte, i int, word string) (int, bool) {
	if len(v)-i < len(word) || string(v[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

// scanString reads the string literal at v[i], a quote.
func scanString(v []byte, i int) (int, bool) {
	for i++; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			if i++; i >= len(v) {
				return i, false
			}
			switch v[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(v)-i <= 4 {
					return i, false
				}
				for _, h := range v[i+1 : i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return i, false
					}
				}
				i += 4
			default:
				return i, false
			}
		}
	}
	return i, false
}

// validNumber reads the number at v[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(v []byte, i int) (int, bool) {
	if v[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i >= len(v):
		return i, false
	case v[i] == '0':
		i++
	case digits() == 0:
		return i, false
	}
	if i < len(v) && v[i] == '.' {
		i++
		if digits() == 0 {
			return i, false
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false
		}
	}
	return i, true
}
