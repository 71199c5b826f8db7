package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/paths"
)

// cmdClassify prints how flowd classifies a server, one of its tools, or
// every tool of a tools/list result, with the config file in force, and
// why.
func cmdClassify(args []string) error {
	fl := newFlags("flowd classify")
	cfgPath := fl.String("config", paths.ConfigFile(), "config file (env FLOWD_CONFIG)")
	tool := fl.String("tool", "", "classify this tool of the server, by its name alone")
	toolsFile := fl.String("tools", "", `classify every tool of a tools/list result in this file ("-": standard input), `+
		"with their descriptions, input schemas and annotations")
	reported := fl.String("reported", "", "the server's own name (serverInfo.name), which can only make flowd more cautious")
	asJSON := fl.Bool("json", false, "print JSON")
	fl.Usage = func() {
		fmt.Fprintln(fl.Output(), "usage: flowd classify NAME [--tool TOOL | --tools FILE] [--reported NAME] [--json]\n\n"+
			"NAME is the client's name for the server (shim --name) or the name of its command.")
		fl.PrintDefaults()
	}
	// Flags may follow the name: flowd classify github --tool create_gist.
	pos, err := parseArgs(fl, args)
	switch {
	case err != nil:
		return err
	case len(pos) != 1:
		return usageError(fl, "want one server name, got %d arguments", len(pos))
	case *tool != "" && *toolsFile != "":
		return usageError(fl, "give --tool or --tools, not both")
	}
	name := pos[0]
	cfg, err := loadConfig(*cfgPath, fl)
	if err != nil {
		return err
	}
	c, err := judge.Classifier(cfg)
	if err != nil {
		return err
	}
	names := classify.Names{Given: name, Reported: *reported}
	var out []classification
	switch {
	case *toolsFile != "":
		tools, err := readTools(*toolsFile)
		if err != nil {
			return err
		}
		for _, t := range tools {
			out = append(out, classification{Server: name, Tool: t.Name, Result: c.ToolOf(names, t)})
		}
	case *tool != "":
		out = append(out, classification{Server: name, Tool: *tool, Result: c.ToolOf(names, classify.ToolInfo{Name: *tool})})
	default:
		out = append(out, classification{Server: name, Result: c.ServerOf(names)})
	}
	for i := range out {
		out[i].Policy = consequence(out[i].Result, cfg.Policy)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if *toolsFile != "" {
			return enc.Encode(out)
		}
		return enc.Encode(out[0])
	}
	for i, cl := range out {
		if i > 0 {
			fmt.Println()
		}
		writeClassification(os.Stdout, cl)
	}
	return nil
}

// classification is one answer of flowd classify.
type classification struct {
	Server string `json:"server"`
	Tool   string `json:"tool,omitempty"`
	classify.Result
	// Policy says what the class means for calls under the config.
	Policy string `json:"policy"`
}

func readTools(path string) ([]classify.ToolInfo, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read tools: %w", err)
	}
	tools, err := classify.ParseTools(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(tools) == 0 {
		return nil, fmt.Errorf("%s: no tools in it (want a tools/list result or an array of tools)", path)
	}
	return tools, nil
}

// consequence says what policy does with calls to a destination of r's
// class.
func consequence(r classify.Result, p config.Policy) string {
	if !r.CanExfiltrate {
		return "data stays under your control: calls to it are not checked for data leaving"
	}
	internal, rule := p.InternalToExternal, "internal_to_external"
	if r.Class == classify.Unknown && p.InternalToUnknown != "" {
		internal, rule = p.InternalToUnknown, "internal_to_unknown"
	}
	return fmt.Sprintf("can send data out: secrets sent to it: %s (sensitive_data_external); internal data: %s (%s)",
		p.SensitiveDataExternal, internal, rule)
}

// writeClassification prints one answer for people: the class, what it
// means, and each piece of evidence on its own line.
func writeClassification(w io.Writer, cl classification) {
	subject := cl.Server
	if cl.Tool != "" {
		subject += "/" + cl.Tool
	}
	fmt.Fprintf(w, "%s: %s (confidence %.2f, by %s)\n", subject, cl.Class, cl.Confidence, cl.Method)
	fmt.Fprintf(w, "  returns private data: %s   can send data out: %s\n", yesNo(cl.CanReadData), yesNo(cl.CanExfiltrate))
	fmt.Fprintf(w, "  policy: %s\n", cl.Policy)
	fmt.Fprintln(w, "  why:")
	for _, part := range strings.Split(cl.Reason, "; ") {
		fmt.Fprintf(w, "    - %s\n", part)
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
