package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/daemon"
	"github.com/flowd-dev/flowd/internal/paths"
)

func cmdRun(args []string) error {
	fl := flag.NewFlagSet("flowd run", flag.ContinueOnError)
	cfgPath := fl.String("config", paths.ConfigFile(), "config file (env FLOWD_CONFIG); a missing default file means defaults")
	socket := fl.String("socket", paths.Socket(), "socket to listen on (env FLOWD_SOCKET)")
	dataDir := fl.String("data-dir", paths.DataDir(), "where the activity store lives (env FLOWD_DATA_DIR)")
	if err := fl.Parse(args); err != nil {
		return exitError(2)
	}
	cfg, err := loadConfig(*cfgPath, fl)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel(cfg.Daemon.LogLevel)}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = daemon.Run(ctx, daemon.Options{Config: cfg, Socket: *socket, DataDir: *dataDir, Log: log}, nil)
	if errors.Is(err, daemon.ErrRunning) {
		// Several shims may start flowd at once; the losers are not failures.
		log.Info("another flowd already serves this socket; exiting", "socket", *socket)
		return nil
	}
	return err
}

// loadConfig reads the config file. Only the default path may be missing:
// a file named on the command line or in FLOWD_CONFIG must exist.
func loadConfig(path string, fl *flag.FlagSet) (*config.Config, error) {
	cfg, err := config.Load(path)
	if errors.Is(err, fs.ErrNotExist) && !explicitConfig(fl) {
		return config.Default(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("refusing to start: %w", err)
	}
	return cfg, nil
}

func explicitConfig(fl *flag.FlagSet) bool {
	set := os.Getenv("FLOWD_CONFIG") != ""
	fl.Visit(func(f *flag.Flag) {
		if f.Name == "config" {
			set = true
		}
	})
	return set
}

func logLevel(s string) slog.Level {
	var l slog.Level
	if l.UnmarshalText([]byte(s)) != nil {
		return slog.LevelInfo
	}
	return l
}
