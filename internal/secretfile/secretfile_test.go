package secretfile

import "testing"

func TestWhy(t *testing.T) {
	for _, p := range []string{
		"/home/u/.ssh/id_rsa", "~/.ssh/id_ed25519", "~/.ssh", "C:\\Users\\u\\.ssh\\id_ecdsa", ".env", "app/.env.local",
		"config/prod.env", "~/.aws/credentials", "/root/.aws/config", "~/.netrc", "~/.pgpass", "~/.npmrc", ".pypirc",
		"~/.git-credentials", "~/.kube/config", "~/.docker/config.json", "~/.config/gcloud/credentials.db",
		"/etc/shadow", "secrets.yaml", "server.key", "tls/private.pem", "keystore.p12", "~/.gnupg/private-keys-v1.d/x.key",
		"terraform.tfstate", "~/.bash_history", "/proc/self/environ", "/run/secrets/db_password",
		"/var/run/secrets/kubernetes.io/serviceaccount/token", "my-service-account.json", "~/.config/gh/hosts.yml",
		"config/master.key", "~/.vault-token", "\"/home/u/.env\"",
	} {
		if Why(p) == "" {
			t.Errorf("%s: not a secret file", p)
		}
	}
	for _, p := range []string{
		"README.md", ".env.example", ".env.sample", "src/env.go", "~/.ssh/id_rsa.pub", "~/.ssh/known_hosts",
		"docs/secrets.md", "/etc/passwd", "/etc/hosts", "package.json", "shadow.css", "config.json", "~/.docker/daemon.json",
		"environment.yml", "src/secrets/handler.go", "keys.go", "notes/credentials-howto.txt", "",
	} {
		if w := Why(p); w != "" {
			t.Errorf("%s: %s", p, w)
		}
	}
}
