//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/paths"
)

// faultRun runs the schedule once, with fail_mode mode, in dir.
func faultRun(bins binaries, dir, mode string, shims int) (res Faults, err error) {
	res.FailMode, res.Shims = mode, shims
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return res, err
	}
	cfgText := string(config.DefaultTOML())
	for _, kv := range [][2]string{{`fail_mode = "open"`, `fail_mode = "` + mode + `"`},
		{`verdict_timeout = "5s"`, `verdict_timeout = "` + faultTimeout.String() + `"`},
		{"\n[classify.servers]\n", "\n[classify.servers]\n\"" + internalName + "\" = \"internal\"\n"}} {
		if !strings.Contains(cfgText, kv[0]) {
			return res, fmt.Errorf("the default config has no %q to change", kv[0])
		}
		cfgText = strings.Replace(cfgText, kv[0], kv[1], 1)
	}
	own, err := paths.OwnUnder(dir)
	if err != nil {
		return res, err
	}
	socket, dataDir, cfgFile := own.Socket, own.DataDir, own.ConfigFile
	if err := os.WriteFile(cfgFile, []byte(cfgText), 0o600); err != nil {
		return res, err
	}
	env := benchEnv(own)
	fd, err := startFlowd(bins.flowd, socket, dataDir, cfgFile, env)
	if err != nil {
		return res, err
	}
	defer func() {
		if fd != nil {
			err = errors.Join(err, fd.stop())
		}
	}()

	var clients []*rpcClient
	for i := range shims {
		c, err := startClient(fmt.Sprintf("shim %d", i), []string{bins.shim, "--no-autostart", "--socket", socket,
			"--name", internalName, "--", bins.testserver}, env)
		if err != nil {
			return res, err
		}
		clients = append(clients, c)
		if err := c.handshake(); err != nil {
			return res, err
		}
	}
	var stop atomic.Bool
	var longest atomic.Int64
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; !stop.Load(); n++ {
				atomic.AddInt64(&res.Calls, 1)
				id := c.id()
				msg := fmt.Sprintf("call %d of shim %d", n, i)
				line, d, err := c.roundTrip(echoRequest(id, msg))
				if d.Milliseconds() > longest.Load() {
					longest.Store(d.Milliseconds())
				}
				switch {
				case err != nil:
					atomic.AddInt64(&res.Unanswered, 1)
					return // the process is gone
				case echoed(line, id, msg):
					atomic.AddInt64(&res.Echoed, 1)
				case refusedCall(line, id):
					atomic.AddInt64(&res.Refused, 1)
				default:
					atomic.AddInt64(&res.Wrong, 1)
				}
			}
		}()
	}

	// The schedule: steady, flowd killed, back, stopped past the verdict
	// timeout, continued, steady.
	time.Sleep(time.Second)
	fd.cmd.Process.Signal(syscall.SIGKILL)
	<-fd.exited
	fd = nil
	time.Sleep(2 * faultTimeout)
	if fd, err = startFlowd(bins.flowd, socket, dataDir, cfgFile, env); err != nil {
		stop.Store(true)
		wg.Wait()
		return res, err
	}
	time.Sleep(2 * time.Second)
	fd.cmd.Process.Signal(syscall.SIGSTOP)
	time.Sleep(3 * faultTimeout)
	fd.cmd.Process.Signal(syscall.SIGCONT)
	time.Sleep(2 * time.Second)
	stop.Store(true)
	wg.Wait()
	res.LongestMS = longest.Load()
	for _, c := range clients {
		err = errors.Join(err, c.close())
	}
	// The shims tell flowd what it missed once they are back with it; the
	// log is flushed before a query answers.
	recs, qerr := flowdclient.NewClient(socket, 10*time.Second).Activity(activity.Filter{Type: activity.TypeUnjudged, Limit: 100000})
	res.Unjudged = len(recs)
	return res, errors.Join(err, qerr)
}
