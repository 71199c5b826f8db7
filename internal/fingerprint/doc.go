// Package fingerprint recognises data again: it remembers what earlier tool
// results (origins) contained and tells which of them reappear in an
// outgoing tool call's arguments — whole, as a JSON field, lightly
// reformatted, or as a substring of meaningful length embedded in other text.
// It also recognises known secrets in their common re-encodings.
//
// It owns the per-session fingerprint index and its memory bound. It does no
// I/O and makes no policy decision: it reports which origins match and how.
package fingerprint
