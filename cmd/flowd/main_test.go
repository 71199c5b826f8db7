package main

import (
	"os"
	"testing"

	"github.com/flowd-dev/flowd/internal/approval"
)

func TestMain(m *testing.M) {
	approval.UseTestCost()
	os.Exit(m.Run())
}
