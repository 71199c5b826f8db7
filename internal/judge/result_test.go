package judge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/injection"
)

func TestOnIncomplete(t *testing.T) {
	cut := injection.Result{Action: injection.ActionPass, Truncated: true}
	whole := injection.Result{Action: injection.ActionPass}
	found := injection.Result{Action: injection.ActionRedact, Score: 0.7, Truncated: true}
	tests := []struct {
		name          string
		r             injection.Result
		mode          string
		external      bool
		want          injection.Action
		wantUnscanned bool
	}{
		{"pass keeps a cut result's verdict", cut, config.IncompletePass, true, injection.ActionPass, false},
		{"flag flags a cut result that would pass", cut, config.IncompleteFlag, true, injection.ActionFlag, true},
		{"flag flags it from an internal source too", cut, config.IncompleteFlag, false, injection.ActionFlag, true},
		{"untrusted flags a cut result from outside", cut, config.IncompleteUntrusted, true, injection.ActionFlag, true},
		{"untrusted keeps an internal source's verdict", cut, config.IncompleteUntrusted, false, injection.ActionPass, false},
		{"a result scanned whole is not touched", whole, config.IncompleteFlag, true, injection.ActionPass, false},
		{"what the scanned part scored stands", found, config.IncompleteFlag, true, injection.ActionRedact, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, unscanned := onIncomplete(tc.r, tc.mode, tc.external)
			assert.Equal(t, tc.want, r.Action)
			assert.Equal(t, tc.wantUnscanned, unscanned)
		})
	}
}
