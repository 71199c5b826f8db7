package classify_test

// The blind9 corpus, family c: tools at outside vendors that read the
// user's own data (private sources), tools that send data out
// (destinations), and public docs and search tools that are neither.
// Written before the classifier's code or its other tests were read
// (issue #16). A hash of the case id splits it into a tuning half and a
// report half.

import (
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge"
)

type blind9Tool struct {
	id     string
	want   string // "private", "egress" or "public"
	server string
	tool   string // one tools/list entry
}

var blind9Tools = []blind9Tool{
	// private sources at vendors
	{"bank-search-payees", "private", "lumina-bank", `{"name":"search_payees","description":"Search the payees saved on the customer's account by name.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}`},
	{"bank-list-transactions", "private", "northfold", `{"name":"list_transactions","description":"List recent card and account transactions.","inputSchema":{"type":"object","properties":{"from":{"type":"string","format":"date"},"limit":{"type":"integer"}}},"annotations":{"readOnlyHint":true}}`},
	{"bank-get-balance", "private", "ledgerly", `{"name":"get_balance","description":"Returns the current balance of the user's checking and savings accounts.","inputSchema":{"type":"object","properties":{}}}`},
	{"health-patient-details", "private", "carepoint-health", `{"name":"get_patient_details","description":"Get the patient's demographics, allergies and active conditions.","inputSchema":{"type":"object","properties":{"patient_id":{"type":"string"}}}}`},
	{"health-prescriptions", "private", "medimate", `{"name":"list_prescriptions","description":"Lists active prescriptions with dosage and refill dates.","inputSchema":{"type":"object","properties":{}}}`},
	{"health-lab-results", "private", "carepoint-health", `{"name":"fetch_lab_results","description":"Fetch lab results for the signed-in patient.","inputSchema":{"type":"object","properties":{"since":{"type":"string"}}},"annotations":{"readOnlyHint":true,"openWorldHint":true}}`},
	{"hr-employee-record", "private", "peoplehub", `{"name":"get_employee","description":"Get an employee's record: title, manager, salary band, home address and emergency contact.","inputSchema":{"type":"object","properties":{"employee_id":{"type":"string"}}}}`},
	{"hr-time-off", "private", "peoplehub", `{"name":"list_time_off_requests","description":"List time-off requests for your team.","inputSchema":{"type":"object","properties":{"status":{"type":"string","enum":["pending","approved"]}}}}`},
	{"crm-contacts", "private", "dealflow", `{"name":"search_contacts","description":"Search contacts in your CRM by name, company or email.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`},
	{"crm-deal", "private", "dealflow", `{"name":"get_deal","description":"Get a deal with its amount, stage, notes and associated contacts.","inputSchema":{"type":"object","properties":{"deal_id":{"type":"string"}}}}`},
	{"payroll-payslips", "private", "paystream", `{"name":"get_payslips","description":"Retrieve payslips for an employee, with gross and net pay, tax and bank details.","inputSchema":{"type":"object","properties":{"employee":{"type":"string"},"year":{"type":"integer"}}}}`},
	{"calendar-events", "private", "tempo-cal", `{"name":"list_events","description":"List events on the user's calendar between two dates.","inputSchema":{"type":"object","properties":{"start":{"type":"string"},"end":{"type":"string"}}}}`},
	{"calendar-get-event", "private", "tempo-cal", `{"name":"get_event","description":"Get one calendar event with attendees, location and description.","inputSchema":{"type":"object","properties":{"event_id":{"type":"string"}}}}`},
	{"pwmgr-get-item", "private", "keyring-cloud", `{"name":"get_item","description":"Get a vault item, including username, password and notes.","inputSchema":{"type":"object","properties":{"item":{"type":"string"}}}}`},
	{"pwmgr-search-vault", "private", "keyring-cloud", `{"name":"search_vault","description":"Search items in the vault.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}`},
	{"mail-read-inbox", "private", "postbox-mail", `{"name":"list_messages","description":"List messages in the inbox, newest first.","inputSchema":{"type":"object","properties":{"folder":{"type":"string","default":"INBOX"}}}}`},
	{"mail-get-thread", "private", "postbox-mail", `{"name":"get_thread","description":"Read an email thread by id.","inputSchema":{"type":"object","properties":{"thread_id":{"type":"string"}}}}`},
	{"travel-reservations", "private", "voyago", `{"name":"my_reservations","description":"Show my upcoming flight and hotel reservations with confirmation numbers.","inputSchema":{"type":"object","properties":{}}}`},
	{"shop-saved-addresses", "private", "cartwheel", `{"name":"get_saved_addresses","description":"Returns the shipping addresses saved to the customer profile.","inputSchema":{"type":"object","properties":{}}}`},
	{"insurance-claims", "private", "shieldco", `{"name":"list_claims","description":"List the policyholder's claims and their status.","inputSchema":{"type":"object","properties":{}}}`},
	{"notes-get-note", "private", "inkwell", `{"name":"get_note","description":"Get a note from your notebook.","inputSchema":{"type":"object","properties":{"note_id":{"type":"string"}}}}`},
	{"support-tickets-customer", "private", "helpdeskly", `{"name":"get_ticket","description":"Get a support ticket with the customer's messages, email and phone.","inputSchema":{"type":"object","properties":{"id":{"type":"integer"}}}}`},
	{"bank-statements", "private", "kestrel-bank", `{"name":"download_statement","description":"Download the monthly statement for one of your accounts as text.","inputSchema":{"type":"object","properties":{"account":{"type":"string"},"month":{"type":"string"}}}}`},
	{"fitness-health-data", "private", "pulsefit", `{"name":"get_sleep_and_heart_rate","description":"Your sleep stages and resting heart rate by night.","inputSchema":{"type":"object","properties":{"days":{"type":"integer"}}}}`},

	// destinations
	{"webhook-post", "egress", "hookrelay", `{"name":"trigger_webhook","description":"POST a JSON payload to a webhook.","inputSchema":{"type":"object","properties":{"webhook_url":{"type":"string"},"payload":{"type":"object"}}}}`},
	{"mail-send", "egress", "postbox-mail", `{"name":"send_email","description":"Send an email.","inputSchema":{"type":"object","properties":{"to":{"type":"string"},"subject":{"type":"string"},"body":{"type":"string"}}}}`},
	{"mail-reply", "egress", "postbox-mail", `{"name":"reply_to_thread","description":"Reply to an email thread.","inputSchema":{"type":"object","properties":{"thread_id":{"type":"string"},"body":{"type":"string"}}}}`},
	{"pastebin-create", "egress", "snipshare", `{"name":"create_snippet","description":"Create a snippet and get a shareable link.","inputSchema":{"type":"object","properties":{"content":{"type":"string"},"visibility":{"type":"string","enum":["public","unlisted"]}}}}`},
	{"dns-lookup", "egress", "netprobe", `{"name":"dns_lookup","description":"Resolve a domain name and return its records.","inputSchema":{"type":"object","properties":{"name":{"type":"string"},"type":{"type":"string","enum":["A","AAAA","TXT","MX"]}}}}`},
	{"issue-comment", "egress", "codehost", `{"name":"add_issue_comment","description":"Add a comment to an issue in a repository.","inputSchema":{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"issue_number":{"type":"integer"},"body":{"type":"string"}}}}`},
	{"chat-post", "egress", "teamtalk", `{"name":"post_message","description":"Post a message to a channel.","inputSchema":{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}}}}`},
	{"sms-send", "egress", "textline", `{"name":"send_sms","description":"Text a phone number.","inputSchema":{"type":"object","properties":{"phone":{"type":"string"},"message":{"type":"string"}}}}`},
	{"bank-transfer", "egress", "lumina-bank", `{"name":"transfer_funds","description":"Transfer money to a payee.","inputSchema":{"type":"object","properties":{"payee_id":{"type":"string"},"amount":{"type":"number"},"reference":{"type":"string"}}}}`},
	{"drive-share", "egress", "cloudlocker", `{"name":"share_file","description":"Share a file with someone by email.","inputSchema":{"type":"object","properties":{"file_id":{"type":"string"},"email":{"type":"string","format":"email"},"role":{"type":"string"}}}}`},
	{"social-publish", "egress", "chirper", `{"name":"publish_post","description":"Publish a post on the user's timeline.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`},
	{"form-submit", "egress", "formly", `{"name":"submit_form","description":"Submit answers to an online form.","inputSchema":{"type":"object","properties":{"form_url":{"type":"string"},"answers":{"type":"object"}}}}`},
	{"http-request", "egress", "httpkit", `{"name":"http_request","description":"Make an HTTP request.","inputSchema":{"type":"object","properties":{"method":{"type":"string"},"url":{"type":"string"},"body":{"type":"string"}}}}`},
	{"calendar-invite", "egress", "tempo-cal", `{"name":"create_event","description":"Create a calendar event and invite attendees.","inputSchema":{"type":"object","properties":{"title":{"type":"string"},"attendees":{"type":"array","items":{"type":"string"}}}}}`},
	{"crm-log-note-external", "egress", "dealflow", `{"name":"email_contact","description":"Send an email to a CRM contact from your connected mailbox.","inputSchema":{"type":"object","properties":{"contact_id":{"type":"string"},"body":{"type":"string"}}}}`},
	{"upload-file", "egress", "filedrop", `{"name":"upload","description":"Upload text to a public bucket and return its URL.","inputSchema":{"type":"object","properties":{"name":{"type":"string"},"data":{"type":"string"}}}}`},
	{"ping-host", "egress", "netprobe", `{"name":"ping","description":"Ping a host.","inputSchema":{"type":"object","properties":{"host":{"type":"string"}}}}`},
	{"translate-external", "egress", "polyglot", `{"name":"translate","description":"Translate text with the Polyglot cloud API.","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"target":{"type":"string"}}},"annotations":{"openWorldHint":true}}`},

	// public docs and search: no private source
	{"docs-search", "public", "devdocs", `{"name":"search_docs","description":"Search the public documentation of a library.","inputSchema":{"type":"object","properties":{"library":{"type":"string"},"query":{"type":"string"}}}}`},
	{"docs-get-page", "public", "devdocs", `{"name":"get_page","description":"Get a documentation page by path.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}`},
	{"web-search", "public", "findit", `{"name":"web_search","description":"Search the web and return the top results.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}`},
	{"wiki-summary", "public", "encyclo", `{"name":"get_summary","description":"Get the summary of an encyclopedia article.","inputSchema":{"type":"object","properties":{"title":{"type":"string"}}}}`},
	{"weather", "public", "skycast", `{"name":"get_forecast","description":"Get the weather forecast for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}`},
	{"stock-quote", "public", "tickerly", `{"name":"get_quote","description":"Get the latest public market quote for a ticker symbol.","inputSchema":{"type":"object","properties":{"symbol":{"type":"string"}}}}`},
	{"package-info", "public", "pkgindex", `{"name":"package_info","description":"Look up a package on the public registry: versions, license, downloads.","inputSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`},
	{"arxiv-search", "public", "paperfind", `{"name":"search_papers","description":"Search preprints by keyword.","inputSchema":{"type":"object","properties":{"keywords":{"type":"string"}}}}`},
	{"exchange-rates", "public", "fxrates", `{"name":"get_exchange_rate","description":"Get today's exchange rate between two currencies.","inputSchema":{"type":"object","properties":{"from":{"type":"string"},"to":{"type":"string"}}}}`},
	{"bank-branch-locator", "public", "lumina-bank", `{"name":"find_branches","description":"Find the bank's branches and ATMs near a postcode.","inputSchema":{"type":"object","properties":{"postcode":{"type":"string"}}}}`},
	{"health-drug-info", "public", "medimate", `{"name":"drug_information","description":"Look up general information about a medication: uses, side effects, interactions.","inputSchema":{"type":"object","properties":{"drug":{"type":"string"}}}}`},
	{"hr-public-holidays", "public", "peoplehub", `{"name":"list_public_holidays","description":"List public holidays for a country and year.","inputSchema":{"type":"object","properties":{"country":{"type":"string"},"year":{"type":"integer"}}}}`},
	{"crm-api-docs", "public", "dealflow", `{"name":"search_api_reference","description":"Search the CRM's public API reference.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}`},
	{"travel-flight-status", "public", "voyago", `{"name":"flight_status","description":"Public status of a flight by flight number.","inputSchema":{"type":"object","properties":{"flight":{"type":"string"}}}}`},
	{"shop-product-search", "public", "cartwheel", `{"name":"search_products","description":"Search the store catalogue.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`},
	{"calendar-timezones", "public", "tempo-cal", `{"name":"convert_timezone","description":"Convert a time between time zones.","inputSchema":{"type":"object","properties":{"time":{"type":"string"},"to":{"type":"string"}}}}`},
	{"geocode", "public", "mapsy", `{"name":"geocode","description":"Geocode a place name to coordinates.","inputSchema":{"type":"object","properties":{"place":{"type":"string"}}}}`},
	{"dictionary", "public", "wordsmith", `{"name":"define","description":"Define an English word.","inputSchema":{"type":"object","properties":{"word":{"type":"string"}}}}`},
	{"rfc-fetch", "public", "ietfdocs", `{"name":"get_rfc","description":"Fetch the text of an RFC by number.","inputSchema":{"type":"object","properties":{"number":{"type":"integer"}}},"annotations":{"readOnlyHint":true,"openWorldHint":true}}`},
	{"news-headlines", "public", "newsdesk", `{"name":"top_headlines","description":"Top news headlines by category.","inputSchema":{"type":"object","properties":{"category":{"type":"string"}}}}`},
	{"recipe-search", "public", "cookbook", `{"name":"find_recipes","description":"Find recipes by ingredient.","inputSchema":{"type":"object","properties":{"ingredient":{"type":"string"}}}}`},
	{"status-page", "public", "statuswatch", `{"name":"service_status","description":"Current status of public cloud services.","inputSchema":{"type":"object","properties":{"service":{"type":"string"}}}}`},
	{"library-catalog", "public", "openshelf", `{"name":"search_catalog","description":"Search the public library catalogue by title or author.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}`},
	{"country-info", "public", "atlasdata", `{"name":"country_facts","description":"Population, capital and currency of a country.","inputSchema":{"type":"object","properties":{"country":{"type":"string"}}}}`},
	{"code-search-public", "public", "codehost", `{"name":"search_code","description":"Search public code across open-source repositories.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}`},
	{"transit-times", "public", "metrotime", `{"name":"next_departures","description":"Next departures from a public transit stop.","inputSchema":{"type":"object","properties":{"stop":{"type":"string"}}}}`},
}

func blind9Half(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "tune"
	}
	return "report"
}

// TestBlind9ToolClasses measures family c through the classifier flowd
// builds from its default config: a private source is internal or hybrid
// (what it returns is the user's data), a destination is anything but
// internal (unknown is judged as a destination), and a public tool is not
// a private source.
func TestBlind9ToolClasses(t *testing.T) {
	c, err := judge.Classifier(config.Default())
	require.NoError(t, err)
	type tally struct{ hit, n, unknown int }
	got := map[string]map[string]*tally{}
	for _, tc := range blind9Tools {
		tools, err := classify.ParseTools([]byte(`{"tools":[` + tc.tool + `]}`))
		require.NoError(t, err, tc.id)
		require.Len(t, tools, 1, tc.id)
		r := c.Tool(tc.server, tools[0])
		private := r.Class == classify.Internal || r.Class == classify.Hybrid
		var hit bool
		switch tc.want {
		case "private":
			hit = private
		case "egress":
			hit = r.Class != classify.Internal
		case "public":
			hit = private // flagged wrongly
		}
		half := blind9Half(tc.id)
		if got[half] == nil {
			got[half] = map[string]*tally{"private": {}, "egress": {}, "public": {}}
		}
		g := got[half][tc.want]
		g.n++
		if hit {
			g.hit++
		}
		if r.Class == classify.Unknown {
			g.unknown++
		}
		// Only the tuning half's misses are named; the report half is read by its figures.
		if half == "tune" && (hit == (tc.want == "public")) {
			t.Logf("%-6s %-26s want %-7s got %s (%s)", half, tc.id, tc.want, r.Class, r.Reason)
		}
	}
	for _, half := range []string{"tune", "report"} {
		g := got[half]
		t.Logf("blind9 family c, %s half: private sources %d/%d, destinations %d/%d (%d of them unknown), public tools taken for private sources %d/%d",
			half, g["private"].hit, g["private"].n, g["egress"].hit, g["egress"].n, g["egress"].unknown, g["public"].hit, g["public"].n)
		// What main reached holds (public tools taken for private sources
		// are this family's open misses).
		floor := map[string][3]int{"tune": {13, 6, 1}, "report": {11, 12, 3}}[half]
		require.GreaterOrEqual(t, g["private"].hit, floor[0], "%s half: private sources", half)
		require.GreaterOrEqual(t, g["egress"].hit, floor[1], "%s half: destinations", half)
		require.LessOrEqual(t, g["public"].hit, floor[2], "%s half: public tools taken for private sources", half)
	}
}
