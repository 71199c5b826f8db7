// Package flowdclient is flowd's client: the client side of flowd's HTTP
// API on its Unix socket, and the types that API returns. The CLI and the
// hook use it; the daemon serves it (and the judge fills in its activity
// types).
package flowdclient
