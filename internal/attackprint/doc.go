// Package attackprint remembers prompt-injection attacks flowd caught, so
// that the same attack is known at first sight the next time, here or on
// another machine that imports this one's feed.
//
// A print holds no text: the hashes of the attack's word shingles (its
// content), of the addresses, accounts and handles it named (its keys),
// and of the shape of the sentences that named them (length, links,
// markup, encodings). A later result matches a print when it repeats
// enough of the attack's content, or when a sentence of the same shape
// names one of the same keys and something else of the attack recurs: a
// reworded attack that still sends the model to the attacker's address.
//
// It owns the print format, matching, the store of prints on disk and the
// signed feed files prints travel in. It makes no policy decision: the
// judge decides what a match means.
package attackprint
