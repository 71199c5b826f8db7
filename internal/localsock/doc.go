// Package localsock is flowd's local Unix socket, checked at both ends so
// that only the users flowd serves can talk to it and no one can pretend
// to be it.
//
// A user's flowd (Listen) is private: its socket is 0600 in a 0700
// directory, and each accepted connection must come from the same uid or
// root. A system flowd (ListenShared, `flowd run --system`) serves a group
// too: its socket is 0660 and a connection is also accepted from a member
// of the socket's group. Either way the kernel says who connected
// (SO_PEERCRED and SO_PEERGROUPS on Linux, LOCAL_PEERCRED on the BSDs), not
// the client.
//
// A client (Dial) accepts a flowd that runs as itself or as root. Any other
// listener is accepted only where no one but root could have given it its
// place: every directory from the socket's up to / belongs to root or to
// the listener and is writable by no one else (CheckSocketTrust).
// That is true of a system flowd in /run/flowd and false of anything in
// /tmp, where another user could have created the directory first.
//
// The socket's directory is checked here too, before flowd listens
// (EnsureSocketDir: the user's own, private; EnsureSystemSocketDir) and
// before a client dials (CheckSocketDir), so every rule about who may
// have put a socket where it is lives in this package.
package localsock
