// Package approval is the proof that a person, not a process running as
// that person, approved what only a person may: releasing quarantined
// content and approving changed tools.
//
// The person sets a passphrase at a terminal (flowd passphrase set) and
// types it, unechoed, for each approval. flowd keeps only a salted PBKDF2
// hash (Verifier), checks a guess in constant time, and makes guessing
// slow (Gate): each wrong guess costs the hash and, after a few, a
// lockout that doubles. An agent that drives the CLI through a pseudo
// terminal, or calls the socket API itself, does not know the passphrase.
//
// What it cannot stop: a process of the same user that rewrites flowd's
// own files (the verifier, the stores, the binary) or reads the keyboard.
// A system flowd keeps its verifiers where the users' processes cannot
// reach them.
package approval
