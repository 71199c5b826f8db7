package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	n := flag.Int("n", 5000, "timed tools/call round trips per side (direct, shim)")
	preload := flag.Int("preload", 1500, "tool results recorded in the shim's session before the latency run")
	runs := flag.Int("runs", 20, "timed 10 MB results per side and server; the median is reported")
	origins := flag.Int("origins", 10000, "origins in the flow engine's session and in the hook's session")
	checks := flag.Int("checks", 4000, "timed flow checks of 4 KB arguments")
	hookRuns := flag.Int("hook-runs", 600, "timed hook evaluate runs, one at a time")
	hookCallers := flag.Int("hook-callers", 50, "concurrent hook evaluate callers for the load figure")
	hookFor := flag.Duration("hook-for", 5*time.Second, "how long the hook load runs")
	bin := flag.String("bin", "", "directory with prebuilt shim, flowd, hook, testserver, rawserver and verdictd (default: build them stripped into a temp dir)")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	gc := flag.Bool("gc", false, "run the shims with GODEBUG=gctrace=1 (their servers without it, through env -u) and count their GC cycles during the timed round trips")
	only := flag.String("only", "", `"engine": measure only the in-process flow engine (-origins, -checks) and print its figures as JSON; `+
		`"faults": kill -9 and SIGSTOP flowd under load, with fail_mode open and closed, and count every call's fate; `+
		`"contact": start -contact-shims shims at once against a fresh flowd, -contact-runs times, and time each one's first answer; `+
		`"latency": the round trips alone, printed as JSON`)
	shims := flag.Int("shims", 4, "with -only faults: shims making calls without pause")
	contactShims := flag.Int("contact-shims", 50, "with -only contact: shims started at once")
	contactRuns := flag.Int("contact-runs", 3, "with -only contact: bursts, each against a fresh flowd")
	flag.Parse()
	if flag.NArg() > 0 || (*only != "" && *only != "engine" && *only != "faults" && *only != "contact" && *only != "latency") {
		fmt.Fprintf(os.Stderr, "bench: unexpected arguments %q or -only %q\n", flag.Args(), *only)
		flag.Usage()
		os.Exit(2)
	}
	if *only == "engine" {
		// The flow engine needs no binaries, sockets or child processes:
		// tuning it should not wait on the whole run.
		e, err := measureEngine(*origins, *checks)
		if err == nil {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			err = enc.Encode(e)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *only == "faults" {
		f, err := runFaults(*bin, *shims)
		if err == nil {
			err = printFaults(os.Stdout, f, *asJSON)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *only == "contact" {
		c, err := runContact(*bin, *contactShims, *contactRuns)
		if err == nil {
			err = printContact(os.Stdout, c, *asJSON)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	rep, err := run(Config{N: *n, Warmup: 200, Blocks: 10, Preload: *preload, Runs: *runs,
		Origins: *origins, Checks: *checks,
		HookOrigins: *origins, HookRuns: *hookRuns, HookCallers: *hookCallers, HookFor: *hookFor,
		BinDir: *bin, Progress: os.Stderr, LatencyOnly: *only == "latency", GCTrace: *gc})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	if *only == "latency" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Machine Machine  `json:"machine"`
			Latency Latency  `json:"latency"`
			Memory  []Memory `json:"memory"`
		}{rep.Machine, rep.Latency, rep.Memory}); err != nil {
			fmt.Fprintln(os.Stderr, "bench: write report:", err)
			os.Exit(1)
		}
		return
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
