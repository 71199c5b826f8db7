package judge

import (
	"strings"
	"testing"
)

func TestWorth(t *testing.T) {
	for _, c := range []struct {
		args string
		want bool
	}{
		{`{"message":"hello"}`, true},
		{`{"a":1,"b":[true,null]}`, false},
		{`{"q":"see http://x"}`, true},
		{`{"Command" : "ls"}`, true},
		{`{"comm\u0061nd":"ls"}`, true},
		{`{"x":"path"}`, false},
		{`{"message":"` + strings.Repeat("a", maxTextArgs) + `"}`, false},
		{`{"command":"` + strings.Repeat("a", maxTextArgs) + `"}`, true},
	} {
		if got := worth([]byte(c.args)); got != c.want {
			t.Errorf("worth(%.60s) = %v, want %v", c.args, got, c.want)
		}
	}
}
