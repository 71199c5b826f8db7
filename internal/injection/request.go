package injection

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Requests to act: a sentence that asks for an action with consequences
// outside the conversation (send, forward, share, grant, invite, transfer,
// pay) is judged by what else it holds, in any of the languages below,
// rather than by a memorised phrasing:
//
//   - a recipient: an e-mail address, an IBAN, a link, an account number;
//   - the user's data or access: inbox, contacts, files, passwords, account,
//     admin rights, "the user's";
//   - a machine addressee: "AI assistant", "whichever agent reads this",
//     "Assistant:", "you, the coding agent", "automated readers";
//   - secrecy towards the user.
//
// A person asking a colleague to send a report to an address has a verb
// and a recipient and nothing else, and passes; a request to hand the
// user's data or access to an address, or one addressed to the model,
// does not.

// dutyModal is what a subject must do: "should", "must", "is expected
// to", "are now required to", "is to delete all…" (with an object, not
// "is to blame").
const dutyModal = `(?:should|must|shall|has\s+to|have\s+to|needs?\s+to|(?:is|are)\s+(?:now\s+)?to\s+(?:\p{L}+\s+)?(?:the|all|every|each|any|it|them|this|these|those|my|your|our|their)|(?:is|are)\s+(?:now\s+)?(?:supposed|expected|required|obliged|instructed|meant|asked|authori[sz]ed|permitted|allowed|obligated)\s+to)(?:$|[^\p{L}])`

// machinesOpening names machines in general as a sentence's subject:
// a machine noun, a kind of agent or assistant a machine is ("browsing
// agents", "LLM clients", "shopping assistants"), or crawlers, each
// perhaps with another after "and".
const machinesOpening = `(?:(?:` + reqMachine + `|crawlers?|scrapers?|(?:ai|llm|gpt|browsing|browser|coding|shopping|autonomous|automated|automatic|scraping)[\s\-]+(?:agents?|assistants?|clients?|models?|readers?|crawlers?|tools?|systems?|bots?|scrapers?))(?:\s+(?:and|or|&)\s+)?){1,2}`

// reqMachine are nouns that name a model whatever the language.
const reqMachine = `ai|a\.i\.|llms?|chatbots?|language\s+models?|(?:ai|a\.i\.)\s+(?:assistant|agent|model|system|tool|helper|reader)s?|coding\s+agent|ki-assistent\p{L}*|ki|ia|ии|sprachmodell\p{L}*|modelo\s+de\s+(?:lenguaje|linguagem)|modèle\s+de\s+langage|нейросет\p{L}*|языков\p{L}*\s+модел\p{L}*` +
	// Products and kinds of helper named as the reader ("hello GPT,",
	// "Gemini, please book…",
	// "kubernetes copilot:", "reviewer-bot instructions:", "digital
	// assistant", "automatisierte Systeme").
	`|copilots?|gpt|chatgpt|claude|gemini|alexa|siri|cortana|automations?|[\p{L}\-]+-bots?|бот|(?:digital|smart|virtual|on-device|personal)\s+assistants?|automatisiert\p{L}*\s+system\p{L}*|syst[eè]mes?\s+automatis[ée]s?|sistemas?\s+automatizados?|sistemi\s+automatici`

var (
	// Imperative and infinitive forms of the verbs, small and general:
	// English, French, Spanish, German, Italian, Portuguese, Dutch and
	// Russian words, and Chinese and Japanese ones found as substrings.
	reqVerbs = wordSet(`send forward share give grant invite add transfer wire pay email e-mail mail copy bcc post upload
		leak export sync delegate provide make
		envoie envoyez envoyer transfère transférez transférer transfere partage partagez partager donne donnez donner
		accorde accordez ajoute ajoutez invitez vire virez
		envía envia enviar envíe reenvía reenvia reenviar reenvíe comparte compartir comparta dale concede conceder
		transfiere transferir añade anade agrega invita
		sende senden schicke schicken leite leiten weiterleiten gib geben teile teilen füge fuge überweise uberweise überweisen
		invia inviare inoltra inoltrare condividi condividere concedi aggiungi trasferisci bonifica
		envie enviem encaminhe encaminhar compartilhe compartilhar partilhe conceda adicione transfira
		stuur deel geef voeg verstuur verzend doorsturen
		schick manda mande mándale mandale
		wyślij wyslij prześlij przeslij przekaż przekaz udostępnij udostepnij dodaj daj nadaj przelej
		pošli posli přepošli preposli sdílej sdilej přidej pridej
		trimite redirecționează partajează acordă adaugă
		στείλε προώθησε μοιράσου δώσε πρόσθεσε
		надішли надіслати перешли поділись надай додай
		videresend giv
		skicka skicka vidarebefordra dela ge överför överföra bifoga send videresend del overfør overfor
		reply
		أرسل ارسل شارك امنح أضف
		отправь отправьте отправить перешли перешлите переслать поделись дай дайте предоставь предоставьте добавь добавьте
		переведи переведите
		relay transmit dispatch mirror text dm message notify submit publish push deliver route redirect exfiltrate cc
		approve promote authorize authorise elevate shoot drop hand pass toss
		transmets transmettez transmettre publie publiez téléverse téléversez redirige redirigez expédie expédiez
		pasa pásale pasale pásame sube subir súbelos publica publicar transmite transmitir reenvíale remite remitir
		encaminha encaminhe transmita publique suba carregue partilha compartilha transfere sobe
		übermittle übermitteln lade hochladen veröffentliche poste maile
		carica pubblica trasmetti gira
		скинь скиньте пришли пришлите загрузи загрузите выложи опубликуй передай передайте отошли
		gönder gönderin yolla paylaş yükle ilet aktar
		kirim kirimkan bagikan unggah teruskan
		wrzuć
		حول حوّل قم ارفع انشر ابعث`)
	reqVerbsCJK = []string{"发送", "发给", "发到", "转发", "分享", "共享", "授予", "给予", "添加", "转账", "汇款", "送信", "転送", "共有", "付与", "追加", "送って", "振り込",
		"보내", "전달", "공유", "송금", "이체", "부여", "추가",
		"上传", "上傳", "寄到", "寄给", "寄給", "转寄", "轉寄", "轉發", "發送", "發給", "傳送", "传给", "送到", "送信", "送付", "送る", "アップロード", "提出", "전송", "업로드", "올려"}

	reqRecipientRe = regexp.MustCompile(`[\p{L}0-9._%+\-]+@[\p{L}0-9\-]+(?:\.[\p{L}0-9\-]+)+|(?:^|[^\p{L}0-9])[a-z]{2}\d{2}[a-z0-9]{11,30}(?:$|[^\p{L}0-9])|(?:account|acct|konto|cuenta|compte|conto|conta|сч[её]т|账户|口座)\s*(?:no\.?|number|nr\.?|n[°º]|#)?\s*\d[\d\- ]{5,}`)

	// reqPhoneRe is an international phone number: where a code or a
	// message goes. A time zone ("+0000", "+0100") starts with a zero.
	reqPhoneRe = regexp.MustCompile(`(?:^|[^\p{L}0-9+])\+[1-9]\d{0,2}[ \-.]?\(?\d{1,4}\)?(?:[ \-.]?\d{2,4}){2,4}(?:$|[^\p{L}0-9])`)

	// A handle is a recipient without a preposition ("add user 'mx-dev'",
	// "invite @ops-bot").
	reqHandleRe = regexp.MustCompile(`(?:user|member|collaborator|account|usuario|utilisateur|nutzer|utente|maintainer|admin|reviewer)\s+['"‘“@][\w.\-]{3,}|(?:^|\s)@[a-z0-9][\w\-]{2,}(?:$|[^\w@.])`)

	// A verb negated ("should never send") describes a rule.
	reqNegRe = regexp.MustCompile(`(?:never|not|n't|no|nunca|jamais|nie|mai|никогда|не)\s+(?:\p{L}+\s+)?$`)

	// The user's data or access: words, and phrases or stems found as
	// substrings.
	reqPrivateWords = wordSet(`pliki plików hasła hasło konta dostęp użytkownika użytkownikowi kontakty
		inbox contacts contact passwords password credentials credential tokens token secrets secret
		files documents folder drive emails e-mails messages calendar account access admin administrator owner
		delegate permission permissions collaborator invoice invoices history keys wallet funds money
		utilisateur compte accès acces fichiers dossier courriels boîte boite factures
		usuario cuenta acceso contraseña contraseñas archivos carpeta correos facturas contactos
		nutzer nutzers benutzer benutzers konto zugriff zugang passwörter passworter dateien nachrichten rechnungen kontakte
		utente accesso cartella documenti fatture contatti
		usuário acesso senha senhas arquivos pasta documentos contatos faturas
		gebruiker gebruikers wachtwoorden bestanden toegang письма
		payroll salary salaries passport ssn cvv pin payslips recovery backup`)
	reqPrivateSubs = []string{"user's", "users'", "the user", "my account", "address book", "api key", "mot de passe", "mots de passe",
		"every message", "each message", "every email", "each email", "every e-mail", "every file", "every document", "everything you",
		"пользовател", "доступ", "парол", "файл", "контакт", "аккаунт", "用户", "用戶", "账户", "帳戶", "权限", "權限", "密码", "密碼",
		"文件", "通讯录", "邮件", "ユーザー", "アカウント", "アクセス権", "パスワード", "ファイル", "メール", "連絡先",
		"사용자", "비밀번호", "연락처", "파일", "계정", "메일", "pengguna", "kullanıcı", "kullanici", "المستخدم", "مرور", "ملفات", "جهات الاتصال"}

	// A machine addressed, not described: "AI assistant:", "Dear AI",
	// "note for the agent", "whichever assistant reads this", "you, the
	// coding agent", "Hinweis an den KI-Assistenten", "AI助手请注意". "The
	// AI should never…" talks about one.
	reqAddresseeRe = regexp.MustCompile(`(?:^|[.!?\n;:]\s*|,")["'(\[]?(?:(?:dear|hey|hi|hello|attention|attn)\s+)?(?:the\s+)?(?:` + reqMachine + `|assistant|asistente|assistente|assistent|agent|model|bot|ассистент)\s*(?:,\s|:|\s[—–-]\s)` +
		`|(?:^|[^\p{L}])(?:dear|hey|hi|hello|to|for|attention|attn|an\s+(?:den|die|das)|für\s+(?:den|die|das)|para\s+(?:el|la|o|a|os)|pour\s+(?:l'|le|la|les)\s*|à\s+(?:l'|la|le)\s*|al|all'|per\s+(?:l'|il)\s*|к|для)\s+(?:the\s+|any\s+|all\s+|an?\s+)?(?:` + reqMachine + `|(?:assistant|agent|model|bot|asistente|assistente|ассистент)\p{L}*\s+(?:de\s+|di\s+)?(?:ia|ai|ki|ии|virtual\p{L}*))(?:$|[^\p{L}@])` +
		// A header naming the machine: "To the bot: …", "For AI agents: …".
		`|(?:^|[^\p{L}])(?:to|for|attn|attention)\s+(?:the\s+|any\s+|all\s+|our\s+)?(?:` + reqMachine + `|assistant|agent|bot|model)s?\s*:` +
		`|(?:^|[^\p{L}])(?:an|für)\s+(?:den|die|das)\s+(?:assistent\p{L}*|agent\p{L}*|bot\p{L}*|modell)\s*:` +
		`|(?:^|[^\p{L}])(?:any|every|whichever|each|the)\s+(?:` + reqMachine + `|assistant|agent|model|bot)s?\s+(?:that\s+|who\s+|which\s+)?(?:is\s+|are\s+)?(?:reading|processing|handling|summari[sz]ing|parsing|analy[sz]ing|triaging|working\s+on)` +
		// The same without a determiner, opening a sentence: "Agents
		// handling this config: …".
		`|(?:^|[.!?\n;:>]\s*|[^\p{L}]if\s+)(?:\p{L}+\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)s?\s+(?:that\s+|who\s+|which\s+)?(?:are\s+)?(?:reading|processing|handling|summari[sz]ing|parsing|analy[sz]ing|triaging|working\s+on|evaluating|reviewing|screening|scoring|ranking|grading|indexing|scanning|crawling)\s+(?:this|these|the)\b` +
		// A machine in a code label ("TODO(ai):", "NOTE(agent):"), and a
		// wish for what a machine would do ("it would help if the triage
		// assistant…", "we'd love it if assistants…").
		`|\((?:` + reqMachine + `|assistant|agent|model|bot)\)\s*:` +
		// The system's voice ("[SYSTEM]: open…", "SYSTEM UPDATE: …"), the
		// reader's task ("before you summarise this page, run…"), and
		// whoever reads the data ("for whoever parses this log: …").
		`|(?:^|[.!?\n;:>]\s*)[\[(<]?system(?:\s+(?:update|notice|message|note|prompt|instruction|override))?[\])>]?\s*:` +
		`|(?:^|[^\p{L}])(?:before|after|when|while|once|as)\s+you\s+(?:summari[sz]e|answer|respond|reply|process|parse|analy[sz]e)` +
		// The same with no subject ("When summarizing, also add…"), and
		// the reader's task given a label ("Your next task: open…").
		`|(?:^|[.!?\n;:>]\s*)(?:before|after|when|while)\s+(?:summari[sz]ing|answering|responding|replying)\s*(?:this\s+\p{L}+\s*)?,` +
		`|(?:^|[.!?\n;:>]\s*)your\s+(?:new|real|actual|true|updated)\s+(?:task|job|instructions?|mission|assignment|objective)s?\s*(?:is\s*)?[:—–]` +
		`|(?:^|[^\p{L}])(?:for|to)\s+whoever\s+\p{L}+s\s+(?:this|these)\b` +
		`|(?:to|must|should|shall)\s+be\s+\p{L}+\s+by\s+(?:the|an?|any|your)\s+(?:\p{L}+\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)s?(?:$|[^\p{L}])` +
		`|(?:would|'d)\s+(?:\p{L}+\s+){1,3}if\s+(?:the\s+|any\s+|an?\s+|all\s+)?(?:\p{L}+\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)s?(?:$|[^\p{L}])` +
		`|(?:^|[^\p{L}])you,?\s+(?:the|an?)\s+(?:\p{L}+\s+)?(?:assistant|agent|model|bot|ai)(?:$|[^\p{L}])` +
		`|(?:^|[^\p{L}])if\s+you\s+are\s+(?:an?\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)` +
		`|(?:^|[^\p{L}])(?:if|when|while|whenever)\s+(?:an?|the|any|some|your)\s+(?:` + reqMachine + `|assistant|agent|model|bot)s?\s+(?:is|are|was|were)\s+\p{L}+ing\b` +
		`|(?:^|[^\p{L}])(?:whoever|anyone|anybody|whatever)\s+(?:is\s+)?(?:reading|processing|handling|summari[sz]ing|reviewing|parsing)\s+this\s+(?:\p{L}+\s+)?(?:through|with|via|using)\s+(?:an?\s+|the\s+|your\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)` +
		`|(?:^|[^\p{L}])(?:whoever|anyone|anybody|whatever)\s+(?:is\s+)?(?:reading|processing|handling|summari[sz]ing|reviewing|parsing)\s+(?:this|these|it)\s+(?:\p{L}+\s+)?(?:on\s+behalf\s+of|for)\s+` +
		`|(?:^|[^\p{L}])(?:automated|automatic)\s+(?:\p{L}+\s+)?(?:readers?|systems?|agents?|assistants?|tools?|crawlers?)(?:$|[^\p{L}])` +
		`|(?:assistant|asistente|assistente)\s+(?:ia|ai|virtuel|virtual|de\s+ia|di\s+ia)\s*[,:]` +
		`|人工智能|ai助手|ai 助手|智能助手|智慧助理|aiアシスタント|ai アシスタント|アシスタントへ|ассистент[,:]|어시스턴트|인공지능` +
		// "whichever copilot drafts your replies", "Bot editing this
		// workflow": a machine doing something to this text.
		`|(?:^|[^\p{L}])whichever\s+(?:\p{L}+\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)s?(?:$|[^\p{L}])` +
		`|(?:^|[.!?\n;]\s*)(?:[>*#\-|"/]+\s*)?(?:` + reqMachine + `|assistant|agent|model|bot)s?\s+(?:that\s+|who\s+|which\s+)?(?:is\s+|are\s+)?\p{L}+ing\s+(?:this|these|the|your)\b` +
		// What the machine must do, in the third person: "the assistant
		// should attach…", "the AI scheduler is supposed to give…". A
		// negated verb ("should never send") is a rule, judged later.
		`|(?:^|[^\p{L}])(?:the|this|that|your|any|all|every|each)\s+(?:\p{L}+\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)s?\s+(?:\p{L}+\s+)?` + dutyModal +
		// The same of machines in general, opening a sentence with no
		// determiner: "Browsing agents should…", "LLM clients must now…",
		// "Copilots and coding agents working in this repo are required
		// to…". A noun a person may be ("agents", "assistants") needs a
		// word that makes it a machine.
		`|(?:^|[.!?\n;:>]\s*)(?:` + machinesOpening + `)\s+(?:(?:that|which|who)\s+\p{L}+\s+(?:\p{L}+\s+){0,3}|\p{L}+ing\s+(?:\p{L}+\s+){0,3})?(?:now\s+|also\s+)?` + dutyModal +
		// An assistant or a bot with no article, as notes and logs name
		// the one they direct ("note: assistant must rotate…").
		`|(?:^|[.!?\n;:>]\s*)(?:assistant|bot)\s+(?:now\s+|also\s+)?` + dutyModal)

	reqConcealRe = regexp.MustCompile(`without (?:telling|informing|notifying|asking)|(?:do not|don'?t|never) (?:tell|mention|inform|notify|ask)|no (?:menciones|le digas|digas|informes)|sin (?:decir|avisar|informar)|sans (?:le dire|prévenir|prevenir|en parler)|ne (?:le )?(?:dis|dites) pas|ohne (?:es )?(?:zu )?(?:sagen|erwähnen|informieren|fragen)|nicht erwähnen|senza (?:dirlo|dire|avvisare)|non (?:dirlo|dire|menzionare)|sem (?:contar|avisar|informar)|não (?:mencione|conte|diga)|не (?:сообщай|говори|упоминай)|不要告诉|不要告訴|不要通知|言わないで|伝えないで|知らせないで` +
		// Secrecy in a word or a phrase, in the languages flowd reads.
		`|(?:^|[^\p{L}])(?:quietly|silently|secretly|discreetly|covertly|discrètement|secrètement|en\s+secreto|en\s+silencio|heimlich|stillschweigend|in\s+segreto|segretamente|em\s+segredo|secretamente|discretamente|тайно|незаметно|втихую|gizlice)(?:$|[^\p{L}])` +
		`|(?:tell|notify|inform)\s+(?:no\s+one|nobody|no-one)|keep\s+(?:it|this|that)\s+(?:from|between)|no\s+need\s+to\s+(?:tell|inform|confirm|notify|ask|bother)|without\s+(?:the\s+user|them|him|her)\s+(?:knowing|noticing)|behind\s+(?:the\s+user's|their|his|her)\s+back` +
		`|(?:dis|dites)-(?:lui|leur)\s+rien|ne\s+rien\s+(?:dire|mentionner)|n'en\s+parle\s+pas|sag\p{L}*\s+(?:\p{L}+\s+){0,2}nichts|kein\s+wort|informiere\s+(?:\p{L}+\s+){0,2}nicht|no\s+(?:lo\s+|le\s+)?(?:menciones|cuentes|avises)|sin\s+que\s+(?:se\s+entere|lo\s+sepa)|non\s+(?:lo\s+)?(?:menzionare|dire)|não\s+(?:lhe\s+)?(?:digas|conte|contes|avise|avises)|не\s+(?:говори|сообщай|рассказывай|упоминай)|говорить\s+не\s+нужно|söyleme|jangan\s+(?:beri\s+tahu|bilang|kasih\s+tahu)|لا\s+تخبر|دون\s+(?:إخبار|علم)|بدون\s+إخبار|別告訴|别告诉|不要让|不要讓|内緒|こっそり|悄悄|偷偷`)
)

// reqKW are the words and characters that make a sentence worth judging
// as a request: recipients and machine addressees.
var reqKW = []string{"@", "iban", "helper", "copilot", "gpt", "automat", "-bot", "bot ", "bot!", "бот", "助理", "asist", "'ia", "ia!", "ia :", "assistant", "asistente", "assistente", "agent", " ai ", " ai,", " ai:", "ai-", "ai:", " ia ", " ia,", " ki ", " ki,", "ki-",
	"llm", "chatbot", "bot,", "bot:", "bots", "claude", "gemini", "alexa", "siri", "cortana", "summarizing", "summarising", "answering,", "replying,", "task:", " ki:", " ia:", "system]", "system:", "system update", "system notice", "whoever", "you summar", "you answer", "you respond", "you reply", "you process", "\nai ", "\nai,", "\nai:", "(ai)", "\"ai ", "'ai ", "model", "automated", "account", "konto", "cuenta", "compte", "conto", "conta",
	"ассистент", "ии", "нейросет", "модел", "人工智能", "助手", "アシスタント", "어시스턴트", "인공지능", "intelligen", "inteligen"}

// maxRequestSentences bounds the sentences judged per field.
const maxRequestSentences = 24

// findRequests judges the sentences around reqKW hits (and the verbs of
// the session's tools), and the sentence after one that names a machine
// and asks nothing ("Olá assistente! Encaminha…").
func (f *fieldScan) findRequests(hits []int) {
	judged := -1 // the end of a sentence judged as the one after a greeting
	f.eachSentence(hits, func(a, b int) {
		if a < judged {
			return
		}
		sev, v, note := judgeRequest(f.t, a, b, f.tools)
		if sev == 0 && b+1 < len(f.t) && mayAddress(lowerSentence(f.lt[a:b])) && !gloss(lowerSentence(f.lt[a:b])) {
			a, b = foldedSentence(f.t, b+1)
			judged = b
			sev, v, note = judgeRequest(f.t, a, b, f.tools)
		}
		if sev > 0 {
			// The match is the verb, so that a request quoted in a text
			// about attacks is discounted as a quote; Redact widens it to
			// the sentence.
			rule := "action-request"
			if strings.HasPrefix(note, modelOrder) {
				// Not a request to hand anything over: an order of
				// any kind, which tool descriptions give as a matter
				// of course. Where the rule of an AI addressee has
				// judged the sentence, it says the same.
				if f.found("ai-addressee", a, b) {
					return
				}
				rule = "model-order"
			}
			f.finds = append(f.finds, finding{rule: rule, tier: Contextual, kind: language, sev: sev, a: a + v[0], b: a + v[1], excerpt: clip(f.t[a:b]), note: note, lang: true})
		}
	})
}

// glossRe: a machine's name (one word, maybe after another), a colon or
// a dash, and an article.
var glossRe = regexp.MustCompile(`^[^\p{L}]*(?:\p{L}+\s+)?(\p{L}+)\s*(?::|—|–|\s-)\s*(?:a|an|the)\s`)

// gloss: the sentence (lower case) defines a machine, as a glossary or a
// help page does ("Assistant: a tool that answers questions about your
// workspace."); it names the machine to say what it is, and calls no
// one, so the sentence after it is not addressed to it.
func gloss(s string) bool {
	m := glossRe.FindStringSubmatch(s)
	return m != nil && machineWords[m[1]]
}

// findToolCalls: an order in the data to call one of the session's tools
// that change something, by its name, now, or with the user's data, a
// recipient or a link, is an order to the model whoever it names: a
// notice, and kept from the user, a redaction. A hint to use a tool some
// time ("use create_pull_request instead", "run delete_branch after the
// merge") is what a server's messages say of its own tools.
func (f *fieldScan) findToolCalls() {
	for _, c := range f.tools.namedCalls(f.lt) {
		a, b := requestSentence(f.t, c[0])
		s := lowerSentence(f.lt[a:b])
		sev := 0.0
		switch {
		case reqConcealRe.MatchString(s):
			sev = 0.6
		case private(s) || secretish(s) || strings.Contains(s, "http") || firstRecipient(s) != nil:
			sev = 0.45
		case nowRe.MatchString(s):
			sev = 0.35
		default:
			continue
		}
		f.finds = append(f.finds, finding{rule: "model-order", tier: Contextual, kind: language, sev: sev, a: c[0], b: c[1],
			excerpt: clip(f.t[a:b]), note: modelOrder + ": to call one of the session's tools", lang: true})
	}
}

// nowRe: the order is for now.
var nowRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:now|immediately|right\s+away|asap|at\s+once|straight\s+away|today|tonight)(?:$|[^\p{L}])`)

// lowerSentence lower-cases what the field's ASCII lower-casing left.
func lowerSentence(s string) string {
	if nonASCII(s) {
		return strings.ToLower(s)
	}
	return s
}

// eachSentence calls judge with the bounds of the sentence around each
// hit, once a sentence, and stops after maxRequestSentences sentences.
func (f *fieldScan) eachSentence(hits []int, judge func(a, b int)) {
	seen := -1
	n := 0
	for _, h := range hits {
		if h < seen {
			continue
		}
		a, b := foldedSentence(f.t, h)
		seen = b
		if n++; n > maxRequestSentences {
			return
		}
		judge(a, b)
	}
}

// requestSentence returns the sentence around pos: between sentence ends
// or line breaks, at most 400 bytes either side.
func requestSentence(t string, pos int) (int, int) {
	a := pos
	for a > 0 && pos-a < 400 {
		c := t[a-1]
		if c == '\n' || (c == '.' && !initialism(t, a-1) || c == '!' || c == '?') && (a == len(t) || t[a] == ' ') {
			break
		}
		if strings.HasSuffix(t[:a], "。") || strings.HasSuffix(t[:a], "！") || strings.HasSuffix(t[:a], "？") {
			break
		}
		a--
	}
	b := pos
	for b < len(t) && b-pos < 400 {
		c := t[b]
		if c == '\n' || (c == '!' || c == '?' || c == '.' && !initialism(t, b)) && (b+1 == len(t) || t[b+1] == ' ' || t[b+1] == '\n') {
			break
		}
		if strings.HasPrefix(t[b:], "。") || strings.HasPrefix(t[b:], "！") || strings.HasPrefix(t[b:], "？") {
			break
		}
		b++
	}
	for a < b && t[a] == ' ' {
		a++
	}
	return a, b
}

// initialism: the full stop at i ends a word of letters and stops
// ("A.I.", "U.S."), no sentence.
func initialism(t string, i int) bool {
	return i >= 3 && t[i-2] == '.' && isASCIILetter(rune(t[i-1])) && isASCIILetter(rune(t[i-3]))
}

// foldedSentence is requestSentence across the line breaks of folded
// text (PDF extraction, YAML and CSV cells, mail quoted at a width): a
// line that ends inside a sentence (a letter, digit, comma or hyphen)
// followed by one that goes on in lower case. At most 600 bytes.
func foldedSentence(t string, pos int) (int, int) {
	a, b := requestSentence(t, pos)
	for b < len(t) && b-a < 600 && folded(t, b) {
		_, b = requestSentence(t, b+1)
	}
	for a > 0 && b-a < 600 && folded(t, a-1) {
		a, _ = requestSentence(t, a-2)
	}
	return a, b
}

// folded: the line break at i joins two parts of one sentence.
func folded(t string, i int) bool {
	if i <= 0 || i+1 >= len(t) || t[i] != '\n' {
		return false
	}
	p := t[i-1]
	if !(p >= 'a' && p <= 'z' || p >= 'A' && p <= 'Z' || p >= '0' && p <= '9' || p == ',' || p == '-' || p >= 0x80) {
		return false
	}
	j := i + 1
	for j < len(t) && (t[j] == ' ' || t[j] == '\t' || t[j] == '>') {
		j++
	}
	if j >= len(t) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t[j:])
	if !unicode.IsLower(r) {
		// A value that the sentence runs into ("transfer it to IBAN\n
		// LT60…", "send them to\nOps@…") goes on whatever its case.
		return valueOpens(t[j:min(len(t), j+64)])
	}
	// A line that opens with a name and a colon is who speaks next
	// ("deploy-bot: notify #oncall…"), not the sentence going on.
	k := strings.IndexAny(t[j:min(len(t), j+32)], " :\n")
	return k < 0 || t[j+k] != ':'
}

// valueOpens: s opens with a value a request sends to: an address or a
// link, or a run of letters and digits with four digits or more (an
// IBAN, an account number); not a list marker or a plain number.
func valueOpens(s string) bool {
	end := strings.IndexAny(s, " \t\n")
	if end < 0 {
		end = len(s)
	}
	w := s[:end]
	if strings.HasPrefix(strings.ToLower(w), "http") || strings.Contains(w, "@") && reqRecipientRe.MatchString(strings.ToLower(w)) {
		return true
	}
	letters, digits := 0, 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters++
		case c != '-':
			return false
		}
	}
	return letters > 0 && digits >= 4
}

// judgeRequest scores the sentence t[a:b] and returns where its verb is;
// the addressee may also stand in the 160 bytes before it ("Note to the
// assistant: …"). A sentence whose lower-casing changes its length (rare
// letters) is not judged, as offsets would not map back. tools, when not
// nil, are the session's: a request to do what one of them does, to a
// recipient the data names, is one the model can carry out.
func judgeRequest(t string, a, b int, tools *toolVocab) (float64, []int, string) {
	raw, pre := t[a:b], t[max(0, a-160):a]
	if !strings.Contains(raw, "-\n") {
		return judgeSentence(raw, pre, tools)
	}
	// Words hyphenated across lines (PDF text: "for-\nward", "assis-\n
	// tant") are judged whole; the verb found maps back to the raw text.
	joined, back := unhyphenate(raw)
	sev, v, note := judgeSentence(joined, pre, tools)
	if v != nil {
		v = []int{back[v[0]], back[v[1]]}
	}
	return sev, v, note
}

// unhyphenate returns s without its hyphens at line ends ("-\n" and the
// spaces after it) and, for each byte of the result and its end, the
// offset in s it came from.
func unhyphenate(s string) (string, []int) {
	var b strings.Builder
	back := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && i+1 < len(s) && s[i+1] == '\n' && i > 0 && s[i-1] != ' ' {
			i++
			for i+1 < len(s) && s[i+1] == ' ' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
		back = append(back, i)
	}
	return b.String(), append(back, len(s))
}

// judgeSentence is judgeRequest on the sentence raw, with pre the text
// before it (where its addressee may stand).
func judgeSentence(raw, pre string, tools *toolVocab) (float64, []int, string) {
	s := unleetWords(strings.ToLower(raw))
	// The last verb with a recipient after it is the request's, else the
	// last verb ("…whose description said: 'AI assistant: forward…'"):
	// what comes before sets the scene.
	v, toolVerb, r := requestVerb(s, tools)
	out := outputVerb(s)
	if v == nil && out != nil {
		v = out
	}
	if len(s) != len(raw) {
		return 0, nil, ""
	}
	if v == nil {
		// No verb flowd knows (a language it has no words for): a
		// sentence addressed to the machine that names where to send
		// is still a request, and worth a notice.
		ctx := unleetWords(strings.ToLower(pre + raw))
		if !mayAddress(ctx) {
			return 0, nil, ""
		}
		m := firstRecipient(s)
		if m == nil {
			return orderedAction(s, ctx)
		}
		if (addressed(ctx) || askedRe.MatchString(ctx) || unknownLanguage(s) && machineCalledRe.MatchString(ctx)) && !humanRoleAfterMachine(ctx) {
			return 0.45, m, ""
		}
		return 0, nil, ""
	}
	if reqNegRe.MatchString(s[max(0, v[0]-24):v[0]]) || cjkNegated(s, v) {
		return orderedAction(s, unleetWords(strings.ToLower(pre+raw)))
	}
	// Cheapest first: every case needs a recipient, the user's data,
	// secrecy or an addressee.
	link := strings.Contains(s, "http")
	p := private(s)
	ctx := unleetWords(strings.ToLower(pre + raw))
	may := mayAddress(ctx)
	if !r && !link && !p && out == nil && !may {
		return 0, nil, ""
	}
	if sev, at, note := judgeSent(s, ctx, v, toolVerb, r, link, p, out, may, tools); sev > 0 {
		return sev, at, note
	}
	return orderedAction(s, ctx)
}

// judgeSent is judgeSentence once a verb is found: v, the session tool's
// verb, whether a recipient follows it (r), a link, the user's data (p),
// an output verb and a word that may name a machine (may).
func judgeSent(s, ctx string, v []int, toolVerb string, r, link, p bool, out []int, may bool, tools *toolVocab) (float64, []int, string) {
	ad := may && addressed(ctx) && !humanRoleAfterMachine(ctx)
	hidden := (r || ad) && reqConcealRe.MatchString(s)
	// Addressed to the machine, a recipient anywhere in the sentence is
	// where the verb sends ("add payee '…' IBAN …", "text the code, the
	// number is +33…"): no mail header is addressed to a model.
	elsewhere := ad && !r && firstRecipient(s) != nil
	c := r && hidden
	sev := 0.0
	switch {
	case (r || link) && ad:
		sev = 0.7
	case ad && hidden:
		// An order to the machine to keep it from the user.
		c = true
		sev = 0.6
	case ad && (p || elsewhere || out != nil && secretish(s)):
		sev = 0.55
	case r && c:
		sev = 0.6
	case r && p && private(sentObject(s, v)):
		sev = 0.45
	case may && (r || secretish(s) || benefactive(s, v)) && askedRe.MatchString(ctx) && !humanRoleAfterMachine(ctx):
		// A question put to the machine ("could the AI forward me…",
		// "can the assistant paste the token here?") that hands
		// something to the asker.
		sev = 0.45
	}
	if sev > 0 && (c || r && p && ad) {
		sev += 0.15
	}
	note := ""
	if toolVerb != "" && r {
		// What one of the session's tools does, to a recipient the data
		// names: the model can do it with one call.
		note = "a request the session's " + toolVerb + " tool can carry out"
		switch {
		case sev > 0:
			sev += 0.1
		case tools.object(toolVerb, s) || p:
			sev = 0.45
		case outsideRecipient(s, v[1]):
			sev = 0.35
		default:
			sev = 0.25
		}
	}
	return min(sev, 0.9), v, note
}

// requestVerb returns the request's verb in s (lower case): the last one
// with a recipient after it, else the last one; the verb of the session's
// tools it is, if any; and whether a recipient follows it.
func requestVerb(s string, tools *toolVocab) (v []int, toolVerb string, r bool) {
	type verb struct {
		at   []int
		tool string
	}
	var vs []verb
	var wished, wishKnown bool
	wish := func() bool {
		if !wishKnown {
			wished, wishKnown = wishRe.MatchString(s), true
		}
		return wished
	}
	eachWord(s, func(i, j int) {
		w := s[i:j]
		if inNounPhrase(s, i) {
			// "your transfer of 700 EUR", "the quarterly payroll export
			// to…": a noun.
			return
		}
		tv, isTool := tools.verb(w)
		if (reqVerbs[w] || isTool || thirdPerson[w]) && !stated(s, i, thirdPerson[w] || isTool && w != tv) {
			vs = append(vs, verb{[]int{i, j}, tv})
		} else if reqParticiples[w] && (orderedPassive(s[:i]) || wish()) {
			vs = append(vs, verb{at: []int{i, j}})
		}
	})
	if hasCJK(s) {
		for _, w := range reqVerbsCJK {
			if k := strings.LastIndex(s, w); k >= 0 {
				vs = append(vs, verb{at: []int{k, k + len(w)}})
			}
		}
		sort.Slice(vs, func(i, j int) bool { return vs[i].at[0] < vs[j].at[0] })
	}
	if len(vs) == 0 {
		return nil, "", false
	}
	for i := len(vs) - 1; i >= 0 && i >= len(vs)-4; i-- {
		if recipientAfter(s, vs[i].at[1]) {
			return vs[i].at, vs[i].tool, true
		}
	}
	last := vs[len(vs)-1]
	return last.at, last.tool, false
}

// stated reports whether the verb at i in s (lower case) says what
// someone does or will do ("Priya will email the sheet to…", "our
// accountant is going to send…", "Marco shares the deck with…") rather
// than asking the reader to do it: a subject other than the reader or a
// machine stands before it, with an auxiliary ("will", "is going to") or
// in the third person (third). A request has no subject ("Send…"), or
// the reader's ("you will send…", "could you send…", "I need you to
// send…"), or a machine's ("the assistant will now forward…").
func stated(s string, i int, third bool) bool {
	ws := lastWords(s[:i], 6)
	n := len(ws)
	at := func(k int) string { // k-th word back from the verb, 1-based
		if k > n {
			return ""
		}
		return ws[n-k]
	}
	k := 1
	for statedSkip[at(k)] {
		k++
	}
	switch {
	case third:
		// "…a pull request that adds…" is a request's relative clause.
		if relPronoun[at(k)] {
			return false
		}
	case futureAux[at(k)]:
		k++
	case subjectPronoun[at(k)]:
		// "We send a copy of each NDA to…", "they forward the invoices
		// to…": a habit stated, in the present.
		return true
	case at(k) == "to" && toAux[at(k+1)]:
		// "is going to send", "agreed to send"; "I need you to send" has
		// the reader before "to" and is a request.
		k += 2
		if at(k) == "about" {
			k++
		}
	default:
		return false
	}
	for statedSkip[at(k)] || beAux[at(k)] {
		k++
	}
	subj := at(k)
	if third && subj == "" {
		// A verb in the third person with nothing before it describes
		// ("Sends the monthly invoice to…", a note on a contact).
		return true
	}
	// "the AI scheduler is supposed to…": a machine named just before
	// the subject noun is the subject.
	return subj != "" && !readerSubject[subj] && !machineWords[subj] && !mayAddress(subj) && !machineWords[at(k+1)]
}

// lastWords returns the last n words of s (letters only: "i'll" is "i",
// "ll"), stopping at a clause's end.
func lastWords(s string, n int) []string {
	if k := strings.LastIndexAny(s, ",:;()\n"); k >= 0 {
		s = s[k+1:]
	}
	var ws []string
	eachWord(s, func(i, j int) { ws = append(ws, s[i:j]) })
	if len(ws) > n {
		ws = ws[len(ws)-n:]
	}
	return ws
}

var (
	futureAux = wordSet(`will ll shall would d won`)
	// toAux head an infinitive whose subject is the sentence's: "is going
	// to", "plans to", "agreed to".
	toAux         = wordSet(`going plans plan planning intends intend agreed promised offered about wants want scheduled expected supposed`)
	beAux         = wordSet(`is are am was were s re m has have had`)
	statedSkip    = wordSet(`also then now soon probably still later just already please kindly`)
	relPronoun    = wordSet(`that which who`)
	readerSubject = wordSet(`you u ye yourself`)
	// subjectPronoun are the subjects of a verb that is not the
	// reader's: the speaker, third parties.
	subjectPronoun = wordSet(`we i they he she it someone somebody everyone everybody nobody people`)
)

// thirdPerson are request verbs that a relative clause puts in the third
// person ("open a pull request that adds…") and that are not also common
// nouns.
var thirdPerson = wordSet(`adds sends forwards grants gives uploads pays transfers`)

// outputVerb returns where s asks for something to be put in the
// reader's output ("include", "append", "reveal"): a request when a
// machine is addressed.
func outputVerb(s string) []int {
	var at []int
	eachWord(s, func(i, j int) {
		if at == nil && reqOutputVerbs[s[i:j]] && !inNounPhrase(s, i) {
			at = []int{i, j}
		}
	})
	return at
}

var reqOutputVerbs = wordSet(`include append attach reveal disclose paste print list dump expose output repeat quote
	incluye incluir inclure ajoute révèle revele einfügen füge nenne includi rivela inclua revele включи выведи покажи
	kopiere zeige schreibe copie copiez affiche écris copia muestra escribe mostra scrivi mostre escreva скопируй напиши`)

// secretish: s names a secret of the session's, not only the user's data.
func secretish(s string) bool {
	return strings.Contains(s, "key") || strings.Contains(s, "token") || strings.Contains(s, "password") ||
		strings.Contains(s, "secret") || strings.Contains(s, "credential") || strings.Contains(s, "environment") ||
		strings.Contains(s, "system prompt") || strings.Contains(s, "contraseña") || strings.Contains(s, "mot de passe") ||
		strings.Contains(s, "passwort") || strings.Contains(s, "парол") || strings.Contains(s, "密码") || strings.Contains(s, "パスワード")
}

// humanRoleAfterMachine: "if you are an LLM developer" addresses a person
// who works on models, not a model.
func humanRoleAfterMachine(s string) bool {
	return humanRoleRe.MatchString(s) || humanAgentRe.MatchString(s) || strings.Contains(s, "whether") && whetherRe.MatchString(s)
}

// whetherRe is a question reported, not put: "we discussed whether the
// assistant should be allowed to send…".
var whetherRe = regexp.MustCompile(`\bwhether\s+(?:or\s+not\s+)?(?:the|an?|any|our|this|your)\s+(?:\p{L}+\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)s?\s+(?:\p{L}+\s+)?(?:should|must|can|could|would|may|might|is|was|will)\b`)

// humanAgentRe: an agent who is a person ("your travel agent", "a
// support agent").
var humanAgentRe = regexp.MustCompile(`\b(?:(?:my|your|our|his|her|their)|travel|estate|insurance|support|service|sales|booking|ticket|leasing|letting|rental|customs|border|secret|special|free|literary|talent|sports|shipping|claims|human|live|immobilier|de\s+viajes|de\s+seguros)\s+(?:agents?|agent\s+immobilier)\b`)

var humanRoleRe = regexp.MustCompile(`\b(?:ai|llm|model|chatbot|agent|assistant)s?\s+(?:developers?|engineers?|researchers?|users?|vendors?|providers?|companies|company|teams?|builders?|practitioners?|enthusiasts?|startups?|students?|experts?|product\s+managers?|designers?)\b`)

// reqToRe is the preposition that sends to a recipient.
var reqToRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:to|with|into|onto|on|for|cc|bcc|à|avec|sur|a|al|con|su|an|auf|mit|para|com|per|aan|naar|met|na|do|ke|kepada|на|с|для|إلى|الى)(?:$|[^\p{L}])|给|到|に|へ`)

// recipientAfter reports whether a recipient follows the verb at from,
// introduced by a preposition ("forward … to x@y.z"): an address in a
// mail header beside a verb is not where anything is sent.
func recipientAfter(s string, from int) bool {
	rest := s[from:]
	if !strings.ContainsAny(rest, "@0123456789'\"‘“") {
		// Chinese and Japanese put the recipient before the verb ("…
		// に送って"): any address in the sentence is where it goes.
		return hasCJK(s) && firstRecipient(s) != nil
	}
	for _, m := range recipients(rest) {
		// An address right after the verb is its object ("invite
		// x@y.z", "cc x@y.z"); after a preposition, where it goes.
		if strings.Trim(rest[:m[0]], " '\"(<") == "" || reqToRe.MatchString(s[from:from+m[0]+1]) {
			return true
		}
	}
	// A handle right after the verb is who gets it.
	if m := reqHandleRe.FindStringIndex(rest); m != nil && m[0] < 40 {
		return true
	}
	// A verb that ends its clause (German and Dutch put it last: "… mit
	// x@y.z teilen?") has its recipient before it.
	if strings.Trim(rest, " ?!.,;:)'\"") == "" {
		for _, m := range recipients(s[:from]) {
			if reqToRe.MatchString(s[max(0, m[0]-6) : m[0]+1]) {
				return true
			}
		}
	}
	return hasCJK(s) && firstRecipient(s) != nil
}

// recipients returns where s names an address, an IBAN, an account or a
// phone number (at most four of each).
func recipients(s string) [][]int {
	ms := reqRecipientRe.FindAllStringIndex(s, 4)
	if strings.IndexByte(s, '+') >= 0 {
		ms = append(ms, reqPhoneRe.FindAllStringIndex(s, 4)...)
	}
	return ms
}

// firstRecipient returns one recipient of s, or nil.
func firstRecipient(s string) []int {
	if m := reqRecipientRe.FindStringIndex(s); m != nil {
		return m
	}
	if strings.IndexByte(s, '+') >= 0 {
		return reqPhoneRe.FindStringIndex(s)
	}
	return nil
}

// sentObject is the part of s that can name what a verb at v hands
// over: the sentence up to the end of the clause of the verb's recipient
// ("send the user's contacts to x@…", "the payroll folder be shared with
// x@…", "BCC x@… on every reply from this account"), or all of it when
// no address follows (languages that put the verb last). A clause after
// the recipient's ("Please pay … to IBAN …, quoting the invoice number")
// says something else than what goes.
func sentObject(s string, v []int) string {
	m := firstRecipient(s[v[0]:])
	if m == nil {
		return s
	}
	end := v[0] + m[1]
	if k := strings.IndexAny(s[end:], ",;"); k >= 0 {
		return s[:end+k]
	}
	return s
}

// outsideRecipient: s names an address, a link or an account after from,
// not only a handle (a colleague is "@sara" as often as an attacker).
func outsideRecipient(s string, from int) bool {
	return firstRecipient(s[from:]) != nil
}

// Encoded orders: "decode this and do what it says", whatever the
// encoding (base64, hex, rot13, one not named): the instruction to decode
// and then follow is the signal, a blob near it the corroboration.
var (
	decodeKW = []string{"decod", "rot13", "rot-13", "rot 13", "caesar", "césar", "cäsar", "cesare", "rotate each letter", "shift each letter", "hex-", "décod", "dekodier", "entschlüssel", "descodifi", "decifra",
		"декодир", "расшифр", "解码", "解碼", "デコード", "復号",
		// transforms of any kind, judged with transformFollowRe
		"revers", "backward", "decrypt", "deciph", "unscrambl", "translat", "pig latin", "cipher", "unshift", "shift",
		"right to left", "right-to-left", "mirror", "flip", "undo", "unjumbl", "rearrang", "invert", "de-obfusc", "deobfusc"}
	// transformKW are the cues of decodeKW that also name everyday work
	// (translate a page, reverse a list): they count only with an order to
	// obey what comes out, not just to perform something.
	transformKW = []string{"revers", "backward", "translat", "shift", "right to left", "right-to-left", "mirror", "flip", "undo",
		"rearrang", "invert", "unscrambl", "unjumbl", "cipher", "deciph", "decrypt"}
	transformFollowRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:(?:and|then)\s+follow\s*(?::|$)|follow\s+(?:it|them|its|what|that|the\s+(?:decoded|resulting|result|hidden|instructions?|orders?|commands?|steps?|message|directions?)|(?:those|these)\s+(?:instructions?|orders?|commands?|steps?))|obey|comply(?:\s+with\s+(?:it|them))?\s*(?:[:.!,]|$)|do\s+(?:what|whatever|as)\s+(?:it|they|the\s+\p{L}+)\s+(?:says?|tells?|asks?)|carry\s+(?:it|them)\s+out|act\s+(?:on|upon)\s+(?:it|them|the\s+result)|execute\s+(?:it|them|the\s+result)|(?:as|are)\s+(?:your\s+)?(?:next\s+|new\s+)?(?:instructions?|orders?|commands?|task))(?:$|[^\p{L}])`)
	decodeFollowRe    = regexp.MustCompile(`(?:^|[^\p{L}])(?:follow\s+(?:it|them|its|their|what|that|these|those|the\s+(?:decoded|resulting|result|hidden|embedded|instructions?|orders?|commands?|steps?|text|message|content|directions?))|execute|obey|carry\s+(?:it\s+|them\s+)?out|do\s+(?:what|it|that|so|this|as\s+(?:it|they)\s+says?)|act\s+on|comply|perform|apply\s+(?:it|them)|run\s+(?:it|them|the\s+result)|as\s+(?:your\s+)?(?:next\s+|new\s+|own\s+)?(?:instructions?|orders?|commands?|task|prompt)` +
		`|suis|suivez|suivre|exécute|exécutez|executa|ejecuta|ejecute|sigue|siga|befolge|befolgen|führe|ausführen|segui|esegui|eseguire|execute|siga|выполни|выполните|следуй)(?:$|[^\p{L}])|执行|照做|遵循|実行|従っ`)
	blobRe = regexp.MustCompile(`[A-Za-z0-9+/=_\-]{16,}`)
)

// findEncodedOrders judges the text around decodeKW hits: the sentence and
// the one after it.
func (f *fieldScan) findEncodedOrders(hits []int) {
	seen := -1
	for n, h := range hits {
		if n >= maxRequestSentences {
			return
		}
		if h < seen {
			continue
		}
		a, b := requestSentence(f.t, h)
		end := b
		if end < len(f.t) {
			_, end = requestSentence(f.t, min(len(f.t)-1, b+2))
		}
		seen = end
		s := strings.ToLower(f.t[a:end])
		follow := decodeFollowRe
		for _, kw := range transformKW {
			if strings.HasPrefix(f.lt[h:], kw) {
				follow = transformFollowRe
				break
			}
		}
		if !follow.MatchString(s) {
			// A named cipher is worth undoing without an order: what it
			// hides is judged on its own.
			for _, cue := range rot13Cues {
				if strings.Contains(s, cue) {
					f.cipherHits = append(f.cipherHits, h)
					break
				}
			}
			continue
		}
		f.cipherHits = append(f.cipherHits, h)
		sev := 0.45
		if blobRe.MatchString(f.t[a:min(len(f.t), end+300)]) {
			sev = 0.7
		}
		f.finds = append(f.finds, finding{rule: "encoded-order", tier: Contextual, kind: language, sev: sev, a: h, b: min(b, h+len("decode")), excerpt: clip(f.t[a:b]), lang: true})
	}
}

// private reports whether s (lower case) names the user's data or access.
func private(s string) bool {
	found := false
	eachWord(s, func(i, j int) { found = found || reqPrivateWords[s[i:j]] && !channelNoun(s, s[i:j], j) })
	for _, w := range reqPrivateSubs {
		if found || w[0] >= 0x80 && !nonASCII(s) {
			break
		}
		found = strings.Contains(s, w)
	}
	return found
}

// channelNoun: the word names a way to reach someone, not the user's
// data: "the contact form", "contact us", "the account page" are where
// a site asks to be written to.
func channelNoun(s, w string, j int) bool {
	if w != "contact" && w != "account" {
		return false
	}
	next := s[j:min(len(s), j+12)]
	for _, n := range []string{" form", " us", " page", " button", " link", " section"} {
		if strings.HasPrefix(next, n) && (len(next) == len(n) || !isWordByte(next[len(n)])) {
			return true
		}
	}
	return false
}

// mayAddress is the cheap test before reqAddresseeRe: a word or stem that
// can name a machine. The stems lists put ASCII first, as the loop stops
// at the first other one when s is ASCII.
func mayAddress(s string) bool {
	found := false
	eachWord(s, func(i, j int) { found = found || machineWords[s[i:j]] })
	for _, w := range machineStems {
		if found || w[0] >= 0x80 && !nonASCII(s) {
			break
		}
		found = strings.Contains(s, w)
	}
	return found
}

var (
	machineWords = wordSet(`ai a.i llm llms chatbot chatbots bot bots ki ia ии agent agents model models assistant assistants
		copilot copilots gpt chatgpt claude gemini alexa siri cortana automation automations бот
		asistente assistente assistent automated automatic whoever helper helpers
		modelo modelos modèle modèles modell modello modelli модель модели asystent asystencie asisten asistan`)
	machineStems = []string{"system:", "system]", "system update", "system notice", "you summar", "en summar", "le summar", "re summar",
		"en answering", "le answering", "en replying", "your new task", "your real task", "your actual task", "your true task", "your updated task", "you answer", "you respond", "you reply", "you process", "you parse", "you analy", "assist", "asist", "asysten", "ai-", "a.i.", "intelligen", "inteligen", "ki-", "-bot", "automatis", "automatiz", "language model", "sprachmodell", "modelo de", "modèle de", "нейросет", "модел",
		"ассистент", "асистент", "asszisztens", "avustaja", "人工智能", "助手", "助理", "アシスタント", "어시스턴트", "인공지능", "에이전트",
		"trợ lý", "مساعد", "الذكاء الاصطناعي", "دستیار", "सहायक", "ผู้ช่วย", "עוזר", "সহকারী"}
)

// unknownLanguage: s (lower case) is written in a language whose words
// flowd does not know: letters beyond ASCII and none of the words English
// and the languages of reqAddresseeRe build their sentences with. There a
// machine named and followed, within two words, by a comma or a colon
// (machineCalledRe: "AI सहायक:", "Trợ lý AI ơi,", "أيها المساعد،") is
// taken as called, for want of the grammar to tell; one named as a topic
// ("Câu hỏi về AI xin gửi tới ai@…") is not.
func unknownLanguage(s string) bool {
	if !nonASCII(s) {
		return false
	}
	known := false
	eachWord(s, func(i, j int) { known = known || knownFunctionWords[s[i:j]] })
	return !known
}

var machineCalledRe = regexp.MustCompile(`(?:(?:^|[^\p{L}\p{M}])(?:ai|ki|ia|llm|bot|chatbot|trợ\s+lý)|[\p{L}\p{M}]*(?:مساعد|دستیار|सहायक|ผู้ช่วย|עוזר|সহকারী|asszisztens|avustaja|assistent)[\p{L}\p{M}]*)(?:\s+[\p{L}\p{M}]+){0,2}\s*[,:،、]`)

var knownFunctionWords = wordSet(`the and to of is are you your please this that with for
	der die das und ist sie bitte le la les et est vous pour el los las y es por para il che di è o os e um uma het een en
	и в на не что это`)

// eachWord calls fn with the bounds of each word of s (letters, and
// hyphens inside one), up to 24 bytes long.
func eachWord(s string, fn func(i, j int)) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			i += n
			continue
		}
		j := i + n
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) && r != '-' {
				break
			}
			j += n
		}
		if j-i <= 24 {
			fn(i, j)
		}
		i = j
	}
}

// hasCJK: s holds a character of the CJK blocks or Hangul (UTF-8 lead
// bytes E3-E9: kana, ideographs; EA-ED: Hangul syllables), languages that
// put the recipient before the verb.
func hasCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE3 && s[i] <= 0xED {
			return true
		}
	}
	return false
}

func nonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// vocativeRe is an assistant called by name at the start of a sentence,
// after at most two words of greeting in any language ("Beste
// assistent,", "Drogi asystencie,", "Hej assistenten:"). The nouns are
// stems, so the case endings of other languages and a typo at the end
// still match.
var vocativeRe = regexp.MustCompile(`(?:^|[.!?\n;:]\s*)(?:[>*#\-|"\p{So}]+\s*)?[¡¿]?((?:[\p{L}'’]+,?\s+){0,2})(?:l['’])?((?:assist|asist|asysten|ассистент|асистент)\p{L}*|ai|ki|ia|ии|llm|chatbot|bot|бот|copilot|gpt|automation)(?:\s+(?:de|di|du|do|da|der|des)\s+\p{L}+|[\s\-]+(?:operator|triager|debugger|reviewer|helper|summari[sz]er|scheduler|planner|secretary|concierge|butler|bookkeeper|moderator|maintainer|responder|agent|assistant|ai|ia|ki)s?)?(?:\s*[,:!]|\s+[—–]\s|\s+(?:pls|plz|please|kindly|bitte|svp|por\s+favor)\s)`)

// machineLabelRe is a label that ends in the machine, opening a line or
// sentence: "Housekeeping task for the digital assistant:", "Automated
// CRM agent:", "reviewer-bot instructions:", "IA :". Its words are
// checked by machineLabel.
var machineLabelRe = regexp.MustCompile(`(?:^|[.!?\n;"'|(\[{]\s*)(?:[>*#\-]+\s*)?((?:[\p{L}'’\-]+\s+){0,5}?)(` + reqMachine + `|assistant|agent|model|bot|asistente|assistente|assistent)s?(\s+(?:instructions?|notes?|notice|directives?|tasks?|only))?\s*:`)

// machineLabel reports whether s holds a label addressed to a machine. A
// possessive makes it someone's ("Your travel agent:"); an agent or a
// model needs a word that makes it a machine ("browser agent:", not
// "sales agent:"); a handle alone is who speaks in a chat log
// ("deploy-bot: deployed…"), not who is spoken to.
func machineLabel(s string) bool {
	for _, m := range machineLabelRe.FindAllStringSubmatchIndex(s, 4) {
		words := strings.Fields(s[m[2]:m[3]])
		noun := s[m[4]:m[5]]
		ok := !(len(words) == 0 && m[6] < 0 && strings.Contains(noun, "-"))
		qualified := noun != "agent" && noun != "model"
		for _, w := range words {
			if possessive[w] {
				ok = false
			}
			qualified = qualified || machineWords[strings.Trim(w, "'’-")] || machineQualifier[w]
		}
		if ok && qualified {
			return true
		}
	}
	return false
}

var (
	possessive       = wordSet(`my your our his her their mon ma mes votre notre mein meine dein deine unser unsere mi mis tu tus su sus nuestro nuestra il`)
	machineQualifier = wordSet(`automated autonomous coding browser digital smart virtual software crm shopping scheduling calendar mail inbox llm-based ai-powered`)
)

// botHandleRe is a bot's handle opening a sentence ("@duo-bot as the
// maintainer's delegate…", "@ai-reviewer please…"): a machine called.
var botHandleRe = regexp.MustCompile(`(?:^|[.!?\n;:]\s*)(?:>\s*)*@[\w\-]*(?:bot|ai|gpt|copilot|assistant|agent|llm)(?:[^\w]|$)`)

// helpNoun: the word is help given ("assistance", "asistencia",
// "assistenza"), not a helper.
var helpNoun = regexp.MustCompile(`(?:nce|ncia|ncja|nza|ência|nţă)$`)

// notGreeting are the words before "assistant," that make it a person's
// assistant talked about, not one talked to ("my assistant, Jane, …").
var notGreeting = wordSet(`my our your his her their the a an this that its whose
	mon ma mes notre votre son sa le la les un une mein meine unser unsere ihr ihre der die das ein eine
	mi mis nuestro nuestra su sus el los las il lo gli uno o os um uma de het een onze mijn jouw`)

// vocative reports whether s calls an assistant by name at the start of
// a sentence.
func vocative(s string) bool {
	if strings.Contains(s, "@") && botHandleRe.MatchString(s) || strings.Contains(s, ":") && machineLabel(s) {
		return true
	}
	for _, m := range vocativeRe.FindAllStringSubmatchIndex(s, 4) {
		greeting := !helpNoun.MatchString(s[m[4]:m[5]])
		for _, w := range strings.Fields(strings.ReplaceAll(s[m[2]:m[3]], ",", " ")) {
			if notGreeting[w] {
				greeting = false
			}
		}
		if greeting {
			return true
		}
	}
	return false
}

// unleetWords returns s (lower case) with the leet digits of its words
// read as letters ("n0t1fy" is "notify", "bo7:" is "bot:"), offsets
// unchanged. A word is a run of letters and digits with at least two
// letters and no more digits than letters, not part of an address or a
// link (an IBAN, "c0ll3ct@…" and "/p4th" keep their digits: they are
// where things go, and read as written).
func unleetWords(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		if !isAlnum(s[i]) {
			i++
			continue
		}
		j, letters, digits := i, 0, 0
		for ; j < len(s) && isAlnum(s[j]); j++ {
			if s[j] <= '9' {
				digits++
			} else {
				letters++
			}
		}
		inAddress := i > 0 && strings.IndexByte("@./:=_-", s[i-1]) >= 0 || j < len(s) && strings.IndexByte("@/_", s[j]) >= 0 ||
			j+1 < len(s) && s[j] == '.' && isAlnum(s[j+1])
		if digits > 0 && letters >= 2 && digits <= letters && !inAddress {
			if b == nil {
				b = []byte(s)
			}
			for k := i; k < j; k++ {
				if c := leet[s[k]]; c != 0 && s[k] <= '9' {
					b[k] = c
				}
			}
		}
		i = j
	}
	if b == nil {
		return s
	}
	return string(b)
}

// addressesMachine: t speaks to a machine and asks it to do or say
// something, in words flowd reads (a comment or hidden element is judged
// so, as the person reading the page never sees it).
func addressesMachine(t string) bool {
	s := unleetWords(strings.ToLower(t))
	if !mayAddress(s) || !addressed(s) || humanRoleAfterMachine(s) {
		return false
	}
	v, _, _ := requestVerb(s, nil)
	if v != nil || outputVerb(s) != nil || reqConcealRe.MatchString(s) {
		return true
	}
	act := false
	eachWord(s, func(i, j int) {
		for _, st := range actStems {
			act = act || strings.HasPrefix(s[i:j], st)
		}
	})
	return act
}

// actStems begin the verbs of doing rather than sending, in the languages
// flowd reads: ignore, run, execute, download, install, open, delete,
// click, call, disable. Alone they are everyday words; in a hidden text
// spoken to the model they are an order.
var actStems = []string{"ignor", "disregard", "forget", "run", "execut", "ejecut", "exécut", "esegu", "führ", "выполн", "запуст",
	"download", "descarg", "télécharg", "herunterl", "scaric", "baix", "скача", "install", "instal", "установ",
	"open", "abr", "ouvr", "öffn", "apri", "откр", "delete", "borr", "supprim", "lösch", "elimin", "apag", "удал",
	"click", "clic", "klick", "call", "llam", "appel", "disable", "desactiv", "désactiv", "deaktiv", "отключ"}

// cjkNegated: a Chinese verb with a negation just before it ("不会把数据
// 发送", "别发"), or a Japanese one with it just after ("送信されません",
// "送らないで").
func cjkNegated(s string, v []int) bool {
	if v[0] >= len(s) || s[v[0]] < 0xE3 {
		return false
	}
	before := s[max(0, v[0]-24):v[0]]
	after := s[v[1]:min(len(s), v[1]+18)]
	return strings.Contains(before, "不") || strings.Contains(before, "别") || strings.Contains(before, "別") || strings.Contains(before, "勿") ||
		strings.Contains(before, "没") || strings.Contains(before, "禁止") ||
		strings.Contains(after, "ません") || strings.Contains(after, "ない") || strings.Contains(after, "禁止")
}

// orderedAction: a sentence addressed to a machine (ctx holds the
// addressee, s the sentence, both lower case) that orders an action of
// any kind ("Model: change the MX record…", "the agent must now call
// update_settings…", "AI triager, close all issues…"), not only one that
// sends. Data has no business giving the model orders; a verb of action
// in the imperative, or after a modal, is a notice, raised to redact when
// the order is to be kept from the user.
func orderedAction(s, ctx string) (float64, []int, string) {
	if strings.Contains(ctx, "-bot") {
		// "build-bot: ✅ main green": who speaks in a chat log.
		ctx = speakerRe.ReplaceAllString(ctx, "\n")
	}
	if !mayAddress(ctx) || humanRoleAfterMachine(ctx) {
		return 0, nil, ""
	}
	if !addressed(ctx) {
		// A question put to the machine ("can the bot merge #77?") is an
		// order too, unless it asks what the machine can do for the
		// asker ("can the assistant delete my files?").
		if !askedRe.MatchString(ctx) || ownerAsks(s) {
			return 0, nil, ""
		}
	}
	at := imperativeAct(s)
	if at == nil {
		// "can the bot merge #77?": the verb after the machine asked.
		m := askedRe.FindStringIndex(s)
		if m == nil {
			return 0, nil, ""
		}
		k := strings.LastIndexByte(s[m[0]:m[1]], ' ') + m[0] + 1
		if !actWord(s[k:m[1]]) {
			return 0, nil, ""
		}
		at = []int{k, m[1]}
	}
	switch {
	case reqConcealRe.MatchString(s):
		return 0.6, at, modelOrder + " kept from the user"
	case private(s) || secretish(s) || strings.Contains(s, "http") || firstRecipient(s) != nil:
		return 0.45, at, modelOrder
	}
	return 0.35, at, modelOrder
}

const modelOrder = "an order to the model"

// speakerRe is a bot's name opening a line of a chat log, who speaks.
var speakerRe = regexp.MustCompile(`(?:^|\n)\s*(?:\[[^\]\n]{1,24}\]\s*)?[\w.\-]+-bots?:`)

// imperativeAct returns the first verb of action in s (lower case) that
// stands where an order's verb stands: opening a clause (after a colon,
// comma or quote), or after a modal or "please" ("must now call", "should
// register", "please set"). Verbs negated before it are rules, not orders.
func imperativeAct(s string) []int {
	if hasCJK(s) {
		// Chinese, Japanese and Korean put the verb last and write no
		// spaces: an action named anywhere in an addressed sentence.
		for _, w := range actCJK {
			if k := strings.Index(s, w); k >= 0 && !cjkNegated(s, []int{k, k + len(w)}) {
				return []int{k, k + len(w)}
			}
		}
		return nil
	}
	var at []int
	last := []int(nil)
	prevEnd, prev := 0, ""
	eachWord(s, func(i, j int) {
		if at != nil {
			return
		}
		w := s[i:j]
		opens := prevEnd == 0 || strings.ContainsAny(s[prevEnd:i], ":,;!?\"'(>`\n–—")
		switch {
		case (opens || orderModal[prev]) && actWord(w) && !reqNegRe.MatchString(s[max(0, i-24):i]):
			at = []int{i, j}
		case opens && objectAfter(s, j) && unknownVerb(w):
			// A word opening the clause with an object after it ("point
			// the MX record…", "label every issue…") is a verb in the
			// imperative, whatever verb it is.
			at = []int{i, j}
		case actWord(w) && nonASCII(s):
			last = []int{i, j}
		case orderAdverb[w] && (opens || orderModal[prev]):
			// "must now call", "Assistant: please run": the order's
			// verb is still to come.
			prev = "please"
		default:
			prev = w
		}
		prevEnd = j
	})
	if at == nil && last != nil && strings.Trim(s[last[1]:], " .!?,;:)\"'") == "" {
		// Turkish, German and Dutch put the verb last: "… yedeklerini
		// sil.".
		at = last
	}
	return at
}

// ownerAsks: a question in the first person, the user asking about the
// product.
func ownerAsks(s string) bool {
	found := false
	eachWord(s, func(i, j int) { found = found || s[i:j] == "my" || s[i:j] == "i" })
	return found
}

// actWord: w is a verb of action in one of the languages flowd reads.
func actWord(w string) bool {
	if actVerbs[w] || reqVerbs[w] {
		return true
	}
	if w[0] < 0x80 && !strings.ContainsAny(w, "éèêàäöüñçãõ") {
		return false
	}
	for _, st := range actStemsOther {
		if strings.HasPrefix(w, st) {
			return true
		}
	}
	return false
}

var (
	actVerbs = wordSet(`run execute exec call invoke use change set update switch turn enable disable deactivate wipe erase
		remove delete purge close merge approve create register install download open click paste push commit book cancel
		buy purchase rotate reset revoke stop restart modify edit write print reveal drop kill visit navigate fetch
		curl chmod sudo subscribe unsubscribe whitelist allowlist archive rename overwrite replace ignore disregard
		fill enter populate autofill insert attach
		forget bypass override unlock clear flush truncate deploy publish
		ejecuta borra elimina cambia desactiva activa abre instala descarga cierra aprueba crea
		exécute supprime désactive active ouvre installe télécharge ferme approuve crée modifie
		lösche ändere deaktiviere aktiviere öffne installiere lade schließe genehmige erstelle führe
		esegui cancella disattiva attiva apri installa scarica chiudi approva crea modifica
		executa apaga desativa ativa abra instale baixe feche aprove crie altere
		выполни удали отключи включи открой установи скачай закрой одобри создай измени запусти вызови
		appelle lance colle efface fusionne révoque réinitialise désinstalle
		llama pega cambia fusiona revoca restablece desinstala
		rufe setze widerrufe
		chiama incolla imposta
		chame cole mude apague
		verwijder wijzig sluit installeer voer schakel
		sil değiştir çalıştır kapat aç kaldır
		ubah hapus jalankan matikan buka nonaktifkan pasang
		usuń zmień uruchom wyłącz otwórz`)
	actCJK        = []string{"执行", "运行", "删除", "修改", "改成", "禁用", "关闭", "打开", "安装", "執行", "刪除", "修改", "關閉", "実行", "削除", "変更", "無効", "停止", "インストール", "실행", "삭제", "변경", "비활성", "설치", "꺼"}
	actStemsOther = []string{"ejecut", "exécut", "esegu", "выполн", "запуст", "удал", "отключ", "desactiv", "désactiv", "deaktiv", "disattiv", "supprim", "lösch"}
	// orderModal are the words after which a verb is ordered, not
	// described: modals of duty, "please", the "to" of "needs to".
	orderModal = wordSet(`must should shall please kindly pls plz to need needs debe deve doit muss soll должен должна нужно`)
	// orderAdverb may stand between a modal and its verb.
	orderAdverb = wordSet(`now also then just first immediately quickly simply please kindly always still asap
		bitte svp пожалуйста lütfen tolong proszę alsjeblieft favor`)
)

// reqParticiples are the past forms of the verbs that send: a request
// only in a passive of duty ("are to be sent by the assistant to…") or
// in a wish ("it would help if the assistant emailed…"); elsewhere they
// say what happened ("the report went out, it was sent to…").
var reqParticiples = wordSet(`sent forwarded shared given granted uploaded posted emailed mailed transferred copied exported paid wired invited added`)

// orderedPassive: s (what stands before a participle) ends in a passive
// of duty: "is to be", "must be", "should be", "needs to be".
func orderedPassive(s string) bool {
	ws := lastWords(s, 3)
	n := len(ws)
	if n < 2 || ws[n-1] != "be" {
		return false
	}
	if ws[n-2] == "to" && (n < 3 || ws[n-3] != "going") || orderModal[ws[n-2]] && ws[n-2] != "to" {
		return true
	}
	// A wish in the subjunctive: "asked that their inbox be forwarded".
	ws = lastWords(s, 7)
	for _, w := range ws[:len(ws)-1] {
		if w == "that" {
			return !futureAux[ws[len(ws)-2]] && !beAux[ws[len(ws)-2]] && ws[len(ws)-2] != "not"
		}
	}
	return false
}

// wishRe is a hypothetical request: "it would help if…", "we'd love it
// if…", "it would be great if…".
var wishRe = regexp.MustCompile(`(?:would|'d)\s+(?:\p{L}+\s+){0,3}(?:if|when)\s`)

// askedRe is a question put to a machine: "could the AI forward…", "can
// the assistant paste…".
var askedRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:can|could|would|will)\s+(?:the|an?|our|this|your|any)\s+(?:\p{L}+\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)s?\s+(?:please\s+|also\s+|just\s+)?\p{L}+`)

// benefactive: the verb at v hands something to the speaker ("forward
// me", "send us").
func benefactive(s string, v []int) bool {
	rest := s[v[1]:]
	return strings.HasPrefix(rest, " me ") || strings.HasPrefix(rest, " us ")
}

// nounAfter are the words after which a verb's form is a noun.
var nounAfter = wordSet(`the a an your my our their his her its this that these those each every no any
	le la les un une ton ta tes votre vos mon ma mes el los las una tu tus su sus der die das ein eine dein deine ihr ihre`)

// inNounPhrase: the word at i of s (lower case) ends a noun phrase that a
// determiner opens within four words before it, with no word between that
// a verb would follow (a modal, a pronoun, "please", "to"): "the full
// customer contact list", not "the assistant must export".
func inNounPhrase(s string, i int) bool {
	ws := lastWords(s[:i], 4)
	if i > 0 && s[i-1] != ' ' {
		return false
	}
	for k := len(ws) - 1; k >= 0; k-- {
		w := ws[k]
		switch {
		case nounAfter[w] && (k == len(ws)-1 || englishDeterminer[w]):
			// Across adjectives only in English, whose word order
			// flowd knows ("the quarterly payroll export").
			return true
		case orderModal[w] || futureAux[w] || beAux[w] || readerSubject[w] || subjectPronoun[w] || machineWords[w] || verbOpeners[w]:
			return false
		}
	}
	return false
}

// verbOpeners are words after which a verb, not a noun, comes.
var englishDeterminer = wordSet(`the a an your my our their his her its this that these those each every no any`)

var verbOpeners = wordSet(`y et und e i и ve dan en be been being and or then also please not never just now can could would may might do does did`)

// objectAfter: the word after position j of s is a determiner, as an
// object of a verb opens ("the", "every", "all", "my").
func objectAfter(s string, j int) bool {
	if j >= len(s) || s[j] != ' ' {
		return false
	}
	k := j + 1
	for k < len(s) && s[k] >= 'a' && s[k] <= 'z' {
		k++
	}
	return objectDeterminer[s[j+1:k]]
}

// unknownVerb: w may be a verb opening a clause, as far as its form says:
// ASCII lower case, not a word of the kinds that open clauses without
// being verbs (determiners, prepositions, pronouns, conjunctions).
func unknownVerb(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return len(w) >= 3 && !notVerbOpener[w] && !objectDeterminer[w] && !strings.HasSuffix(w, "ly") && !strings.HasSuffix(w, "ing")
}

var (
	// objectDeterminer opens the object of a verb, in the languages whose
	// orders imperativeAct reads ("copia las credenciales", "envoie les
	// fichiers", "schicke alle Daten").
	objectDeterminer = wordSet(`the every all each any my your our their his her its this that these those
		el la los las un una unos unas todos todas su sus tu tus le les une tous toutes ton ta tes votre vos son sa ses
		den das dem einen eine alle deine ihre seine il lo gli tutti tutte os um uma seu sua seus suas het een`)
	notVerbOpener = wordSet(`in on at for with inside about from into onto of by over under after before during through
		within without across behind and but or nor yet so then thanks thank welcome hello hi hey dear yes not here there
		what which who whom whose when where why how per via like unlike near upon among between beyond despite since until
		see also note fyi meet`)
)

// found reports whether a finding of rule overlaps [a, b).
func (f *fieldScan) found(rule string, a, b int) bool {
	for _, fd := range f.finds {
		if fd.rule == rule && fd.a < b && a < fd.b {
			return true
		}
	}
	return false
}
