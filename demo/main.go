// Command demo shows flowd's main job end to end, on its embedded default
// configuration, in temporary directories, with real MCP servers:
//
//	go run ./demo
//
// A real MCP client (mcp-go) talks to two wrapped servers: the reference
// filesystem server (npm @modelcontextprotocol/server-filesystem, internal)
// and a chat server named "slack" (external). The first shim starts flowd
// on demand. The client reads a .env file through the filesystem server
// and tries to post its AWS secret to slack, raw and base64-encoded:
// flowd blocks both. A sentence from an internal note goes out with a
// warning (there is nobody to ask without hooks), small talk passes, and
// `flowd activity` shows every decision.
package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" // AWS's documented example: a key leaving is the event, sample or not

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run() error {
	tmp, err := os.MkdirTemp("", "flowd-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bin")
	step("Building shim, flowd and a test chat server into %s", bin)
	if out, err := exec.Command("go", "build", "-o", bin+"/", "./cmd/shim", "./cmd/flowd", "./internal/testserver").CombinedOutput(); err != nil {
		return fmt.Errorf("go build (run the demo from the repository root): %v\n%s", err, out)
	}
	fsServer, err := filesystemServer()
	if err != nil {
		return err
	}

	// Everything flowd keeps lives in the temp dir; the config is the
	// embedded default, written out so no user config is picked up.
	cfg := filepath.Join(tmp, "config.toml")
	def, err := exec.Command(filepath.Join(bin, "flowd"), "config", "default").Output()
	if err != nil {
		return fmt.Errorf("flowd config default: %w", err)
	}
	os.WriteFile(cfg, def, 0o600)
	env := append(os.Environ(),
		"FLOWD_SOCKET="+filepath.Join(tmp, "run", "flowd.sock"),
		"FLOWD_DATA_DIR="+filepath.Join(tmp, "data"),
		"FLOWD_CONFIG="+cfg)
	for _, kv := range env[len(env)-3:] {
		os.Setenv(strings.SplitN(kv, "=", 2)[0], strings.SplitN(kv, "=", 2)[1])
	}
	defer stopFlowd(bin)

	project := filepath.Join(tmp, "project")
	os.MkdirAll(project, 0o700)
	os.WriteFile(filepath.Join(project, ".env"), []byte("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY="+secret+"\n"), 0o600)
	note := "The Q3 launch moves to October 14 because the payments audit needs two more weeks of review."
	os.WriteFile(filepath.Join(project, "notes.md"), []byte("# Planning\n\n"+note+"\n"), 0o600)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	step("Starting two wrapped servers; the first shim starts flowd (no service, no manual start)")
	fs, err := connect(ctx, env, filepath.Join(bin, "shim"), "--name", "filesystem", "--", "node", fsServer, project)
	if err != nil {
		return fmt.Errorf("filesystem server: %w", err)
	}
	defer fs.Close()
	slack, err := connect(ctx, env, filepath.Join(bin, "shim"), "--name", "slack", "--", filepath.Join(bin, "testserver"), "--name", "slack")
	if err != nil {
		return fmt.Errorf("slack server: %w", err)
	}
	defer slack.Close()

	call(ctx, fs, "filesystem", "read_text_file", map[string]any{"path": filepath.Join(project, ".env")})
	call(ctx, slack, "slack", "send_message", map[string]any{"channel": "#general", "text": "our AWS key is " + secret})
	call(ctx, slack, "slack", "send_message", map[string]any{"channel": "#general", "text": base64.StdEncoding.EncodeToString([]byte("AWS_SECRET_ACCESS_KEY=" + secret))})
	call(ctx, fs, "filesystem", "read_text_file", map[string]any{"path": filepath.Join(project, "notes.md")})
	call(ctx, slack, "slack", "send_message", map[string]any{"channel": "#team", "text": "FYI: " + note})
	call(ctx, slack, "slack", "send_message", map[string]any{"channel": "#random", "text": "Lunch at noon?"})
	call(ctx, slack, "slack", "send_message", map[string]any{"channel": "#general", "text": "results: https://webhook.site/3f2a"})

	step("flowd activity --type tool_call (what flowd saw and decided)")
	act := exec.Command(filepath.Join(bin, "flowd"), "activity", "--type", "tool_call")
	act.Stdout, act.Stderr = os.Stdout, os.Stderr
	return act.Run()
}

func step(format string, args ...any) {
	fmt.Printf("\n== "+format+"\n", args...)
}

func connect(ctx context.Context, env []string, cmd string, args ...string) (*client.Client, error) {
	c, err := client.NewStdioMCPClient(cmd, env, args...)
	if err != nil {
		return nil, err
	}
	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "flowd-demo", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		c.Close()
		return nil, err
	}
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func call(ctx context.Context, c *client.Client, server, tool string, args map[string]any) {
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	fmt.Printf("\n-> %s.%s %v\n", server, tool, args)
	res, err := c.CallTool(ctx, req)
	if err != nil {
		fmt.Printf("   error: %v\n", err)
		return
	}
	for _, content := range res.Content {
		if t, ok := content.(mcp.TextContent); ok {
			fmt.Printf("   %s\n", strings.ReplaceAll(strings.TrimSpace(t.Text), "\n", "\n   "))
		}
	}
}

// filesystemServer finds the npm filesystem server, installing it into the
// tools dir the tests use when it is not there yet.
func filesystemServer() (string, error) {
	dir := os.Getenv("FLOWD_TOOLS_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "flowd-test-tools")
	}
	script := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	if _, err := os.Stat(script); err == nil {
		return script, nil
	}
	step("Installing @modelcontextprotocol/server-filesystem from npm into %s", dir)
	os.MkdirAll(dir, 0o755)
	npm := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "@modelcontextprotocol/server-filesystem@2026.8.31")
	npm.Stdout, npm.Stderr = os.Stderr, os.Stderr
	if err := npm.Run(); err != nil {
		return "", fmt.Errorf("npm install: %w", err)
	}
	return script, nil
}

// stopFlowd ends the flowd the shim started, so nothing outlives the demo.
func stopFlowd(bin string) {
	out, err := exec.Command(filepath.Join(bin, "flowd"), "status", "--json").Output()
	if err != nil {
		return
	}
	var pid int
	if i := strings.Index(string(out), `"pid": `); i >= 0 {
		fmt.Sscanf(string(out[i+7:]), "%d", &pid)
	}
	if p, err := os.FindProcess(pid); pid > 0 && err == nil {
		p.Signal(syscall.SIGTERM)
	}
}
