// Package rawio reads and writes non-blocking descriptors with raw system
// calls, for the message paths where a round trip's latency is the product.
//
// The standard library tells the Go scheduler about every read and write.
// When a process has been idle, that first system call wakes the
// runtime's monitor thread (sysmon), which then polls every 20 µs for about
// a millisecond. A shim and flowd go idle between every message of a tool
// call, so each message paid a futex wake-up and a burst of timer wake-ups
// on the other core: on the 2-core benchmark VM, about 12 µs per process
// per message. A read or write of a non-blocking descriptor never blocks,
// so the scheduler need not hear of it; when it would block, rawio waits in
// the runtime's poller like any other read.
//
// Only Linux takes the raw path; elsewhere the functions return what they
// are given.
package rawio
