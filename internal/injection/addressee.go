package injection

import (
	"regexp"
	"strings"
)

// addressed reports whether ctx (lower case: a sentence and the text
// before it) speaks to the model reading it: the addressee shapes of
// reqAddresseeRe, a vocative or a label, or the general shapes of
// machineRoleRe. Whether a person is meant after all ("AI researchers
// should…") is humanRoleAfterMachine's to say.
func addressed(ctx string) bool {
	if reqAddresseeRe.MatchString(ctx) || vocative(ctx) || readerCalled(ctx) || dutyML(ctx) {
		return true
	}
	for _, m := range machineRoleRe.FindAllStringIndex(ctx, 4) {
		if !notCalledRe.MatchString(ctx[m[1]:]) {
			return true
		}
	}
	return false
}

// notCalledRe is what, right after a shape of machineRoleRe, says that
// no machine was called: a duty negated ("the duty of the assistant not
// to share…" is a rule), or a list the noun is one item of ("contact
// us (agent, broker or bank)").
var notCalledRe = regexp.MustCompile(`^\s*(?:not|never|no\s+longer)(?:$|[^\p{L}])|^\s*\p{L}+\s*(?:,|\bor\b|&)`)

// A machine is named by a phrase, not by a fixed list of phrases: a
// machine noun with up to two words before it ("browsing agents", "the
// scheduling assistant", "any automated reviewer"), or a word that makes
// the next noun a machine ("LLM clients", "AI reviewers", "automated
// triage"). machinePhrase is that phrase.
const machinePhrase = `(?:\p{L}[\p{L}\-]*\s+){0,2}(?:` + reqMachine + `|assistants?|agents?|models?|bots?)` +
	`|(?:ai|llm|gpt|bot|automated|automatic|autonomous)[\s\-]+\p{L}+`

// machineRoleRe holds the shapes in which a text gives a machine its
// part, whatever the words around it:
//   - a duty held by the machine ("it is the responsibility of any
//     automated reviewer to…", "the job of the assistant is to…");
//   - the machine called after a dash or a bracket ("halfway — agent,
//     read…", "(assistant, …");
//   - the machine described by what it does to this text (thisText), as a label
//     or a call, after the start of a clause or a word that addresses
//     ("AI reviewers reading this thread —", "Al modelo que lea este
//     informe:", "to the model that summarises this,"), in the
//     languages whose machine nouns machineNounML holds;
//   - a label to the user's own machine ("For your AI:", "To my
//     copilot:"), where a possessive makes a person of an assistant or an
//     agent but not of an AI, a model or a bot.
var machineRoleRe = regexp.MustCompile(
	`(?:responsibility|duty|job|task|obligation|role)\s+of\s+(?:the\s+|any\s+|every\s+|each\s+|all\s+|an?\s+|your\s+)?(?:` + machinePhrase + `)(?:$|[^\p{L}])` +
		`|(?:[—–(]|\s-)\s*(?:hey\s+|dear\s+|hi\s+)?(?:the\s+)?(?:` + reqMachine + `|assistant|agent|model|bot)\s*,\s` +
		// An unambiguous machine noun needs no more than a clause; an
		// assistant, an agent or a model may be a person or a product,
		// and is called only by what it does to this text.
		"|" + addressOpen + `(?:` + reqMachine + `|bots?|` + machineNounML + `|(?:ai|llm|gpt|automated|automatic|autonomous)(?:[\s\-]+\p{L}+){1,2})\s+` + relative + `(?:[\p{L}'’]+\s+){0,5}[\p{L}'’]+` + labelEnd +
		"|" + addressOpen + `(?:[\p{L}\-]+\s+)?(?:assistants?|agents?|models?)\s+` + relative + `(?:[\p{L}'’]+\s+){0,3}` + thisText + `\s+(?:[\p{L}'’\-]+\s+)?` + textNoun + `(?:\s+[\p{L}'’]+){0,2}` + labelEnd +
		`|(?:^|[^\p{L}])(?:for|to|attn)\s+(?:your|my|our|the\s+user's)\s+(?:` + reqMachine + `)(?:\s+\p{L}+)?\s*:`)

// addressOpen is where a call to a machine opens: a clause, or a word
// that addresses ("to", "for", "al", "für"…) and a determiner.
const addressOpen = `(?:^|[.!?\n;>(/—–]\s*["'“«]?|(?:^|[^\p{L}])(?:to|for|al|a|à|au|an|für|per|do|dla|для|к|para|pour)\s+)(?:(?:the|any|all|every|each|la|l'|el|den|die|il|o)\s+)?`

// relative opens what the machine does: a relative pronoun or a
// participle ("that reads", "que lea", "reading").
const relative = `(?:that|which|who|que|qui|der|die|das|che|kt[óo]r\p{L}*|som|\p{L}+ing)\s+`

// labelEnd closes a label or a call: a colon, a dash or a comma.
const labelEnd = `\s*(?:[:—–,]|\s-\s)`

// thisText and textNoun point at the text being read ("reading this
// thread", "que lea este informe"): what a machine does to it, not what a
// person does at work ("agents working the weekend shift:", "assistants
// who joined this year:").
const thisText = `(?:this|these|este|esta|estos|ce|cette|ces|diese[rsnm]?|dieses|questo|questa|deze|dit|ten|tę|bu|этот|эту|это|эти)`

const textNoun = `(?:page|thread|message|e-?mail|mail|document|doc|file|text|ticket|issue|record|review|invite|invitation|event|note|comment|post|listing|profile|entry|row|sheet|report|pdf|repo|repository|readme|log|output|result|data|content|conversation|chat|inbox|calendar` +
	`|correo|informe|página|mensaje|documento|archivo|factura|courriel|fichier|seite|nachricht|datei|dokument|bericht|pagina|messaggio|rapporto)s?`

// machineNounML are machine nouns of other languages that reqMachine,
// made for English phrases, does not hold alone.
const machineNounML = `modelos?|modèles?|modell[oi]?|модел\p{L}*|asystent\p{L}*|asisten|asistan\p{L}*|yapay\s+zek\p{L}*`

// readerCalled reports whether ctx names a machine by what it does to
// the text (readerRe) to call it: in a label, the phrase closed by a
// colon or a dash before the sentence ends ("…qui lit ce courriel :");
// not one that is someone's ("our AI assistant, which reads your
// inbox…"), nor the subject of a statement or a rule ("the assistant
// that reads incoming mail no longer forwards…", "der KI-Assistent, der
// E-Mails liest, soll…"), which talk about it.
func readerCalled(ctx string) bool {
	for _, m := range readerRe.FindAllStringIndex(ctx, 4) {
		before := lastWords(ctx[max(0, m[0]-40):m[0]+1], 2)
		owned := false
		for _, w := range before {
			owned = owned || possessive[w]
		}
		rest := ctx[m[1]-1 : min(len(ctx), m[1]+80)]
		// A salutation ends in a comma; a label in a colon or a dash.
		closed := rest[0] == ',' && salutationRe.MatchString(ctx[m[0]:m[1]]) || labelClosedRe.MatchString(rest)
		if !owned && closed && !negatedDutyRe.MatchString(rest) {
			return true
		}
	}
	return false
}

var salutationRe = regexp.MustCompile(`^[^\p{L}]?(?:dear|hello|hi|hey|attention|attn)\s`)

// labelClosedRe: a label's colon or dash comes before the sentence ends
// (a single line break may fold the label).
var labelClosedRe = regexp.MustCompile(`^\s*(?:[^.!?。！？\n:：]|[^.!?。！？\n:：]\n)*?(?:[:：]|\s[—–-]\s)`)

// negatedDutyRe is a rule in the clause after the machine is named: a
// modal negated.
var negatedDutyRe = regexp.MustCompile(`^[^.!?:;\n]*?(?:(?:should|must|shall|may|can|will|could|would|is\s+to|are\s+to)\s+(?:never|not)|shouldn't|mustn't|can't|cannot|won't|never)(?:$|[^\p{L}])`)

// readerRe is the machine named by what it does to the text, in any of
// the languages flowd reads: a machine noun (or its stem, which case
// endings and articles written as one word leave inside a longer word:
// "AI-assistenten", "المساعد") followed, within a few words, by a
// relative pronoun and a verb of reading or processing ("l'assistant
// automatique qui lit ce courriel", "asisten AI yang membaca halaman
// ini", "the helper that reads Sam's mail"). A person is rarely named by
// the act of reading the very text that names them; a mail assistant
// is. A salutation to someone's assistant ("Dear assistant of the
// account holder,") is the same call in a letter's form.
var readerRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:ai|ia|ki|llm|bots?|chatbots?|helpers?|copilots?|agents?|models?|` +
	`\p{L}*(?:assist|asist|asystent|ассистент|асистент|مساعد|assistent)\p{L}*)` +
	`(?:[\s\-]+[\p{L}'’]+){0,3}?[\s,]+` +
	`(?:that|which|who|qui|que|der|die|das|den|welche[rs]?|che|som|yang|kt[óo]r\p{L}*|который|которая|которые|الذي|التي|الذين|die|dat|o|ki)\s+` +
	`(?:\p{L}+\s+){0,2}?` +
	`(?:reads?|is\s+reading|processes|handles|opens|summari[sz]es|lit|lisent|traite|lee|leen|lea|procesa|legge|leggono|elabora|lê|leem|processa|liest|lesen|verarbeitet|leest|lezen|verwerkt|läser|behandlar|leser|læser|membaca|memproses|czyta|czytają|przetwarza|читает|читают|обрабатывает|يقرأ|تقرأ|يعالج|okuyan|okur|işleyen)(?:$|[^\p{L}])` +
	// Languages that put the participle first: "bu sayfayı okuyan
	// yapay zeka asistanı", "このメールを読んでいるAIアシスタント", "阅读此页面的AI助手",
	// "이 메일을 읽는 AI 어시스턴트".
	`|(?:okuyan|işleyen|読んでいる|を読む|を処理する|阅读|閱讀|读取|讀取|处理|處理|읽는|읽고\s+있는|처리하는)[^.!?。！？\n:：]{0,24}?(?:asistan\p{L}*|yapay\s+zek\p{L}*|(?:^|[^a-z])(?:ai|bot)(?:$|[^a-z])|助手|助理|アシスタント|エージェント|어시스턴트|에이전트)` +
	`|(?:^|[^\p{L}])(?:dear|hello|hi|hey|attention|attn)\s+(?:the\s+)?(?:ai\s+|virtual\s+|digital\s+)?(?:assistant|agent|bot|copilot)s?\s+(?:of|for|to|working\s+for)\s+(?:[\p{L}'’]+\s+){0,3}[\p{L}'’]+\s*[,:]`)

// dutyMLRe is what the machine must do, in the third person, in the
// languages besides English whose words flowd has ("Der Assistent muss
// sofort…", "l'assistant doit…", "el asistente debe…", "ассистент
// должен…"): the English shape of reqAddresseeRe ("the assistant
// should…") in other words.
var dutyMLRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:der|die|das|le|la|l'|el|il|lo|o|a|de|het|jeder|jede|chaque|cada|ogni|elke|każdy|каждый)?\s*` +
	`(?:ki-|ai-|ia\s+|ki\s+)?(?:assistent\p{L}*|assistant\p{L}*|asistente|assistente|asystent\p{L}*|ассистент\p{L}*|агент\p{L}*|bot|agent\p{L}*|modell|modèle|modelo|modello)` +
	`(?:\s+(?:de\s+|di\s+|d')?(?:ia|ki|ai|ии|virtuel\p{L}*|virtual\p{L}*))?\s+` +
	`(?:muss|müssen|soll|sollte|sollen|hat\s+zu|doit|doivent|devra|debe|deben|deberá|tiene\s+que|deve|devono|dovrà|precisa|moet|moeten|musi|powinien|должен|должна|обязан)\s+(\p{L}+)`)

// mlNegation: the word after the modal negates it ("muss nicht"; "ne
// doit pas", "no debe" put the negation before the modal, where the
// regexp does not match).
var mlNegation = wordSet(`nicht nie niemals pas jamais nunca mai niet nooit не никогда`)

// mlPassiveRe is a clause in the passive or reflexive: the assistant is
// what is done to ("doit être configuré", "debe encenderse", "muss
// eingeschaltet werden"), a manual's sentence, not an order to it.
var mlPassiveRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:être|ser|essere|werden|worden|zijn|być|быть)(?:$|[^\p{L}])`)

// dutyML reports whether ctx gives the machine a duty in another
// language (dutyMLRe), neither negated nor in the passive.
func dutyML(ctx string) bool {
	for _, m := range dutyMLRe.FindAllStringSubmatchIndex(ctx, 4) {
		clause := ctx[m[2]:]
		if k := strings.IndexAny(clause, ".!?;\n"); k >= 0 {
			clause = clause[:k]
		}
		next := ctx[m[2]:m[3]]
		reflexive := strings.HasSuffix(next, "rse") || strings.HasSuffix(next, "rsi")
		if !mlNegation[next] && !reflexive && !mlPassiveRe.MatchString(clause) {
			return true
		}
	}
	return false
}
