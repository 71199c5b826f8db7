package attackfeed

import (
	"errors"
	"fmt"
	"time"

	"github.com/flowd-dev/flowd/internal/attackprint"
)

// ErrRollback is a verified feed older than the last one taken from the
// same publisher: served again by a mirror or an attacker on the way, it
// would hide the prints added since.
var ErrRollback = errors.New("feed is older than the last one taken")

// taken is what the last good feed said of itself; zero when none was
// taken yet.
type taken struct {
	Seq     uint64
	Created time.Time
	SHA256  string // of the feed file as served
}

// verdict says whether a feed verified against its publisher's key
// replaces the last one taken: fresh is false for the same file again,
// and err says why a different one is refused.
func verdict(last taken, f attackprint.Feed, sum string) (fresh bool, err error) {
	switch {
	case last.SHA256 == "":
		return true, nil
	case sum == last.SHA256:
		return false, nil
	case f.Seq < last.Seq:
		return false, fmt.Errorf("%w: its sequence number %d is below %d", ErrRollback, f.Seq, last.Seq)
	case f.Created.Before(last.Created):
		return false, fmt.Errorf("%w: it was made %s, the last one taken %s", ErrRollback,
			f.Created.UTC().Format(time.RFC3339), last.Created.UTC().Format(time.RFC3339))
	case f.Seq == last.Seq && (f.Seq != 0 || !f.Created.After(last.Created)):
		// Two different feeds under one number: the publisher's key signed
		// both, and which one is newer cannot be told.
		return false, fmt.Errorf("%w: it has the sequence number %d of the last one taken, with other content", ErrRollback, f.Seq)
	}
	return true, nil
}
