package activity

import "time"

// episode is a run of failing writes, from the first failure to the next
// success: what the log reports, once at each end, instead of each batch
// that fails on a full disk.
type episode struct {
	on    bool
	since time.Time
	err   error // the first failure's
	lost  uint64
}

// fail records a failure that lost n records and reports whether it
// starts an episode.
func (e *episode) fail(now time.Time, err error, n uint64) bool {
	start := !e.on
	if start {
		*e = episode{on: true, since: now, err: err}
	}
	e.lost += n
	return start
}

// ok records a success; ended reports whether it ends an episode, which
// was.
func (e *episode) ok() (was episode, ended bool) {
	was, ended = *e, e.on
	*e = episode{}
	return was, ended
}
