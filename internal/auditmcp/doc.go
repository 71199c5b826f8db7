// Package auditmcp is flowd's own MCP server (`flowd mcp`): a person, or
// an auditor agent they run, asks it what flowd saw and decided. It is
// read-only by construction: it talks to flowd through the client's GET
// requests only, so nothing a model asks of it can release, approve,
// change config or weaken policy. Everything it quotes that an attacker
// may have written (tool output, tool and server names, reasons that
// quote them) is fenced as untrusted data under a per-answer nonce the
// quoted text cannot guess, and secrets in it are masked. Quarantined
// content it never shows: reading it takes the user's passphrase, which
// a server a model drives must never be handed.
package auditmcp
