// Package attackfeed pulls published feeds of attack prints
// (internal/attackprint) on a schedule, so that an attack one machine
// caught is known on every machine that subscribes to its publisher.
//
// Each feed is trusted for the one key its config names. A pull asks
// only for what changed (ETag, If-Modified-Since), is bounded in size and
// time, and verifies the signature before anything in the feed is used.
// The last good feed is kept on disk, with what it said of itself
// (sequence number, date): a feed that fails in any way, or one older than
// it (a replay that would hide the prints added since), changes nothing,
// and the failure is logged and kept for flowd status. Nothing is ever
// sent out but the request itself.
package attackfeed
