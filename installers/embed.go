package installers

import "embed"

// Templates are text/template sources, named by their path in this
// directory (systemd/flowd.service, launchd/flowd.plist, ...).
//
//go:embed systemd/flowd.service systemd/flowd.socket systemd/flowd.sysusers launchd/flowd.plist
var Templates embed.FS
