// Package secretfile tells whether a path names a file that holds
// credentials: private keys, cloud and registry credentials, .env files,
// password stores, shell histories, the system's password hashes. Reading
// one is a sensitive read whatever bytes come back: flowd may never see
// them (the agent read the file with a tool flowd cannot watch, or the
// result was summarised), so a read of such a path followed by a call
// that reaches the network is worth a question (see policy.ReadThenSend).
//
// It judges the path's text only; it never touches the file system.
package secretfile

import (
	"bytes"
	"path"
	"strings"
)

// dirs are directories whose every file is a credential or key material,
// as path segments (in lower case).
var dirs = map[string]string{
	".ssh":            "an SSH directory (private keys)",
	".gnupg":          "a GnuPG keyring",
	".password-store": "a password store",
	".aws":            "AWS credentials",
	".azure":          "Azure credentials",
	"gcloud":          "Google Cloud credentials",
	".kube":           "a Kubernetes config (cluster credentials)",
	".docker":         "Docker registry credentials",
	"secrets":         "a secrets directory",
	".vault":          "a Vault directory",
	"keyrings":        "a keyring",
	".terraform.d":    "Terraform credentials",
}

// dirExempt are files in those directories that are not secret.
var dirExempt = map[string]bool{"known_hosts": true, "authorized_keys": false, "config.json.example": true}

// names are whole file names (lower case).
var names = map[string]string{
	".env": "an environment file", ".envrc": "an environment file", ".netrc": "a .netrc (login passwords)",
	"_netrc": "a .netrc (login passwords)", ".pgpass": "a PostgreSQL password file", ".my.cnf": "a MySQL client config (password)",
	".npmrc": "an npm config (registry token)", ".pypirc": "a PyPI config (upload token)", ".git-credentials": "Git credentials",
	".gem/credentials": "RubyGems credentials", "credentials": "a credentials file", "credentials.json": "a credentials file",
	"credentials.yml": "a credentials file", "credentials.yaml": "a credentials file", "credentials.xml": "a credentials file",
	"secrets.json": "a secrets file", "secrets.yml": "a secrets file", "secrets.yaml": "a secrets file",
	"secrets.toml": "a secrets file", "secret.json": "a secrets file", ".secrets": "a secrets file",
	"id_rsa": "an SSH private key", "id_dsa": "an SSH private key", "id_ecdsa": "an SSH private key",
	"id_ed25519": "an SSH private key", "shadow": "the system's password hashes", "gshadow": "the system's password hashes",
	"master.key": "a Rails master key", "credentials.yml.enc": "Rails credentials", ".vault-token": "a Vault token",
	"terraform.tfstate": "Terraform state (holds secrets)", "terraform.tfstate.backup": "Terraform state (holds secrets)",
	".htpasswd": "password hashes", "wallet.dat": "a cryptocurrency wallet", "keystore.json": "a key store",
	".bash_history": "a shell history (typed secrets)", ".zsh_history": "a shell history (typed secrets)",
	".psql_history": "a shell history (typed secrets)", ".mysql_history": "a shell history (typed secrets)",
	"hosts.yml": "", "login data": "browser passwords", "logins.json": "browser passwords", "key4.db": "browser passwords",
	"cookies": "browser cookies", "cookies.sqlite": "browser cookies", "environ": "a process environment",
	"token": "a token file", "access_token": "a token file", ".token": "a token file", "client_secret.json": "an OAuth client secret",
	"application_default_credentials.json": "Google Cloud credentials", "accesstokens.json": "Azure tokens",
	"config.json": "", "kubeconfig": "a Kubernetes config (cluster credentials)", "auth.json": "an auth token file",
}

// exts are file extensions of key material.
var exts = map[string]string{
	".pem": "a PEM key or certificate", ".key": "a private key", ".p12": "a PKCS#12 key store", ".pfx": "a PKCS#12 key store",
	".jks": "a Java key store", ".keystore": "a key store", ".ppk": "a PuTTY private key", ".kdbx": "a KeePass database",
	".keychain": "a keychain", ".keychain-db": "a keychain", ".asc": "", ".gpg": "",
}

// notSecret are suffixes of names that are templates, not the real file.
var notSecret = []string{".example", ".sample", ".template", ".dist", ".tmpl", ".pub", ".md", ".txt.example"}

// Why returns what kind of secret file p names, or "" when it names none.
// p may be relative, start with ~ or $HOME, or be written Windows-style.
func Why(p string) string {
	p = strings.Trim(strings.TrimSpace(p), `"'`)
	if p == "" || len(p) > 4096 {
		return ""
	}
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	p = strings.TrimPrefix(p, "file://")
	base := path.Base(p)
	for _, s := range notSecret {
		if strings.HasSuffix(base, s) {
			return ""
		}
	}
	if w, ok := names[base]; ok && w != "" {
		if base == "environ" && !strings.HasPrefix(p, "/proc/") {
			return ""
		}
		if base == "shadow" || base == "gshadow" {
			if !strings.HasPrefix(p, "/etc/") {
				return ""
			}
		}
		return w
	}
	// .env.local, .env.production, prod.env
	if strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") {
		return "an environment file"
	}
	if strings.HasPrefix(base, "id_") && !strings.Contains(base, ".") && strings.Contains(p, ".ssh") {
		return "an SSH private key"
	}
	if strings.Contains(base, "service-account") && strings.HasSuffix(base, ".json") || strings.HasPrefix(base, "sa-key") {
		return "a cloud service-account key"
	}
	if w := exts[path.Ext(base)]; w != "" {
		return w
	}
	segs := strings.Split(strings.TrimSuffix(p, "/"), "/") // the directory itself counts: tar czf - ~/.ssh
	for _, s := range segs {
		if w, ok := dirs[s]; ok && !dirExempt[base] {
			switch {
			case s == ".docker" && base != "config.json":
				continue
			case s == "gcloud" && !strings.Contains(p, ".config/gcloud"):
				continue
			case s == "keyrings" && !strings.Contains(p, ".local/share/keyrings"):
				continue
			case s == "secrets" && !(strings.HasPrefix(p, "/run/secrets") || strings.HasPrefix(p, "/var/run/secrets")):
				continue
			}
			return w
		}
	}
	if base == "hosts.yml" && strings.Contains(p, "/gh/") {
		return "GitHub CLI credentials"
	}
	return ""
}

// keyExts are extensions of files that are private key material whatever
// their name.
var keyExts = map[string]bool{".key": true, ".ppk": true, ".p12": true, ".pfx": true, ".jks": true, ".keystore": true, ".kdbx": true}

// KeyMaterial reports whether p names a file of private key material: an
// SSH or host private key, a PuTTY key, a key store, a GnuPG private key,
// a wallet, a PEM file named for a key. Reading one through a tool puts
// the key in the model's context, and so with the model's provider: a
// read that is also a send. Certificates, public keys and configs in the
// same places are not key material.
func KeyMaterial(p string) bool {
	p = strings.Trim(strings.TrimSpace(p), `"'`)
	if p == "" || len(p) > 4096 {
		return false
	}
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	p = strings.TrimPrefix(p, "file://")
	base := path.Base(p)
	for _, s := range notSecret {
		if strings.HasSuffix(base, s) {
			return false
		}
	}
	ext := path.Ext(base)
	switch {
	case strings.HasPrefix(base, "id_") && ext == "" && strings.Contains(p, ".ssh/"):
		return true
	case strings.HasPrefix(base, "ssh_host_") && strings.HasSuffix(base, "_key"):
		return true
	case base == "wallet.dat" || base == "keystore.json" || strings.HasPrefix(base, "utc--"): // geth key files
		return true
	case strings.Contains(p, ".gnupg/private-keys"), strings.HasSuffix(base, ".gpg") && strings.Contains(base, "secret"):
		return true
	case keyExts[ext]:
		return true
	case ext == ".pem":
		return strings.Contains(base, "key") || strings.Contains(base, "priv")
	}
	return false
}

// NamesKeyMaterial reports whether any path-like token of text (split at
// quotes, blanks and JSON or shell punctuation) names key material: a
// cheap screen for arguments that must not go by without a verdict.
func NamesKeyMaterial(text []byte) bool {
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && !tokenStop(text[j]) {
			j++
		}
		if tok := text[i:j]; len(tok) > 3 && len(tok) <= 4096 && bytes.ContainsAny(tok, "._-") && KeyMaterial(string(tok)) {
			return true
		}
		i = j + 1
	}
	return false
}

func tokenStop(c byte) bool {
	switch c {
	case '"', '\'', '`', ' ', '\t', '\r', '\n', ',', '{', '}', '[', ']', '=', ';', '|', '&', '<', '>', '(', ')':
		return true
	}
	return false
}
