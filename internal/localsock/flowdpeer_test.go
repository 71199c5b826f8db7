package localsock

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJudgeListener(t *testing.T) {
	const me = 1000
	flowd := listenerProc{uid: me, pid: 40, lock: "/run/user/1000/flowd/flowd.sock.lock", holder: 40,
		holderExe: exeFlowd, exe: "/usr/local/bin/flowd", parent: 1, flowd: "/usr/local/bin/flowd"}
	with := func(f func(*listenerProc)) listenerProc { p := flowd; f(&p); return p }
	tests := []struct {
		name string
		p    listenerProc
		want string // "" means accepted
	}{
		{"flowd listening itself, holding its lock", flowd, ""},
		{"socket made by the service manager that started flowd", with(func(p *listenerProc) { p.pid, p.parent, p.manager = 7, 7, true }), ""},
		{"socket made by another program that started flowd", with(func(p *listenerProc) { p.pid, p.parent = 7, 7 }),
			"made by process 7, neither flowd (process 40) nor a service manager"},
		{"root's listener: Dial's rules", with(func(p *listenerProc) { p.uid, p.holder, p.holderExe = 0, 0, exeUnread }), ""},
		{"a system flowd's account: Dial's rules", with(func(p *listenerProc) { p.uid, p.holder = 990, 0 }), ""},
		{"no flowd binary to compare with", with(func(p *listenerProc) { p.flowd = "" }), "no flowd binary was found"},
		{"pid not told", with(func(p *listenerProc) { p.pid = 0 }), "did not say which process listens"},
		{"nobody holds the lock", with(func(p *listenerProc) { p.holder = 0 }), "no process holds flowd's lock"},
		{"lock holder's program unreadable", with(func(p *listenerProc) { p.holderExe = exeUnread }), "cannot be read"},
		{"lock holder runs another program", with(func(p *listenerProc) { p.holderExe, p.exe = exeOther, "/usr/bin/python3.12" }),
			"runs /usr/bin/python3.12, not /usr/local/bin/flowd"},
		{"flowd upgraded under a running flowd", with(func(p *listenerProc) { p.holderExe, p.exe = exeReplaced, "/usr/local/bin/flowd (deleted)" }),
			"restart it (flowd restart)"},
		{"flowd holds the lock, another process made the socket", with(func(p *listenerProc) { p.pid = 99 }),
			"made by process 99, neither flowd (process 40)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := judgeListener(me, tt.p)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, ErrNotFlowd)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestSameExe(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	me, err := os.Stat(self)
	require.NoError(t, err)
	other, err := os.Stat(t.TempDir())
	require.NoError(t, err)
	assert.Equal(t, exeFlowd, sameExe(me, nil, self, me))
	assert.Equal(t, exeOther, sameExe(other, nil, "/usr/bin/python3", me))
	assert.Equal(t, exeReplaced, sameExe(other, nil, "/usr/local/bin/flowd (deleted)", me))
	assert.Equal(t, exeUnread, sameExe(nil, errors.New("permission denied"), "", me))
	assert.Equal(t, exeUnread, sameExe(me, nil, self, nil), "no flowd binary to compare with")
}

// dialTimeout is generous: the machine running the tests may be busy.
const dialTimeout = 10 * time.Second
