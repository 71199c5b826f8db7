// Package boltfile opens flowd's bbolt files (the activity log, the
// quarantine, the tool pins) so that a damaged file is found when it is
// opened, not by a crash later.
//
// bbolt maps the file into memory and trusts what it reads: a truncated
// file faults with SIGBUS on the first page past its end, and a flipped
// page panics, in whatever goroutine touches it. So Open checks the file
// before flowd relies on it, reading it as a file, not through a mapping:
// the header against the file's size, then every page reachable from the
// root and the free list, what bbolt's own tx.Check checks (which reads
// through the mapping, and loops forever on a cycle) at a fraction of its
// cost. Faults and panics in bbolt while it opens the file are recovered
// all the same. A damaged file is moved aside (never deleted, so it can be
// inspected) and a fresh one takes its place, or, for a reader that must
// not change anything, reported as ErrDamaged. Update and View run the
// stores' transactions afterwards with the same protection, for a file
// damaged while flowd runs.
package boltfile
