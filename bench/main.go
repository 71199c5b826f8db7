package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	n := flag.Int("n", 5000, "timed tools/call round trips per side (direct, shim)")
	runs := flag.Int("runs", 20, "timed 10 MB results per side; the median is reported")
	bin := flag.String("bin", "", "directory with prebuilt shim, flowd and testserver (default: build them stripped into a temp dir)")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "bench: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	rep, err := run(Config{N: *n, Warmup: 200, Blocks: 10, Runs: *runs, BinDir: *bin, Progress: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = printTable(os.Stdout, rep)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench: write report:", err)
		os.Exit(1)
	}
}
