//go:build windows

package service

import (
	"context"
	"fmt"
	"os"

	kservice "github.com/kardianos/service"
)

// Serve runs flowd. Started by the Windows service manager, flowd must
// answer its start and stop requests or be killed as hung; run then
// lives between them.
func Serve(ctx context.Context, run func(context.Context) error) error {
	if kservice.Interactive() {
		return run(ctx)
	}
	p := &scmProgram{parent: ctx, run: run, done: make(chan error, 1)}
	s, err := kservice.New(p, &kservice.Config{Name: Name})
	if err != nil {
		return fmt.Errorf("talk to the Windows service manager: %w", err)
	}
	return s.Run()
}

type scmProgram struct {
	parent context.Context
	run    func(context.Context) error
	cancel context.CancelFunc
	done   chan error
}

func (p *scmProgram) Start(kservice.Service) error {
	ctx, cancel := context.WithCancel(p.parent)
	p.cancel = cancel
	go func() {
		err := p.run(ctx)
		if ctx.Err() == nil {
			// flowd failed on its own: exit, so the service manager's
			// recovery action (restart) applies.
			fmt.Fprintln(os.Stderr, "flowd:", err)
			os.Exit(1)
		}
		p.done <- err
	}()
	return nil
}

func (p *scmProgram) Stop(kservice.Service) error {
	p.cancel()
	return <-p.done
}

// underManager reports whether the Windows service manager runs flowd.
func underManager() bool { return !kservice.Interactive() }
