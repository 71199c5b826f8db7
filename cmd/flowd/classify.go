package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/paths"
)

// cmdClassify prints how flowd classifies a server, or one of its tools,
// with the overrides of the config file in force.
func cmdClassify(args []string) error {
	fl := flag.NewFlagSet("flowd classify", flag.ContinueOnError)
	cfgPath := fl.String("config", paths.ConfigFile(), "config file (env FLOWD_CONFIG)")
	tool := fl.String("tool", "", "classify this tool of the server")
	fl.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: flowd classify NAME [--tool TOOL]")
		fl.PrintDefaults()
	}
	// Flags may follow the name: flowd classify github --tool create_gist.
	var name string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if err := fl.Parse(args); err != nil {
		return exitError(2)
	}
	if name == "" && fl.NArg() == 1 {
		name = fl.Arg(0)
	}
	if name == "" {
		fl.Usage()
		return exitError(2)
	}
	cfg, err := loadConfig(*cfgPath, fl)
	if err != nil {
		return err
	}
	c, err := judge.Classifier(cfg)
	if err != nil {
		return err
	}
	var r classify.Result
	if *tool != "" {
		r = c.Tool(name, classify.ToolInfo{Name: *tool})
	} else {
		r = c.Server(name)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
