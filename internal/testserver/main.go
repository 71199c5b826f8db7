// Command testserver is a small stdio MCP server built on mcp-go for
// flowd's own tests and benchmarks: it can be named like any real server
// (github, postgres-db, slack-notifications) and has tools that return what
// a test needs: echo (its description can come from a file), a result of
// N bytes, a fixed document (in one text item or several), a slow call, the names of the arguments a call
// arrived with.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	name := flag.String("name", "flowd-test-server", "serverInfo.name")
	doc := flag.String("doc", "", "text returned by the read_document tool")
	split := flag.String("split", "", "return the document as one text item per part between these separators")
	exitNow := flag.Int("exit", -1, "exit at once with this code, before reading anything")
	descFile := flag.String("desc-file", "", "read the echo tool's description from this file at start (a test that edits it between runs is a rug pull)")
	flag.Parse()
	if *exitNow >= 0 {
		fmt.Fprintln(os.Stderr, "testserver: exiting at once as asked")
		os.Exit(*exitNow)
	}
	echoDesc := "Return the message"
	if *descFile != "" {
		b, err := os.ReadFile(*descFile)
		if err != nil {
			log.Fatal(err)
		}
		echoDesc = string(b)
	}
	s := server.NewMCPServer(*name, "0.1.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription(echoDesc),
		mcp.WithString("message", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			m, err := req.RequireString("message")
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return mcp.NewToolResultText(m), nil
		})
	s.AddTool(mcp.NewTool("bytes", mcp.WithDescription("Return a text of n bytes"),
		mcp.WithNumber("n", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n, err := req.RequireFloat("n")
			if err != nil || n < 0 {
				return mcp.NewToolResultError("n must be a non-negative number"), nil
			}
			return mcp.NewToolResultText(strings.Repeat("x", int(n))), nil
		})
	s.AddTool(mcp.NewTool("read_document", mcp.WithDescription("Return the document given with --doc")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if *split == "" {
				return mcp.NewToolResultText(*doc), nil
			}
			r := &mcp.CallToolResult{}
			for _, p := range strings.Split(*doc, *split) {
				r.Content = append(r.Content, mcp.NewTextContent(p))
			}
			return r, nil
		})
	s.AddTool(mcp.NewTool("send_message", mcp.WithDescription("Send a message to a channel"),
		mcp.WithString("channel"), mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			t, _ := req.RequireString("text")
			return mcp.NewToolResultText(fmt.Sprintf("sent %d bytes", len(t))), nil
		})
	s.AddTool(mcp.NewTool("sleep", mcp.WithDescription("Answer after ms milliseconds"),
		mcp.WithNumber("ms", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ms, _ := req.RequireFloat("ms")
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
				return mcp.NewToolResultText("slept"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("Always answers isError")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("this tool always fails"), nil
		})
	s.AddTool(mcp.NewTool("post_arguments", mcp.WithDescription("Post a message; answers with the argument names it received"),
		mcp.WithString("text")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			names := make([]string, 0, len(req.GetArguments()))
			for k := range req.GetArguments() {
				names = append(names, k)
			}
			sort.Strings(names)
			return mcp.NewToolResultText("received " + strings.Join(names, ",")), nil
		})
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
