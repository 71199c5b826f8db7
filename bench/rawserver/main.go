package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rawserver:", err)
		os.Exit(1)
	}
}

// request is what the server reads of a message; params stay raw because
// only tools/call needs them.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

const initializeResult = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":false}},"serverInfo":{"name":"flowd-bench-raw","version":"0"}}`

func serve(in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	bw := bufio.NewWriterSize(out, 64<<10)
	results := map[int][]byte{} // n → `,"result":…}` + "\n", built once per size
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if werr := answer(bw, line, results); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
	}
}

// answer writes the response to one line, if it is a request.
func answer(bw *bufio.Writer, line []byte, results map[int][]byte) error {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return fmt.Errorf("request is not JSON-RPC (%w): %.200s", err, line)
	}
	if req.ID == nil {
		return nil // a notification
	}
	var tail []byte
	switch req.Method {
	case "initialize":
		tail = []byte(`,"result":` + initializeResult + "}\n")
	case "tools/call":
		n, err := bytesArg(req.Params)
		if err != nil {
			tail = errorTail(-32602, err.Error())
			break
		}
		if tail = results[n]; tail == nil {
			tail = textResult(n)
			results[n] = tail
		}
	default:
		tail = errorTail(-32601, "method "+strconv.Quote(req.Method)+" is not served by rawserver")
	}
	bw.WriteString(`{"jsonrpc":"2.0","id":`)
	bw.Write(req.ID)
	// bufio passes most of a write larger than its buffer straight to the
	// pipe, so a 10 MB result goes out from the cached line.
	bw.Write(tail)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write response: %w", err)
	}
	return nil
}

// bytesArg reads n from a tools/call of the bytes tool.
func bytesArg(params json.RawMessage) (int, error) {
	var p struct {
		Name      string `json:"name"`
		Arguments struct {
			N *int `json:"n"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Name != "bytes" || p.Arguments.N == nil || *p.Arguments.N < 0 {
		return 0, fmt.Errorf("rawserver serves only the bytes tool with a non-negative n, not %.200s", params)
	}
	return *p.Arguments.N, nil
}

// textResult is the rest of a response whose result is a text of n 'x's,
// shaped like mcp-go's.
func textResult(n int) []byte {
	const head = `,"result":{"content":[{"type":"text","text":"`
	const foot = `"}],"isError":false}}` + "\n"
	b := make([]byte, 0, len(head)+n+len(foot))
	b = append(b, head...)
	b = append(b, strings.Repeat("x", n)...)
	return append(b, foot...)
}

func errorTail(code int, msg string) []byte {
	m, _ := json.Marshal(msg) // a string always encodes
	return []byte(`,"error":{"code":` + strconv.Itoa(code) + `,"message":` + string(m) + "}}\n")
}
