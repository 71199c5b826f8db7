package clientconfig

import (
	"path/filepath"
	"strings"
)

// syntax is the language a config file is written in.
type syntax int

const (
	jsonSyntax syntax = iota
	tomlSyntax
	yamlSyntax
)

// Format is how one config file keeps its servers: its syntax and, for
// JSON, the member that holds them.
type Format struct {
	syntax syntax
	// keys are the top-level members that may hold servers, by name; the
	// first one present is used.
	keys []string
	// projects: servers also sit under every "projects" entry (Claude
	// Code's ~/.claude.json).
	projects bool
	// jsonc: the client reads comments and trailing commas (VS Code's
	// and Zed's JSON with comments, Gemini CLI's settings). They stay as
	// written; a server whose command line holds one is left alone.
	jsonc bool
}

var (
	// claudeJSON is Claude Desktop's, Claude Code's and Cursor's format,
	// which Windsurf, Cline and Gemini CLI share.
	claudeJSON = Format{keys: []string{"mcpServers"}, projects: true}
	mcpServers = Format{keys: []string{"mcpServers"}}
	geminiJSON = Format{keys: []string{"mcpServers"}, jsonc: true}
	vscodeJSON = Format{keys: []string{"servers"}, jsonc: true}
	// zedJSON: a server's "command" is a string with "args" beside it, or,
	// in Zed's older settings, an object {"path", "args", "env"}.
	zedJSON     = Format{keys: []string{"context_servers"}, jsonc: true}
	codexTOML   = Format{syntax: tomlSyntax}
	continueYML = Format{syntax: yamlSyntax}
	// anyJSON reads a file given with --config and no client: whichever
	// client's member it has.
	anyJSON = Format{keys: []string{"mcpServers", "servers", "context_servers"}, projects: true}
)

// FormatOf guesses a file's format from its name and directory, for a
// file named on the command line without its client: the JSON of VS Code,
// Zed and Gemini CLI allows comments, the others' does not.
func FormatOf(path string) Format {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".toml":
		return codexTOML
	case ".yaml", ".yml":
		return continueYML
	}
	dir := strings.ToLower(filepath.Base(filepath.Dir(path)))
	switch base := filepath.Base(path); {
	case base == "mcp.json" && (dir == ".vscode" || dir == "user"):
		return vscodeJSON
	case base == "settings.json" && (dir == "zed" || dir == ".zed"):
		return zedJSON
	case base == "settings.json" && dir == ".gemini":
		return geminiJSON
	}
	return anyJSON
}

// Wrap puts every local (stdio) server of doc behind the shim at shim;
// see the package's Wrap.
func (f Format) Wrap(doc []byte, shim string) (Result, error) {
	switch f.syntax {
	case tomlSyntax:
		return editTOML(doc, wrapping(shim))
	case yamlSyntax:
		return editYAML(doc, wrapping(shim))
	}
	return transform(f, doc, func(l layout, s server) (Server, []edit) { return wrapOne(l, s, shim) })
}

// Unwrap restores the command line of every wrapped server of doc.
func (f Format) Unwrap(doc []byte) (Result, error) {
	switch f.syntax {
	case tomlSyntax:
		return editTOML(doc, unwrapping)
	case yamlSyntax:
		return editYAML(doc, unwrapping)
	}
	return transform(f, doc, unwrapOne)
}
