// Package boltfile opens flowd's bbolt files (the activity log, the
// quarantine, the tool pins) so that a damaged file is found when it is
// opened, not by a crash later.
//
// bbolt maps the file into memory and trusts what it reads: a truncated
// file faults with SIGBUS on the first page past its end, and a flipped
// page panics, in whatever goroutine touches it. So Open checks the file
// before flowd relies on it: the header against the file's size without
// mapping it, then every page, key and value reachable from the root and
// bbolt's own consistency check, with faults turned into panics it
// recovers. A damaged file is moved aside (never deleted, so it can be
// inspected) and a fresh one takes its place, or, for a reader that must
// not change anything, reported as ErrDamaged.
package boltfile
