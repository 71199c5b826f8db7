package classify

import (
	"sort"
	"strings"
)

// category is one kind of service a name can point at.
type category struct {
	name   string
	class  Class
	weight float64
	// private: an external service whose content is the user's own data
	// (a mailbox, chat history), so reading from it returns private data.
	private bool
	// shared: an internal store where what a tool writes can be read by
	// other people. Code hosts are the case that matters: repositories,
	// issues and pull requests are often public, so a write there can
	// exfiltrate while a read cannot.
	shared bool
	// transport: the word names a way of moving data (send, post, fetch,
	// paste, webhook) rather than a place, so on an internal server it
	// still means data leaves.
	transport bool
}

var (
	catDatabase = &category{name: "database", class: Internal, weight: 0.9}
	catFiles    = &category{name: "file system", class: Internal, weight: 0.9}
	catRepo     = &category{name: "local repository", class: Internal, weight: 0.85}
	catCodeHost = &category{name: "code host", class: Internal, weight: 0.9, shared: true}
	catVault    = &category{name: "secret store", class: Internal, weight: 0.9}
	catTickets  = &category{name: "ticket system", class: Internal, weight: 0.85}
	catDocs     = &category{name: "document store", class: Internal, weight: 0.8}
	// Hosted wikis and document services publish and share pages with a
	// click: like a code host, a write there may be read by others.
	catHostedDocs    = &category{name: "hosted document service", class: Internal, weight: 0.8, shared: true}
	catObjects       = &category{name: "object store", class: Internal, weight: 0.85}
	catMemory        = &category{name: "knowledge store", class: Internal, weight: 0.85}
	catCompute       = &category{name: "local computation", class: Internal, weight: 0.75}
	catObservability = &category{name: "logs and metrics", class: Internal, weight: 0.8}

	catChat    = &category{name: "chat", class: External, weight: 0.9, private: true}
	catMail    = &category{name: "mail", class: External, weight: 0.9, private: true}
	catSMS     = &category{name: "SMS or phone", class: External, weight: 0.9}
	catSocial  = &category{name: "social network", class: External, weight: 0.85}
	catNotify  = &category{name: "notifications", class: External, weight: 0.7}
	catAPI     = &category{name: "third-party API", class: External, weight: 0.6}
	catWebhook = &category{name: "webhook", class: External, weight: 0.85, transport: true}
	catHTTP    = &category{name: "HTTP client", class: External, weight: 0.85, transport: true}
	catSearch  = &category{name: "web search", class: External, weight: 0.85, transport: true}
	catPaste   = &category{name: "paste site", class: External, weight: 0.9, transport: true}
	catSend    = &category{name: "sending data", class: External, weight: 0.8, transport: true}
	// A model behind an API reads whatever text it is given, at its
	// provider: a tool that summarises, translates or rewrites "with an
	// LLM" sends the text out (found by a red team, RT8-13).
	catModel = &category{name: "hosted AI model", class: External, weight: 0.8, transport: true}

	catCloud     = &category{name: "cloud platform", class: Hybrid, weight: 0.6}
	catShell     = &category{name: "shell", class: Hybrid, weight: 0.85}
	catBrowser   = &category{name: "browser", class: Hybrid, weight: 0.85}
	catContainer = &category{name: "container platform", class: Hybrid, weight: 0.8}
	catCodeRun   = &category{name: "code runner", class: Hybrid, weight: 0.75}
	catCalendar  = &category{name: "calendar", class: Hybrid, weight: 0.7}
)

// keywordGroups is the vocabulary. Words are lower case and matched as
// whole tokens (plurals folded), as the concatenation of two neighbouring
// tokens ("web"+"hook"), and, when nothing else matched, as a substring of
// a glued-together word if at least minSubstring long. weight 0 means the
// category's weight; a lower one marks a word that is suggestive but
// ambiguous.
var keywordGroups = []struct {
	cat    *category
	weight float64
	words  []string
}{
	{catDatabase, 0, []string{"postgres", "postgresql", "pg", "pgvector", "mysql", "mariadb", "sqlite", "sqlite3", "sql",
		"mssql", "sqlserver", "oracle", "mongo", "mongodb", "redis", "valkey", "db", "database", "duckdb", "clickhouse",
		"cassandra", "scylla", "dynamodb", "elasticsearch", "opensearch", "neo4j", "supabase", "snowflake", "bigquery",
		"redshift", "databricks", "firestore", "firebase", "couchdb", "couchbase", "influxdb", "timescale", "cockroachdb",
		"prisma", "airtable", "qdrant", "pinecone", "chroma", "chromadb", "weaviate", "milvus", "datastore"}},
	{catFiles, 0, []string{"filesystem", "fs", "file", "files", "dir", "directory", "directories", "folder", "disk", "localfs"}},
	{catRepo, 0, []string{"git", "repo", "repository", "repositories"}},
	{catCodeHost, 0, []string{"github", "gitlab", "bitbucket", "gitea", "forgejo", "codeberg", "sourcehut", "gerrit",
		"azuredevops", "pullrequest", "mergerequest"}},
	{catVault, 0, []string{"vault", "secret", "secrets", "keychain", "keyring", "1password", "onepassword", "bitwarden",
		"keepass", "keepassxc", "lastpass", "kms", "password", "passwords", "credential", "credentials", "secretsmanager"}},
	{catTickets, 0, []string{"jira", "linear", "asana", "trello", "youtrack", "redmine", "servicenow", "clickup", "issue",
		"issues", "ticket", "tickets", "todo", "todos", "task", "tasks", "backlog", "sprint"}},
	{catDocs, 0, []string{"obsidian", "notes", "note", "logseq", "spreadsheet", "excel"}},
	{catHostedDocs, 0, []string{"notion", "confluence", "wiki", "evernote", "onenote", "coda", "quip", "gdocs", "sheets",
		"sharepoint"}},
	{catDocs, 0.7, []string{"docs", "document", "documents"}},
	{catObjects, 0, []string{"s3", "gcs", "blob", "minio", "bucket", "storage", "r2", "objectstore", "drive", "gdrive",
		"googledrive", "onedrive", "dropbox"}},
	{catMemory, 0, []string{"memory", "memories", "knowledge", "knowledgebase", "kb", "mem0", "rag"}},
	{catMemory, 0.75, []string{"vector", "vectors", "embeddings"}},
	{catCompute, 0, []string{"time", "clock", "timezone", "calculator", "calc", "math", "thinking", "sequentialthinking",
		"reasoning", "think", "uuid"}},
	{catObservability, 0, []string{"sentry", "datadog", "grafana", "prometheus", "loki", "logs", "log", "metrics",
		"newrelic", "honeycomb", "splunk", "kibana"}},

	{catChat, 0, []string{"slack", "discord", "msteams", "microsoftteams", "telegram", "whatsapp", "mattermost",
		"rocketchat", "zulip", "irc", "chat", "messenger", "wechat", "imessage", "messaging"}},
	{catChat, 0.6, []string{"teams"}},
	{catMail, 0, []string{"gmail", "mail", "email", "smtp", "imap", "outlook", "sendgrid", "mailgun", "mailchimp",
		"postmark", "ses", "protonmail", "fastmail", "inbox", "mailbox", "newsletter"}},
	{catSMS, 0, []string{"sms", "mms", "twilio", "vonage", "nexmo", "messagebird", "plivo", "phone"}},
	{catSocial, 0, []string{"twitter", "tweet", "mastodon", "toot", "bluesky", "bsky", "reddit", "facebook", "instagram",
		"linkedin", "youtube", "tiktok", "social", "discourse", "forum", "substack", "wordpress", "blog"}},
	{catNotify, 0, []string{"notify", "notification", "notifier", "pushover", "ntfy", "gotify", "pagerduty", "opsgenie",
		"pushbullet"}},
	{catAPI, 0, []string{"weather", "maps", "geocode", "geocoding", "translate", "translation", "deepl", "wikipedia"}},
	{catWebhook, 0, []string{"webhook", "zapier", "ifttt", "n8n", "pipedream", "requestbin", "hookdeck"}},
	{catWebhook, 0.6, []string{"relay"}},
	{catHTTP, 0, []string{"fetch", "http", "https", "curl", "wget", "webfetch", "scrape", "scraper", "scraping", "crawl",
		"crawler", "firecrawl", "apify", "websocket"}},
	{catHTTP, 0.75, []string{"url", "uri", "internet", "endpoint"}},
	{catHTTP, 0.7, []string{"web", "download"}},
	{catHTTP, 0.6, []string{"request"}},
	{catSearch, 0, []string{"websearch", "googlesearch", "brave", "tavily", "exa", "serper", "serpapi", "perplexity",
		"bing", "duckduckgo", "ddg", "kagi", "searxng", "jina"}},
	{catPaste, 0, []string{"paste", "pastebin", "gist", "hastebin", "dpaste", "privatebin", "ghostbin", "termbin"}},
	{catModel, 0, []string{"llm", "llms", "gpt", "chatgpt", "openai", "anthropic", "claude", "gemini", "mistral", "cohere",
		"openrouter", "groq", "huggingface", "replicate", "bedrock", "vertexai", "deepseek"}},
	{catSend, 0, []string{"send", "publish", "broadcast", "transmit"}},
	// A backup or sync goes somewhere else, often a remote (found by a
	// red team, RT8-13): not surely out, so weaker than a send.
	{catSend, 0.6, []string{"backup", "sync", "synchronize", "mirror"}},
	{catSend, 0.75, []string{"post", "upload"}},
	{catSend, 0.7, []string{"share", "transfer", "invite", "pay", "announce"}},
	// push: a remote's copy is what others read (git push, push_files).
	{catSend, 0.6, []string{"forward", "reply", "push"}},

	{catCloud, 0, []string{"aws", "gcp", "gcloud", "azure", "cloudflare", "vercel", "netlify", "heroku", "digitalocean",
		"linode", "hetzner", "terraform", "pulumi"}},
	{catCloud, 0.5, []string{"cloud"}},
	{catShell, 0, []string{"shell", "bash", "sh", "zsh", "terminal", "powershell", "pwsh", "cmd", "commander",
		"subprocess", "ssh"}},
	// Not "execute" or "run": execute_query and run_report are routine on
	// databases.
	{catShell, 0.7, []string{"command", "exec"}},
	{catBrowser, 0, []string{"browser", "puppeteer", "playwright", "selenium", "chrome", "chromium", "firefox",
		"webdriver", "browserbase", "headless", "stagehand"}},
	{catBrowser, 0.7, []string{"navigate"}},
	{catContainer, 0, []string{"docker", "kubernetes", "k8s", "kubectl", "container", "containers", "podman", "helm"}},
	{catCodeRun, 0, []string{"python", "jupyter", "repl", "interpreter", "sandbox", "e2b", "javascript", "deno"}},
	{catCalendar, 0, []string{"calendar", "gcal", "calendly"}},
	{catCalendar, 0.6, []string{"meeting", "zoom"}},
}

// noise words say nothing about where data goes; they are left out of
// substring matching and of the "nothing matched" explanation.
var noise = set("mcp", "server", "servers", "modelcontextprotocol", "tool", "tools", "plugin", "plugins", "official",
	"api", "apis", "client", "sdk", "integration", "connector", "bridge", "service", "services", "app", "the", "and",
	"for", "of", "to", "a", "an", "with", "from", "npm", "npx", "uvx", "js", "py", "ts", "rs", "main", "latest", "dev")

// writeVerbs put new content somewhere; on a code host that is somewhere
// others may read. readVerbs only look.
var (
	writeVerbs = set("create", "add", "update", "edit", "write", "push", "comment", "reply", "post", "publish",
		"upload", "share", "submit", "fork", "patch", "append", "insert", "upsert", "send", "put", "save", "store",
		"transfer", "invite", "pay", "announce")
	readVerbs = set("get", "list", "read", "search", "query", "find", "show", "view", "describe", "lookup", "count",
		"check", "stat", "open", "browse", "inspect", "fetch", "download", "mark")
)

// minSubstring keeps short keywords ("pg", "fs", "git") from matching
// inside unrelated words.
const minSubstring = 5

type keyword struct {
	cat    *category
	weight float64
}

var keywords, substringKeywords = buildKeywords()

func buildKeywords() (map[string]keyword, []string) {
	m := make(map[string]keyword)
	for _, g := range keywordGroups {
		w := g.weight
		if w == 0 {
			w = g.cat.weight
		}
		for _, word := range g.words {
			if _, dup := m[word]; dup {
				panic("classify: keyword listed twice: " + word)
			}
			m[word] = keyword{cat: g.cat, weight: w}
		}
	}
	var long []string
	for word := range m {
		if len(word) >= minSubstring {
			long = append(long, word)
		}
	}
	// Longest first, so "postgresql" wins over "postgres" inside
	// "mypostgresqlbox"; then alphabetical for a stable answer.
	sort.Slice(long, func(i, j int) bool {
		if len(long[i]) != len(long[j]) {
			return len(long[i]) > len(long[j])
		}
		return long[i] < long[j]
	})
	return m, long
}

// lookup finds a token in the vocabulary, folding simple plurals
// ("notifications", "webhooks", "queries").
func lookup(tok string) (keyword, string, bool) {
	if k, ok := keywords[tok]; ok {
		return k, tok, true
	}
	if len(tok) <= 3 {
		return keyword{}, "", false
	}
	for _, fold := range []struct{ suffix, repl string }{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if base, ok := strings.CutSuffix(tok, fold.suffix); ok {
			base += fold.repl
			if k, ok := keywords[base]; ok {
				return k, base, true
			}
		}
	}
	// Agent nouns of ways to send: an uploader uploads, a mailer mails, a
	// sharer shares. Only for outward words: a driver is not a drive, nor a
	// timer a clock.
	for _, suffix := range []string{"er", "r"} {
		if base, ok := strings.CutSuffix(tok, suffix); ok {
			if k, ok := keywords[base]; ok && k.cat.class == External {
				return k, base, true
			}
		}
	}
	return keyword{}, "", false
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
