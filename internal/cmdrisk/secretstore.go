package cmdrisk

import (
	"slices"
	"strings"
)

// secretStores are the command lines that print a stored credential: a
// password manager's, a cloud's secret store's, a cluster's, a CLI's own
// login token. Keyed by command name; each entry is the words (after
// flags are dropped) that make the read, "" matching any operand but
// pass's own subcommands, a word starting with "-" a flag that must be
// given (kubectl get secret prints names, -o yaml their values), and
// what the store is. Its output is the secret itself, bare, with no name beside it
// that a scanner could read: the command is the only context there is.
var secretStores = map[string][]struct {
	sub  []string
	what string
}{
	"op":            {{[]string{"read"}, "1Password"}, {[]string{"item", "get"}, "1Password"}, {[]string{"document", "get"}, "1Password"}, {[]string{"inject"}, "1Password"}},
	"vault":         {{[]string{"kv", "get"}, "HashiCorp Vault"}, {[]string{"read"}, "HashiCorp Vault"}, {[]string{"print", "token"}, "HashiCorp Vault"}, {[]string{"token", "create"}, "HashiCorp Vault"}},
	"aws":           {{[]string{"secretsmanager", "get-secret-value"}, "AWS Secrets Manager"}, {[]string{"ssm", "get-parameter"}, "AWS SSM"}, {[]string{"ssm", "get-parameters"}, "AWS SSM"}, {[]string{"ssm", "get-parameters-by-path"}, "AWS SSM"}, {[]string{"configure", "get"}, "AWS credentials"}, {[]string{"configure", "export-credentials"}, "AWS credentials"}, {[]string{"sts", "get-session-token"}, "AWS STS"}, {[]string{"sts", "assume-role"}, "AWS STS"}, {[]string{"ecr", "get-login-password"}, "AWS ECR"}},
	"gcloud":        {{[]string{"secrets", "versions", "access"}, "Google Secret Manager"}, {[]string{"auth", "print-access-token"}, "Google Cloud"}, {[]string{"auth", "print-identity-token"}, "Google Cloud"}, {[]string{"auth", "application-default", "print-access-token"}, "Google Cloud"}},
	"az":            {{[]string{"keyvault", "secret", "show"}, "Azure Key Vault"}, {[]string{"keyvault", "secret", "download"}, "Azure Key Vault"}, {[]string{"account", "get-access-token"}, "Azure"}, {[]string{"storage", "account", "keys", "list"}, "Azure Storage"}},
	"kubectl":       {{[]string{"get", "secret", "-o"}, "a Kubernetes secret"}, {[]string{"get", "secrets", "-o"}, "a Kubernetes secret"}, {[]string{"create", "token"}, "Kubernetes"}},
	"pass":          {{[]string{"show"}, "pass"}, {[]string{""}, "pass"}},
	"gopass":        {{[]string{"show"}, "gopass"}, {[]string{"cat"}, "gopass"}},
	"security":      {{[]string{"find-generic-password"}, "the macOS keychain"}, {[]string{"find-internet-password"}, "the macOS keychain"}},
	"secret-tool":   {{[]string{"lookup"}, "the desktop keyring"}},
	"bw":            {{[]string{"get"}, "Bitwarden"}},
	"lpass":         {{[]string{"show"}, "LastPass"}},
	"doppler":       {{[]string{"secrets"}, "Doppler"}},
	"sops":          {{[]string{"-d"}, "sops"}, {[]string{"--decrypt"}, "sops"}, {[]string{"decrypt"}, "sops"}},
	"ansible-vault": {{[]string{"view"}, "Ansible Vault"}, {[]string{"decrypt"}, "Ansible Vault"}},
	"gh":            {{[]string{"auth", "token"}, "the GitHub CLI's login"}},
	"glab":          {{[]string{"auth", "status", "--show-token"}, "the GitLab CLI's login"}},
	"heroku":        {{[]string{"auth:token"}, "the Heroku CLI's login"}},
	"git":           {{[]string{"credential", "fill"}, "git's credential helper"}},
	"infisical":     {{[]string{"secrets"}, "Infisical"}, {[]string{"export"}, "Infisical"}},
	"chamber":       {{[]string{"read"}, "chamber"}, {[]string{"export"}, "chamber"}},
}

// SecretStore says what store a command line reads a credential from,
// or "" when it reads none.
func SecretStore(words []string) string {
	entries := secretStores[name(words)]
	if len(entries) == 0 {
		return ""
	}
	var args, flags []string
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") {
			flags = append(flags, w)
		} else {
			args = append(args, strings.ToLower(w))
		}
	}
	if slices.ContainsFunc(args, func(a string) bool { return writeVerbs[a] }) ||
		slices.Contains(args, "name") && slices.ContainsFunc(flags, func(f string) bool { return f == "-o" || f == "--output" }) ||
		slices.ContainsFunc(flags, func(f string) bool { return f == "-oname" || f == "-o=name" || f == "--output=name" }) {
		return "" // doppler secrets set, kubectl get secret -o name: no value printed
	}
	for _, e := range entries {
		if matchSub(e.sub, args, flags) && (e.what != "AWS credentials" || awsSecretKey(args)) {
			return e.what
		}
	}
	return ""
}

// writeVerbs store, change or list a credential rather than print it.
var writeVerbs = map[string]bool{"set": true, "delete": true, "upload": true, "rm": true, "remove": true, "put": true,
	"create-secret": true, "put-secret-value": true, "update-secret": true, "delete-secret": true, "put-parameter": true}

// awsSecretKey: aws configure get names a key that is a credential, not
// a region or an output format.
func awsSecretKey(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		return strings.Contains(a, "secret") || strings.Contains(a, "key_id") || strings.Contains(a, "token")
	}) || !slices.Contains(args, "get")
}

// passCommands are pass's subcommands that print no password.
var passCommands = map[string]bool{"insert": true, "add": true, "generate": true, "edit": true, "rm": true, "remove": true,
	"delete": true, "mv": true, "rename": true, "cp": true, "copy": true, "git": true, "init": true, "ls": true, "list": true,
	"find": true, "search": true, "grep": true, "help": true, "version": true}

// matchSub: the subcommand words of sub appear among args in their
// order, with other operands allowed between (a flag's value: aws
// --profile prod secretsmanager …, kubectl get -o yaml secret db), a
// word also as "word/NAME" (kubectl get secret/db); a flag of sub
// (sops -d, kubectl's -o, also as --output) is found among flags; ""
// stands for pass's first operand when it is no subcommand of pass.
func matchSub(sub, args, flags []string) bool {
	k := 0
	for _, w := range sub {
		switch {
		case strings.HasPrefix(w, "-"):
			if !slices.ContainsFunc(flags, func(f string) bool {
				return strings.HasPrefix(f, w) || w == "-o" && strings.HasPrefix(f, "--output")
			}) {
				return false
			}
		case w == "":
			if k >= len(args) || passCommands[args[k]] {
				return false
			}
			k++
		default:
			for k < len(args) && args[k] != w && !strings.HasPrefix(args[k], w+"/") {
				k++
			}
			if k == len(args) {
				return false
			}
			k++
		}
	}
	return true
}
