// Package activity owns flowd's activity log: one Record per tool call, hook
// evaluation and other event, kept in a bbolt file on disk and queried
// newest first by the daemon and the `flowd activity` CLI.
//
// Appending never touches the disk: records are queued in memory and a
// single background writer commits them in batches, then applies retention
// (by age, and by count with one budget for routine records and one for
// notable ones: retention.go). The package decides nothing about policy;
// it only remembers what the rest of flowd decided.
package activity
