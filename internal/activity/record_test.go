package activity

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRiskAtLeast(t *testing.T) {
	tests := []struct {
		level, min string
		want       bool
	}{
		{"critical", "high", true},
		{"high", "high", true},
		{"medium", "high", false},
		{"none", "low", false},
		{"", "none", true},
		{"", "low", false},
		{"low", "", true},
		{"HIGH", "high", true},
		{"high", "Critical", false},
		{"severe", "none", false}, // unknown level never matches
		{"critical", "severe", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, RiskAtLeast(tt.level, tt.min), "RiskAtLeast(%q, %q)", tt.level, tt.min)
	}
}

func TestFilterMatches(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	r := Record{Time: t0, Type: "tool_call", Session: "s1", Server: "github",
		RiskLevel: "high", FlowType: "internal_to_external"}
	tests := []struct {
		name string
		f    Filter
		want bool
	}{
		{"empty matches all", Filter{}, true},
		{"type", Filter{Type: "tool_call"}, true},
		{"other type", Filter{Type: "shim_connect"}, false},
		{"session", Filter{Session: "s1"}, true},
		{"other session", Filter{Session: "s2"}, false},
		{"server", Filter{Server: "github"}, true},
		{"other server", Filter{Server: "slack"}, false},
		{"flow type", Filter{FlowType: "internal_to_external"}, true},
		{"other flow type", Filter{FlowType: "external_to_internal"}, false},
		{"risk below", Filter{RiskLevel: "medium"}, true},
		{"risk above", Filter{RiskLevel: "critical"}, false},
		{"since equal", Filter{Since: t0}, true},
		{"since after", Filter{Since: t0.Add(time.Second)}, false},
		{"all fields", Filter{Type: "tool_call", Session: "s1", Server: "github", RiskLevel: "high",
			FlowType: "internal_to_external", Since: t0.Add(-time.Hour)}, true},
		{"one field off", Filter{Type: "tool_call", Session: "s1", Server: "slack"}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.f.Matches(r), tt.name)
	}
}

func TestFilterOwner(t *testing.T) {
	ann, bob := 1000, 1001
	tests := []struct {
		session string
		owner   *int
		want    bool
	}{
		{"uid1000:cc", &ann, true},
		{"uid1001:cc", &ann, false},
		{"uid1001:cc", &bob, true},
		{"cc", &ann, false}, // a session of no user's is not theirs
		{"", &ann, false},
		{"uid1001:cc", nil, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Filter{Owner: tt.owner}.Matches(Record{Session: tt.session}), "%q %v", tt.session, tt.owner)
	}
}
