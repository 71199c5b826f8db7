// Package config owns flowd's configuration file: its schema, its defaults
// (the commented default.toml embedded in the binary, which is also what
// "flowd config default" prints) and its validation.
//
// Errors point at the file and line, so a user can fix a typo without
// guessing: `config /x/flowd.toml:12: unknown key "shim.fail_mod"`.
// Where sockets, data and the config file live is not configuration; see
// package paths.
package config
