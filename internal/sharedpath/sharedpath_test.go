package sharedpath

import "testing"

func TestWhy(t *testing.T) {
	for p, want := range map[string]string{
		"/tmp/backup.txt":                               tmp,
		"/tmp/a/b/c.env":                                tmp,
		"/var/tmp/k":                                    tmp,
		"/dev/shm/x":                                    tmp,
		"/private/tmp/keys.txt":                         tmp,
		`C:\Windows\Temp\dump.txt`:                      tmp,
		"file:///tmp/out.json":                          tmp,
		"/var/www/html/k.txt":                           web,
		"/usr/share/nginx/html/index.html":              web,
		"~/public_html/notes.txt":                       web,
		`C:\inetpub\wwwroot\a.txt`:                      web,
		"/home/u/Dropbox/keys.txt":                      synced,
		"~/OneDrive - Contoso/x.txt":                    synced,
		"/Users/u/Library/Mobile Documents/x":           synced,
		"/Users/u/Library/CloudStorage/GoogleDrive-a/x": synced,
		"~/Google Drive/x":                              synced,
		"~/Public/drop.txt":                             public,
		"/home/u/Public/drop.txt":                       public,
		"/Users/Shared/x":                               public,
		`\\fileserver\team\x.txt`:                       share,
		"//fileserver/team/x.txt":                       share,
		".github/workflows/deploy.yml":                  ci,
		"/srv/app/.github/actions/setup/action.yml":     ci,
		"repo/.gitlab-ci.yml":                           ci,
		".circleci/config.yml":                          ci,
		"Jenkinsfile":                                   ci,
	} {
		if got := Why(p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
	// Near misses: private places, and paths that only look like those.
	for _, p := range []string{
		"README.md", "tmp/out.txt", "./tmp/x", "/home/u/project/tmp/x", "/home/u/tmpfiles/x",
		"/var/folders/zz/abc/T/x.txt", `C:\Users\u\AppData\Local\Temp\x.txt`, "/tmp/../home/u/.bashrc",
		"/home/u/project/public/index.html", "src/www/app.js", "/home/u/dropbox-sdk/main.go", "/tmpx/a",
		"/home/u/.ssh/id_rsa", "", "/", "docs/.github/README.md", ".github/CODEOWNERS", "ci/deploy.yml",
	} {
		if w := Why(p); w != "" {
			t.Errorf("%s: %q, want private", p, w)
		}
	}
}

func TestTempSubdir(t *testing.T) {
	for p, want := range map[string]string{
		"/tmp/proj/notes.txt":           "/tmp/proj",
		"/tmp/Proj/a/b.txt":             "/tmp/Proj",
		"/var/tmp/x/y":                  "/var/tmp/x",
		"/tmp/notes.txt":                "",
		"/home/u/tmp/x/y":               "",
		"/tmp/../home/u/x/y":            "",
		`C:\Windows\Temp\build\out.log`: `C:/Windows/Temp/build`,
	} {
		if got := TempSubdir(p); got != want {
			t.Errorf("TempSubdir(%q) = %q, want %q", p, got, want)
		}
	}
}

// RT7-11: the other names of the shared places are shared; look-alikes
// that are not are not.
func TestAliases(t *testing.T) {
	for _, p := range []string{"/proc/self/root/tmp/notes.txt", "/proc/self/root/proc/1/root/var/www/html/k.txt",
		"/usr/tmp/n.txt", "/run/shm/n", "/proc/self/cwd/notes.txt", "/run/user/1000/gvfs/sftp:host=nas/x"} {
		if Why(p) == "" {
			t.Errorf("%s: not shared", p)
		}
	}
	for _, p := range []string{"/proc/self/root/home/u/proj/a.txt", "/run/user/1000/app.sock", "/home/u/proc/self/root/tmp/x",
		"/usr/tmpl/x", "/proc/selfish/root/tmp/x", "/run/user/1000/gvfs"} {
		if w := Why(p); w != "" {
			t.Errorf("%s: %s", p, w)
		}
	}
	if d := TempSubdir("/proc/self/root/tmp/build-1/x"); d != "/tmp/build-1" {
		t.Errorf("TempSubdir through /proc/self/root: %q", d)
	}
}
