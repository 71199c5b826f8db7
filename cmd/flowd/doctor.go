package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/flowd-dev/flowd/internal/doctor"
	"github.com/flowd-dev/flowd/internal/paths"
)

// cmdDoctor checks the installation and prints each finding with the
// command that fixes it; it exits 1 when something is broken.
func cmdDoctor(args []string) error {
	fl := newFlags("flowd doctor")
	socket := clientSocket(fl)
	cfgPath := fl.String("config", paths.ConfigFile(), "config file (env FLOWD_CONFIG)")
	dataDir := fl.String("data-dir", paths.DataDir(), "data dir (env FLOWD_DATA_DIR)")
	asJSON := fl.Bool("json", false, "print JSON")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	dir, _ := os.Getwd()
	findings := doctor.Judge(doctor.Gather(socket.Path(), *cfgPath, *dataDir, dir))
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			OK       bool             `json:"ok"`
			Findings []doctor.Finding `json:"findings"`
		}{!doctor.Broken(findings), findings})
	} else {
		section := ""
		for _, f := range findings {
			if f.Section != section {
				section = f.Section
				fmt.Printf("\n%s\n", titleCase(section))
			}
			fmt.Printf("  [%s] %s\n", f.Status, f.Message)
			if f.Fix != "" {
				fmt.Printf("         fix: %s\n", f.Fix)
			}
		}
	}
	if doctor.Broken(findings) {
		return exitError(1)
	}
	return nil
}

func titleCase(s string) string {
	out := []byte(s)
	for i := range out {
		if (i == 0 || out[i-1] == ' ') && out[i] >= 'a' && out[i] <= 'z' {
			out[i] -= 'a' - 'A'
		}
	}
	return string(out)
}
