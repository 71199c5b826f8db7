package classify

import (
	"fmt"
	"strings"
)

// builtinConfidence: the agent's own tools do what their documentation says.
const builtinConfidence = 0.95

// builtins are Claude Code's own tools, keyed in lower case. Task starts a
// subagent whose tool calls reach the hook on their own, so the Task call
// itself moves no data anywhere.
var builtins = map[string]struct {
	class Class
	what  string
}{
	"read":         {Internal, "reads local files"},
	"write":        {Internal, "writes local files"},
	"edit":         {Internal, "edits local files"},
	"multiedit":    {Internal, "edits local files"},
	"notebookedit": {Internal, "edits local notebooks"},
	"notebookread": {Internal, "reads local notebooks"},
	"glob":         {Internal, "lists local files"},
	"grep":         {Internal, "searches local files"},
	"ls":           {Internal, "lists local files"},
	"task":         {Internal, "starts a subagent whose own tool calls are checked separately"},
	"todowrite":    {Internal, "keeps the agent's task list"},
	"exitplanmode": {Internal, "ends planning"},
	"bashoutput":   {Internal, "reads output of a running shell"},
	"killshell":    {Internal, "stops a running shell"},
	"webfetch":     {External, "fetches a URL"},
	"websearch":    {External, "sends a query to a web search service"},
	"bash":         {Hybrid, "runs shell commands, which can read files and use the network"},
}

func builtin(name string) (Result, bool) {
	b, ok := builtins[strings.ToLower(name)]
	if !ok {
		return Result{}, false
	}
	return newResult(b.class, builtinConfidence, MethodBuiltin, fmt.Sprintf("agent built-in %s %s", name, b.what)), true
}
