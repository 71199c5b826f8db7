// Package events hands each activity record, once it is on disk, to the
// readers of flowd's live event stream (GET /api/v1/events). It owns which
// kinds of event a record makes and the fan-out to subscribers, which
// never waits for a slow reader: the writer that publishes is the
// activity log's, and the message path must not feel a browser tab.
package events
