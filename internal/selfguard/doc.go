// Package selfguard recognises an agent's action that would switch flowd
// off or blind it: stopping, pausing, killing, restarting, uninstalling or
// reconfiguring flowd or its shims; changing flowd's config, data or
// socket files; dropping flowd's hooks from the agent's settings; or
// unwrapping a server in an MCP client's config.
//
// Such an action is denied, never asked about: where the agent can ask,
// it is the one that would say yes. So is reading or copying flowd's
// signing key and stores (its data directory, but for the public key and
// the config in force): in a user flowd they are the agent's user's files.
// Other reads stay allowed (flowd status, cat of the config). The user, in a terminal of their own, is not seen by
// the hooks and is not affected.
//
// The guard reads command lines with internal/shellnorm, as the shell
// would run them (quotes, sudo, env, timeout, xargs, sh -c, $(...)). Like
// every pattern it is defence in depth: a program written to a file and
// run later, or a process running as root, gets past it.
package selfguard
