//go:build redteam7

package sharedpath

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// RT7-11: other names of the shared places. /proc/self/root (and
// /proc/thread-self/root, /proc/<pid>/root) is the file system's root
// for the writing process; /usr/tmp and /run/shm are the distributions'
// links to /var/tmp and /dev/shm; GNOME mounts a user's Google Drive and
// SMB shares under /run/user/<uid>/gvfs.
func TestRT7SharedPlaceAliases(t *testing.T) {
	for _, p := range []string{
		"/proc/self/root/tmp/notes.txt",
		"/proc/thread-self/root/var/www/html/k.txt",
		"/proc/1/root/dev/shm/x",
		"/usr/tmp/notes.txt",
		"/run/shm/notes.txt",
		"/run/user/1000/gvfs/google-drive:host=gmail.com,user=me/notes.txt",
		"/run/user/1000/gvfs/smb-share:server=nas,share=pub/notes.txt",
	} {
		assert.NotEmpty(t, Why(p), "%s is read as a private place", p)
	}
}
