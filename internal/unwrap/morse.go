package unwrap

import "bytes"

// Morse code is a spelling of characters like the NATO alphabet's: dots
// and dashes, a character a group, groups split by one blank, words by a
// slash or more blanks. What it spells is in lower case: the case of a
// key is lost, which only case-blind matching (the canonical forms of
// what flowd read) gets past.

// minMorse is the fewest characters of a run read as Morse: shorter
// runs of dots and dashes are rules and ellipses.
const minMorse = 16

var morseCodes = func() map[string]byte {
	m := map[string]byte{}
	for c, code := range map[byte]string{
		'a': ".-", 'b': "-...", 'c': "-.-.", 'd': "-..", 'e': ".", 'f': "..-.", 'g': "--.", 'h': "....",
		'i': "..", 'j': ".---", 'k': "-.-", 'l': ".-..", 'm': "--", 'n': "-.", 'o': "---", 'p': ".--.",
		'q': "--.-", 'r': ".-.", 's': "...", 't': "-", 'u': "..-", 'v': "...-", 'w': ".--", 'x': "-..-",
		'y': "-.--", 'z': "--..", '0': "-----", '1': ".----", '2': "..---", '3': "...--", '4': "....-",
		'5': ".....", '6': "-....", '7': "--...", '8': "---..", '9': "----.", '_': "..--.-", '-': "-....-",
		'=': "-...-", '.': ".-.-.-", '/': "-..-.", '+': ".-.-.", ':': "---...", '@': ".--.-.",
	} {
		m[code] = c
	}
	return m
}()

func morseByte(c byte) bool { return c == '.' || c == '-' }

// unmorse returns text with runs of Morse code spelled out; ok is false
// when there are none.
func unmorse(text []byte) ([]byte, bool) {
	if !bytes.Contains(text, []byte(".-")) && !bytes.Contains(text, []byte("-.")) {
		return nil, false
	}
	var out, run []byte
	last := 0
	for i := 0; i < len(text); {
		if !morseByte(text[i]) || i > 0 && morseByte(text[i-1]) {
			i++
			continue
		}
		run = run[:0]
		j, end := i, i
		for j < len(text) {
			k := j
			for k < len(text) && morseByte(text[k]) && k-j < 7 {
				k++
			}
			c, ok := morseCodes[string(text[j:k])]
			if !ok || k < len(text) && morseByte(text[k]) {
				break
			}
			run = append(run, c)
			end = k
			// One blank between characters; " / " or more blanks
			// between words, which the value has none of.
			j = k
			for j < len(text) && (text[j] == ' ' || text[j] == '/') && j-k < 3 {
				j++
			}
			if j == k || j >= len(text) || !morseByte(text[j]) {
				break
			}
		}
		if len(run) < minMorse {
			i = max(end, i+1)
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		out = append(append(out, text[last:i]...), run...)
		last, i = end, end
	}
	if out == nil {
		return nil, false
	}
	return append(out, text[last:]...), true
}
