// Package sharedpath tells whether a path names a place that others read:
// a temporary directory every account on the machine can list and read
// (files there are created world-readable under the usual umask), a web
// server's document root, a folder a cloud service syncs, a public folder,
// a network share, or a CI configuration (.github/workflows/…), which the
// next push sends to a CI service that runs it. Writing a file there is
// sending it: to the other
// users and processes of the machine, to the network, or to a vendor. So
// a credential or instructions for another model written there are judged
// as data leaving, not as a local write.
//
// Per-user temporary directories (macOS's $TMPDIR under /var/folders,
// Windows' %TEMP% under the user's profile) are private and not listed.
//
// It judges the path's text only; it never touches the file system.
package sharedpath

import (
	"path"
	"strings"
)

const (
	tmp    = "a temporary directory every account on this machine can read"
	web    = "a web server's document root, served to the network"
	synced = "a folder synced to a cloud service"
	public = "a public folder shared with other users"
	share  = "a network share"
	ci     = "a CI configuration, pushed with the repository and run on the CI service's machines"
	unsure = "a place seen through a process's view of the file system (/proc/…/cwd, /proc/…/fd), which flowd cannot tell from a shared one"
)

// prefixes are directories (lower case, forward slashes) whose files are
// shared, with why.
var prefixes = []struct{ dir, why string }{
	{"/tmp/", tmp}, {"/var/tmp/", tmp}, {"/dev/shm/", tmp}, {"/private/tmp/", tmp}, {"/private/var/tmp/", tmp},
	{"/usr/tmp/", tmp}, {"/run/shm/", tmp}, {"/var/run/shm/", tmp}, // the distributions' links to /var/tmp and /dev/shm
	{"c:/windows/temp/", tmp},
	{"/var/www/", web}, {"/srv/www/", web}, {"/srv/http/", web}, {"/usr/share/nginx/html/", web},
	{"/usr/local/www/", web}, {"/library/webserver/documents/", web}, {"c:/inetpub/wwwroot/", web},
	{"/users/shared/", public}, {"c:/users/public/", public},
}

// TempSubdir returns, for an absolute path inside a temporary directory
// every account can read, the directory just below that one (/tmp/x for
// /tmp/x/y/z), as p spells it; "" for any other path. A directory its
// owner made private (mode 0700, as mktemp -d and test runners make
// them) keeps what it holds private: a caller that may look at the file
// system can check it.
func TempSubdir(p string) string {
	p = throughRoot(path.Clean(strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")))
	lower := strings.ToLower(p) + "/"
	for _, d := range prefixes {
		if d.why != tmp || !strings.HasPrefix(lower, d.dir) {
			continue
		}
		rest := p[len(d.dir):]
		if i := strings.IndexByte(rest, '/'); i > 0 {
			return p[:len(d.dir)+i]
		}
		return "" // a file right in the temporary directory
	}
	return ""
}

// throughRoot takes off the /proc/self/root (thread-self, a pid) a
// cleaned absolute path starts with: the writing process's root, so
// /proc/self/root/tmp/x is /tmp/x.
func throughRoot(p string) string {
	for {
		rest, ok := strings.CutPrefix(p, "/proc/")
		if !ok {
			return p
		}
		who, after, ok := strings.Cut(rest, "/")
		if !ok || !(who == "self" || who == "thread-self" || who != "" && strings.Trim(who, "0123456789") == "") {
			return p
		}
		r, ok := strings.CutPrefix(after, "root")
		if !ok || r != "" && r[0] != '/' {
			return p
		}
		p = "/" + strings.TrimPrefix(r, "/")
	}
}

// Why returns why p names a shared place, or "" when it does not. p may be
// relative (shared only when it is a CI file: a push sends it),
// start with ~ or $HOME, be a file:// URL or be written Windows-style.
func Why(p string) string {
	p = strings.Trim(strings.TrimSpace(p), `"'`)
	if p == "" || len(p) > 4096 {
		return ""
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "//") && len(p) > 2 && p[2] != '/' {
		return share // \\host\share\file
	}
	p = strings.ToLower(strings.TrimPrefix(p, "file://"))
	home := false
	for _, h := range []string{"~/", "$home/", "${home}/", "%userprofile%/"} {
		if strings.HasPrefix(p, h) {
			p, home = "/"+p[len(h):], true
			break
		}
	}
	if !home {
		p = throughRoot(path.Clean(p)) + "/" // /tmp/../home/u/x is not in /tmp
		if strings.HasPrefix(p, "/proc/") && (strings.Contains(p, "/cwd/") || strings.Contains(p, "/fd/")) {
			return unsure
		}
		for _, d := range prefixes {
			if strings.HasPrefix(p, d.dir) {
				return d.why
			}
		}
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	switch segs[len(segs)-1] {
	case ".gitlab-ci.yml", ".travis.yml", "jenkinsfile", "bitbucket-pipelines.yml", "azure-pipelines.yml", ".drone.yml",
		"cloudbuild.yaml", "cloudbuild.yml", ".woodpecker.yml":
		return ci
	}
	for i, s := range segs {
		switch {
		case s == ".github" && i+2 < len(segs) && (segs[i+1] == "workflows" || segs[i+1] == "actions"),
			(s == ".circleci" || s == ".buildkite" || s == ".woodpecker") && i+1 < len(segs):
			return ci
		case s == "gvfs" && i == 3 && segs[0] == "run" && segs[1] == "user" && i+1 < len(segs):
			if strings.HasPrefix(segs[i+1], "google-drive:") || strings.HasPrefix(segs[i+1], "onedrive:") {
				return synced
			}
			return share // GNOME's mounts: smb-share:, sftp:, dav:…
		case s == "public_html":
			return web
		case s == "dropbox" || s == "onedrive" || strings.HasPrefix(s, "onedrive - ") || s == "google drive" ||
			s == "icloud drive" || s == "icloudrive" || s == "box sync" || s == "nextcloud" || s == "owncloud":
			return synced
		case s == "library" && i+1 < len(segs) && (segs[i+1] == "mobile documents" || segs[i+1] == "cloudstorage"):
			return synced
		case s == "public" && (home && i == 0 || !home && i == 2 && (segs[0] == "home" || segs[0] == "users")):
			return public // ~/Public, /home/u/Public
		}
	}
	return ""
}
