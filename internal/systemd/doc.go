// Package systemd is what flowd does differently when systemd runs it: it
// takes the socket systemd listens on (socket activation), tells systemd
// when it is ready, alive and stopping (sd_notify and the watchdog), and
// writes its log the way the journal reads it. Outside systemd each of
// these finds nothing to do, so the same binary runs plainly.
package systemd
