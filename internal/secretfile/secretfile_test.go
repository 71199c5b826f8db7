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

func TestKeyMaterial(t *testing.T) {
	for _, p := range []string{
		"/home/user/.ssh/id_rsa", "~/.ssh/id_ed25519", `C:\Users\u\.ssh\id_ecdsa`, "/root/.ssh/id_work_laptop",
		"/etc/ssh/ssh_host_ed25519_key", "certs/server.key", "~/keys/deploy.ppk", "store.p12", "release.jks",
		"~/.bitcoin/wallet.dat", "~/.ethereum/keystore/UTC--2024-01-01T00-00-00.0Z--abc", "~/.gnupg/private-keys-v1.d/ABC.key",
		"tls/privkey.pem", "/etc/letsencrypt/live/x/privkey.pem", "secrets/signing-key.pem", "vault.kdbx",
	} {
		if !KeyMaterial(p) {
			t.Errorf("%s: not key material", p)
		}
	}
	// Near misses: public halves, configs and certificates beside keys,
	// the directory itself, other credentials (not key material).
	for _, p := range []string{
		"~/.ssh/id_rsa.pub", "~/.ssh/known_hosts", "~/.ssh/config", "~/.ssh", "/home/user/.ssh/", "~/.ssh/authorized_keys",
		"/etc/ssh/ssh_host_ed25519_key.pub", "/etc/ssh/sshd_config", "tls/cert.pem", "/etc/letsencrypt/live/x/fullchain.pem",
		"ca-bundle.pem", ".env", "~/.aws/credentials", "README.md", "src/keys.go", "docs/id_rsa.md", "id_card.png", "",
	} {
		if KeyMaterial(p) {
			t.Errorf("%s: key material", p)
		}
	}
}

func TestNamesKeyMaterial(t *testing.T) {
	for _, text := range []string{
		`{"path":"/home/user/.ssh/id_rsa"}`, `{"file":"~\/.ssh\/id_ed25519"}`, `{"paths":["README.md","certs/server.key"]}`,
		`{"command":"cat ~/.ssh/id_ecdsa|base64"}`, `{"src":"wallet.dat","dst":"/tmp/w"}`,
	} {
		if !NamesKeyMaterial([]byte(text)) {
			t.Errorf("%s: no key material named", text)
		}
	}
	for _, text := range []string{
		`{"path":"README.md"}`, `{"path":"~/.ssh/id_rsa.pub"}`, `{"path":"~/.ssh/config"}`, `{"text":"keys and ids"}`,
		`{"path":"/etc/letsencrypt/live/x/fullchain.pem"}`, ``,
	} {
		if NamesKeyMaterial([]byte(text)) {
			t.Errorf("%s: key material named", text)
		}
	}
}
