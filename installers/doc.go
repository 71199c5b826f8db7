// Package installers holds the templates of the files that install flowd as
// an OS service: the systemd service and socket units, the sysusers.d entry
// of a system-wide install, and the launchd agent. They are the source of
// truth: `flowd install` renders them (internal/service) and nothing else
// writes unit files. The install scripts beside them are for people; this
// package only embeds the templates.
package installers
