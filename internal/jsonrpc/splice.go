package jsonrpc

// Splice returns whole with part, a sub-slice of whole (as Parse and
// Member return them), replaced by with. It keeps every other byte: the
// id, the members flowd does not know, their order and spacing.
func Splice(whole, part, with []byte) []byte {
	// part shares whole's backing array from its start, so the capacity
	// it lacks is its offset.
	at := cap(whole) - cap(part)
	out := make([]byte, 0, len(whole)-len(part)+len(with))
	out = append(out, whole[:at]...)
	out = append(out, with...)
	return append(out, whole[at+len(part):]...)
}
