package unwrap

import (
	"hash/maphash"
	"unicode/utf8"
)

// A value can be written in an alphabet of symbols no decoder knows: an
// emoji, a dingbat or a made-up code per character, one apart from the
// next. Whatever the alphabet, the same character is the same symbol
// each time: the run's pattern of repeats is the value's. symbolRuns
// writes each such run as bytes that say only that pattern (its first
// symbol 0x80, the next new one 0x81, …), which the comparisons with
// known secrets read as a substitution (fingerprint.FindKeyed). A symbol
// here holds no ASCII letter or digit, so prose, whose words would give
// every sentence such a run, gives none.

// Bounds on a run of symbols: minSymbols to maxSymbols symbols (a
// secret's characters, its hex at most), each of at most maxSymbolBytes
// bytes, at least minDistinct of them different and at most 128.
const (
	minSymbols     = 16
	maxSymbols     = 600
	maxSymbolBytes = 24
	minDistinct    = 8
)

var symbolSeed = maphash.MakeSeed()

// symbolRuns returns the runs of text's symbols written as their
// pattern, a run a line; nil when there are none or they would exceed
// limit bytes.
func symbolRuns(text []byte, limit int) []byte {
	var out []byte
	var ids map[uint64]byte
	var run []byte // the pattern of the run being read
	over := false  // the run is longer than maxSymbols, or of more symbols than 128
	end := func() {
		if !over && len(run) >= minSymbols && len(ids) >= minDistinct && len(out)+len(run)+1 <= limit {
			out = append(append(out, run...), '\n')
		}
		run, over = run[:0], false
		clear(ids)
	}
	for i := 0; i < len(text); {
		if p := i + 2*minSymbols - 2; len(run) == 0 && p < len(text) && isAlnumByte(text[p]) {
			// A run of minSymbols symbols starting before p would
			// hold text[p], a letter or digit no symbol or break is.
			// Prose skips most of its bytes so.
			i = p + 1
			continue
		}
		if symbolBreak(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && !symbolBreak(text[j]) && !isAlnumByte(text[j]) {
			j++
		}
		if j < len(text) && !symbolBreak(text[j]) {
			// A word: on to its end, the run ended.
			for j < len(text) && !symbolBreak(text[j]) {
				j++
			}
			i = j
			if len(run) > 0 {
				end()
			}
			continue
		}
		g := text[i:j]
		i = j
		if len(g) > maxSymbolBytes || !utf8.Valid(g) {
			end()
			continue
		}
		if over = over || len(run) == maxSymbols; over {
			// Too long for a secret: read on to its end, keeping nothing.
			continue
		}
		if ids == nil {
			ids = map[uint64]byte{}
		}
		h := maphash.Bytes(symbolSeed, g)
		id, ok := ids[h]
		if !ok {
			if len(ids) == 128 {
				// No alphabet: read on to the run's end, keeping nothing.
				over = true
				continue
			}
			id = 0x80 + byte(len(ids))
			ids[h] = id
		}
		run = append(run, id)
	}
	end()
	return out
}

// symbolBreak: c separates symbols (blanks, and a list's quotes, commas,
// brackets and a JSON object's braces and colons).
func symbolBreak(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '"' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == ':'
}
